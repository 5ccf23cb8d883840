import { deflateSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { pagedPdf } from '@quarry/testkit';
import { Document, Packer, Paragraph } from 'docx';
import { strToU8, zipSync } from 'fflate';
import XLSX from 'xlsx';
import { extractDocument } from './extract.js';

const SHEET_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** An .xlsx of one sheet (`sheet1.xml`'s `<sheetData>` inside) and its shared strings. */
function workbook(sheetData: string, sharedStrings: readonly string[]): Buffer {
  const rels = (...targets: [string, string][]) =>
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${targets
      .map(([type, target], i) => `<Relationship Id="rId${i + 1}" Type="${REL}/${type}" Target="${target}"/>`)
      .join('')}</Relationships>`;
  const parts: Record<string, string> = {
    '[Content_Types].xml':
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    '_rels/.rels': rels(['officeDocument', 'xl/workbook.xml']),
    'xl/workbook.xml': `<workbook ${SHEET_NS} xmlns:r="${REL}"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': rels(['worksheet', 'worksheets/sheet1.xml'], ['sharedStrings', 'sharedStrings.xml']),
    'xl/worksheets/sheet1.xml': `<worksheet ${SHEET_NS}><sheetData>${sheetData}</sheetData></worksheet>`,
    'xl/sharedStrings.xml': `<sst ${SHEET_NS}>${sharedStrings.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`,
  };
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(parts).map(([name, xml]) => [name, strToU8(xml)]))));
}

/** A one-page PDF whose content stream, Flate-compressed, shows `line` and then `padding` spaces. */
function deflatedPdf(line: string, padding: number): Buffer {
  const content = deflateSync(Buffer.from(`BT /F1 14 Tf 72 720 Td (${line}) Tj ET\n${' '.repeat(padding)}`, 'latin1'));
  const objects: Buffer[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
      content,
      Buffer.from('\nendstream', 'latin1'),
    ]),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ].map((body) => (typeof body === 'string' ? Buffer.from(body, 'latin1') : body));
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let size = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(size);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    chunks.push(chunk);
    size += chunk.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ];
  chunks.push(
    Buffer.from(
      `${xref.join('')}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(chunks);
}

// Hostile and odd files, generated here, read by the real worker (the package's dist/ build).
describe('extractDocument on hostile and odd files', () => {
  it('reads the first pages of a PDF too slow to read whole, instead of failing at the timeout', async () => {
    // One page-tree node with 12,000 kids: pdf.js walks them for each page, so reading the whole
    // takes minutes; the first pages are what is indexed.
    const pages = Array.from({ length: 12_000 }, (_, i) => [`Flat tree page ${i + 1} of the report`]);
    const doc = await extractDocument(pagedPdf(pages, { title: 'Long report' }), 'pdf', { timeoutMs: 12_000 });
    expect(doc.title).toBe('Long report');
    expect(doc.text).toMatch(/^Flat tree page 1 of the report\b/);
    expect(doc.text).not.toContain('page 12000 of');
  }, 30_000);

  it('reads a sheet whose cells share one long string up to the text budget, not out of memory', async () => {
    // 60,000 cells naming one 64 KB string: 3.9 GB of text from a file of 150 KB.
    const rows = Array.from({ length: 6_000 }, (_, r) => {
      const cells = Array.from({ length: 10 }, (_, c) => {
        const ref = `${String.fromCharCode(65 + c)}${r + 1}`;
        return `<c r="${ref}" t="s"><v>${r === 0 && c === 0 ? 1 : 0}</v></c>`;
      });
      return `<row r="${r + 1}">${cells.join('')}</row>`;
    });
    const bytes = workbook(rows.join(''), ['bomb '.repeat(13_000), 'Inventory of the north warehouse']);
    expect(bytes.length).toBeLessThan(500_000);
    const doc = await extractDocument(bytes, 'xlsx', { maxTextChars: 1_000_000 });
    expect(doc.text.slice(0, 42)).toBe('Inventory of the north warehouse bomb bomb');
    expect(doc.text.length).toBeLessThanOrEqual(1_000_000);
    expect(doc.text.length).toBeGreaterThan(900_000);
  }, 30_000);

  it('refuses a PDF whose content stream inflates past the budget, and reads one within it', async () => {
    const budget = 16 * 1024 * 1024;
    // 64 MiB of spaces deflate to about 64 KB: pdf.js would inflate them whole, outside the heap limit.
    const bomb = deflatedPdf('Harbour report', 64 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(200_000);
    await expect(extractDocument(bomb, 'pdf', { maxUnzippedBytes: budget })).rejects.toMatchObject({
      code: 'document_too_large',
    });
    const fine = await extractDocument(deflatedPdf('Harbour report', 1024 * 1024), 'pdf', { maxUnzippedBytes: budget });
    expect(fine.text).toBe('Harbour report');
  }, 30_000);

  it('says a PDF that opens only with a password is encrypted', async () => {
    const locked = extractDocument(pagedPdf([['Payroll']], { locked: true }), 'pdf');
    await expect(locked).rejects.toMatchObject({ code: 'document_encrypted' });
  });

  it('reads a file as what its bytes are, and says what that is', async () => {
    const word = await Packer.toBuffer(
      new Document({ sections: [{ children: [new Paragraph('Minutes of the harbour board')] }] }),
    );
    const sheet = (bookType: 'xlsx' | 'biff8') => {
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Tide table', 'High water']]), 'Tides');
      return XLSX.write(book, { type: 'buffer', bookType }) as Buffer;
    };
    const read = async (bytes: Buffer, served: 'pdf' | 'doc' | 'ppt') => {
      const doc = await extractDocument(bytes, served);
      return [doc.filetype, doc.text];
    };
    expect(await read(word, 'pdf')).toEqual(['docx', 'Minutes of the harbour board']);
    expect(await read(pagedPdf([['Ferry timetable']]), 'doc')).toEqual(['pdf', 'Ferry timetable']);
    expect(await read(sheet('xlsx'), 'doc')).toEqual(['xlsx', 'Tide table High water']);
    expect(await read(sheet('biff8'), 'ppt')).toEqual(['xls', 'Tide table High water']);
  }, 30_000);
});
