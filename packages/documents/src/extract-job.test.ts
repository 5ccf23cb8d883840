import { describe, expect, it } from '@jest/globals';
import { minimalPdf } from '@quarry/testkit';
import { strToU8, zipSync } from 'fflate';
import XLSX from 'xlsx';
import { documentTitle, extractHere, firstHeading } from './extract-job.js';

describe('documentTitle', () => {
  it.each([
    ['Microsoft Word - Annual report 2019.docx', 'Annual report 2019'],
    ['Microsoft PowerPoint - Q3 review.pptx', 'Q3 review'],
    ['worksheet functions.xlsx', 'worksheet functions'],
    ['The role of mentorship in protégé performance', 'The role of mentorship in protégé performance'],
    ['Version 2.0', 'Version 2.0'],
    ['00463065.tif', null],
    ['Document1', null],
    ['Untitled-3', null],
    ['PowerPoint Presentation', null],
    ['2019', null],
    ['C:\\Users\\bob\\Desktop\\draft_v2.pdf', 'draft_v2'],
    ['/home/ann/papers/thesis.pdf', 'thesis'],
    ['main.dvi', 'main'],
    ['figures.ps', 'figures'],
    [null, null],
  ])('%s → %s', (title, expected) => {
    expect(documentTitle(title)).toBe(expected);
  });

  it.each([
    ['/home/ann/papers/thesis.pdf', 'Sparse Trees'],
    ['main.dvi', 'Sparse Trees'],
    ['Untitled', 'Sparse Trees'],
    [null, 'Sparse Trees'],
    ['A Study of Sparse Trees', 'A Study of Sparse Trees'],
    ['Version 2.0', 'Version 2.0'],
  ])('%s, the document opening with a heading → %s', (title, expected) => {
    expect(documentTitle(title, 'Sparse Trees')).toBe(expected);
  });
});

describe('firstHeading', () => {
  it.each([
    ['Intro text\n\n# Annual \\*Report\\* 2024\n\nBody', 'Annual *Report* 2024'],
    ['## [Q3 review](https://example.com/q3)[^1]\n\nBody', 'Q3 review'],
    ['No heading at all', null],
    ['# 2024\n\nBody', null],
    [`${'Body text. '.repeat(400)}\n\n# Too far down`, null],
  ])('%j → %s', (markdown, expected) => {
    expect(firstHeading(markdown)).toBe(expected);
  });
});

describe('extractHere', () => {
  const deck = `<p:sld><p:cSld><p:spTree><p:sp><p:nvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>Quarterly review</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
  const job = (filetype: 'pptx', entries: Record<string, string>) => ({
    bytes: zipSync(Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, strToU8(v)]))),
    filetype,
    maxTextChars: 100_000,
    maxUnzippedBytes: 10_000_000,
    maxReadMs: 10_000,
  });

  it('names a document its properties leave untitled by its first heading', async () => {
    const untitled = await extractHere(job('pptx', { 'ppt/slides/slide1.xml': deck }));
    expect(untitled.title).toBe('Quarterly review');
    const named = await extractHere(
      job('pptx', {
        'ppt/slides/slide1.xml': deck,
        'docProps/core.xml':
          '<cp:coreProperties xmlns:cp="c" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Board deck</dc:title></cp:coreProperties>',
      }),
    );
    expect(named.title).toBe('Board deck');
  });

  it("names a document by its heading, or by its file's name, when its properties give a file's path", async () => {
    const pathed = await extractHere(
      job('pptx', {
        'ppt/slides/slide1.xml': deck,
        'docProps/core.xml':
          '<cp:coreProperties xmlns:cp="c" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>C:\\Users\\bob\\Desktop\\deck_v2.pptx</dc:title></cp:coreProperties>',
      }),
    );
    expect(pathed.title).toBe('Quarterly review');
    // A PDF of one size of text has no heading.
    const pdf = (title: string) =>
      extractHere({ ...job('pptx', {}), bytes: minimalPdf(['Some text.'], { title }), filetype: 'pdf' });
    expect((await pdf('/home/ann/papers/thesis.pdf')).title).toBe('thesis');
    expect((await pdf('main.dvi')).title).toBe('main');
  });

  it("never names a workbook by its first sheet's name", async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Region', 'Sales']]), 'Sheet1');
    const bytes = new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const doc = await extractHere({
      bytes,
      filetype: 'xlsx',
      maxTextChars: 100_000,
      maxUnzippedBytes: 10_000_000,
      maxReadMs: 10_000,
    });
    expect(doc.markdown).toMatch(/^## Sheet1/);
    expect(doc.title).toBeNull();
  });
});
