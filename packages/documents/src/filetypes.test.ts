import { describe, expect, it } from '@jest/globals';
import { odfPackage } from '@quarry/testkit';
import XLSX from 'xlsx';
import {
  DOCUMENT_MIME_TYPES,
  filetypeFromContentType,
  filetypeFromDisposition,
  filetypeFromUrl,
  sniffFiletype,
} from './filetypes.js';

describe('filetypeFromContentType', () => {
  it.each([
    ['application/pdf', 'pdf'],
    ['Application/PDF; charset=binary', 'pdf'],
    ['application/msword', 'doc'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
    ['application/vnd.ms-powerpoint', 'ppt'],
    ['application/vnd.openxmlformats-officedocument.presentationml.presentation', 'pptx'],
    ['application/vnd.ms-excel', 'xls'],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx'],
    ['application/vnd.oasis.opendocument.text', 'odt'],
    ['application/vnd.oasis.opendocument.presentation', 'odp'],
    ['application/vnd.oasis.opendocument.spreadsheet', 'ods'],
    ['text/html; charset=utf-8', 'html'],
    ['application/xhtml+xml', 'html'],
    ['text/plain', 'txt'],
    ['text/markdown; charset=utf-8', 'md'],
    ['text/x-markdown', 'md'],
  ])('%s → %s', (mime, expected) => {
    expect(filetypeFromContentType(mime)).toBe(expected);
  });

  it('returns null for types Quarry does not index', () => {
    expect(filetypeFromContentType(null)).toBeNull();
    expect(filetypeFromContentType('image/png')).toBeNull();
    expect(filetypeFromContentType('application/octet-stream')).toBeNull();
    expect(filetypeFromContentType('')).toBeNull();
  });

  it('maps every listed MIME type to a document filetype', () => {
    for (const [mime, filetype] of Object.entries(DOCUMENT_MIME_TYPES)) {
      expect(filetypeFromContentType(mime)).toBe(filetype);
      expect(['html', 'txt']).not.toContain(filetype);
    }
  });
});

describe('filetypeFromUrl', () => {
  it.each([
    ['https://example.com/Report.PDF?download=1', 'pdf'],
    ['https://example.com/a/b.docx#page=2', 'docx'],
    ['http://example.com/slides.ppt', 'ppt'],
    ['http://example.com/data.xlsx', 'xlsx'],
    ['http://example.com/minutes.ODT', 'odt'],
    ['http://example.com/budget.ods', 'ods'],
    ['http://example.com/index.html', 'html'],
    ['http://example.com/notes.txt', 'txt'],
    ['http://example.com/README.md', 'md'],
  ])('%s → %s', (url, expected) => {
    expect(filetypeFromUrl(url)).toBe(expected);
  });

  it('ignores the query, unknown extensions and non-URLs', () => {
    expect(filetypeFromUrl('https://example.com/view?file=a.pdf')).toBeNull();
    expect(filetypeFromUrl('https://example.com/')).toBeNull();
    expect(filetypeFromUrl('https://example.com/image.png')).toBeNull();
    expect(filetypeFromUrl('https://example.pdf/')).toBeNull();
    expect(filetypeFromUrl('not a url.pdf')).toBeNull();
  });
});

describe('filetypeFromDisposition', () => {
  it.each([
    ['attachment; filename="Annual Report.PDF"', 'pdf'],
    ['attachment; filename="fallback.txt"; filename*=UTF-8\'\'Bericht%20%C3%BCber.docx', 'docx'],
    ['inline; filename=slides.odp', 'odp'],
    ['attachment', null],
    ['attachment; filename="archive.tar.gz"', null],
    ['attachment; filename="unterminated', null],
    [undefined, null],
  ])('%s → %s', (header, expected) => {
    expect(filetypeFromDisposition(header)).toBe(expected);
  });
});

describe('sniffFiletype', () => {
  it('knows a PDF by its header, even after some junk', () => {
    expect(sniffFiletype(Buffer.from('\n\n%PDF-1.7\n1 0 obj'))).toBe('pdf');
    expect(sniffFiletype(Buffer.from('<html>'))).toBeNull();
  });

  it('knows an Office file by its container (read as a doc, typed when read), not any zip', () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['a']]), 'One');
    const xls = XLSX.write(book, { bookType: 'biff8', type: 'buffer' }) as Buffer;
    expect(sniffFiletype(xls)).toBe('doc');
    expect(sniffFiletype(odfPackage('application/vnd.oasis.opendocument.text', '<office:text/>'))).toBe('doc');
    expect(sniffFiletype(localHeader('[Content_Types].xml'))).toBe('doc');
    expect(sniffFiletype(localHeader('word/document.xml'))).toBe('doc');
    expect(sniffFiletype(localHeader('photos/IMG_0001.jpg'))).toBeNull();
    expect(sniffFiletype(Buffer.from('PK\u0003\u0004...'))).toBeNull();
  });
});

/** The start of a zip whose first entry is `name` (a local file header, no data). */
function localHeader(name: string): Buffer {
  const header = Buffer.alloc(30);
  header.write('PK\u0003\u0004', 0, 'latin1');
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, Buffer.from(name, 'latin1')]);
}
