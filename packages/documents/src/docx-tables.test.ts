import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { extractDocument } from './extract.js';

/** A Word file of `children`, written by the docx library as Word writes one. */
const word = async (children: (Paragraph | Table)[]): Promise<Buffer> =>
  Packer.toBuffer(new Document({ sections: [{ children }] }));

const cell = (...children: (string | Paragraph | Table)[]): TableCell =>
  new TableCell({ children: children.map((c) => (typeof c === 'string' ? new Paragraph(c) : c)) });
const row = (cells: (string | TableCell)[], tableHeader?: boolean): TableRow =>
  new TableRow({ children: cells.map((c) => (typeof c === 'string' ? cell(c) : c)), tableHeader });
const heading = (text: string, level: (typeof HeadingLevel)[keyof typeof HeadingLevel]): Paragraph =>
  new Paragraph({ text, heading: level });

/** Cities: a header row (Word's "Repeat as header row") and two rows of figures. */
const cities = (): Table =>
  new Table({
    rows: [
      row(['City', 'Population', 'Country'], true),
      row(['Oslo', '709,000', 'Norway']),
      row(['Lyon', '522,000', 'France']),
    ],
  });

const TEXTRACT_DOCX = fileURLToPath(new URL('../../../../shared/testdata/office/textract/docx', import.meta.url));
const OFFICEPARSER_DOCX = fileURLToPath(
  new URL('../../../../shared/testdata/office/officeparser/files/test.docx', import.meta.url),
);

describe('Word tables', () => {
  it('writes a data table as a markdown table, and in the text a line per row', async () => {
    const doc = await extractDocument(
      await word([new Paragraph('Before the table.'), cities(), new Paragraph('After the table.')]),
      'docx',
    );
    expect(doc.markdown).toBe(
      'Before the table.\n\n| City | Population | Country |\n| --- | --- | --- |\n| Oslo | 709,000 | Norway |\n' +
        '| Lyon | 522,000 | France |\n\nAfter the table.',
    );
    expect(doc.text).toBe(
      'Before the table.\n\nCity Population Country\nOslo 709,000 Norway\nLyon 522,000 France\n\nAfter the table.',
    );
  });

  it('reads a table holding a table as its content, the data table inside kept as a table', async () => {
    const form = new Table({
      rows: [row(['Office', 'Ana Lima']), row([cell('Cities'), cell('Our offices:', cities(), 'Updated yearly.')])],
    });
    const doc = await extractDocument(await word([form, new Paragraph('Signed.')]), 'docx');
    expect(doc.markdown).toBe(
      'Office\n\nAna Lima\n\nCities\n\nOur offices:\n\n| City | Population | Country |\n| --- | --- | --- |\n' +
        '| Oslo | 709,000 | Norway |\n| Lyon | 522,000 | France |\n\nUpdated yearly.\n\nSigned.',
    );
    expect(doc.text).toBe(
      'Office\n\nAna Lima\n\nCities\n\nOur offices:\n\nCity Population Country\nOslo 709,000 Norway\n' +
        'Lyon 522,000 France\n\nUpdated yearly.\n\nSigned.',
    );
  });

  it('reads a table framing the document, or laying it out in columns, as its headings, paragraphs and lists', async () => {
    const box = new Table({
      rows: [
        row([
          cell(
            heading('Annual Report', HeadingLevel.HEADING_1),
            'Sales rose in every region.',
            heading('Goals', HeadingLevel.HEADING_2),
            new Paragraph({ text: 'Grow sales', bullet: { level: 0 } }),
            new Paragraph({ text: 'Hire staff', bullet: { level: 0 } }),
          ),
        ]),
      ],
    });
    const boxed = await extractDocument(await word([box]), 'docx');
    expect(boxed.markdown).toBe(
      '# Annual Report\n\nSales rose in every region.\n\n## Goals\n\n- Grow sales\n- Hire staff',
    );
    expect(boxed.text).toBe('Annual Report\n\nSales rose in every region.\n\nGoals\n\nGrow sales\n\nHire staff');
    expect(boxed.title).toBe('Annual Report');

    const columns = new Table({
      rows: [
        row([cell(heading('North', HeadingLevel.HEADING_2), 'Sales rose.'), cell('South'), cell('Sales fell.')]),
        row(['', 'Two offices opened.', 'One closed.']),
      ],
    });
    const laidOut = await extractDocument(await word([columns]), 'docx');
    expect(laidOut.markdown).toBe(
      '## North\n\nSales rose.\n\nSouth\n\nSales fell.\n\nTwo offices opened.\n\nOne closed.',
    );
  });

  it('writes merged cells in their columns, and their text once in the text', async () => {
    const sales = new Table({
      rows: [
        row(
          [
            new TableCell({ children: [new Paragraph('Region')], rowSpan: 2 }),
            new TableCell({ children: [new Paragraph('Sales')], columnSpan: 2 }),
          ],
          true,
        ),
        row(['2023', '2024'], true),
        row(['North', '10', '12']),
        row([new TableCell({ children: [new Paragraph('South')], rowSpan: 2 }), cell('7'), cell('9')]),
        row(['8', '11']),
      ],
    });
    const doc = await extractDocument(await word([sales]), 'docx');
    // As a page's table is written (markdown-table-spans.ts): each row reads whole.
    expect(doc.markdown).toBe(
      '| Region | Sales | |\n| --- | --- | --- |\n| Region | 2023 | 2024 |\n| North | 10 | 12 |\n| South | 7 | 9 |\n| South | 8 | 11 |',
    );
    expect(doc.text).toBe('Region Sales\n2023 2024\nNorth 10 12\nSouth 7 9\n8 11');
  });

  const withTextract = existsSync(TEXTRACT_DOCX) ? it : it.skip;
  if (!existsSync(TEXTRACT_DOCX)) console.warn(`documents: ${TEXTRACT_DOCX} is absent; skipping its Word tables`);
  withTextract('keeps the table nested in a real Word file’s table, and every cell’s text once', async () => {
    const doc = await extractDocument(readFileSync(`${TEXTRACT_DOCX}/paragraphs_and_tables.docx`), 'docx');
    expect(doc.markdown).toContain(
      'INNER TABLE!\n\n| Inner 1,1 | Inner 1,2 |\n| --- | --- |\n| Inner 2,1 | Inner 1,2 |\n\nThis is the paragraph after the table.',
    );
    expect(doc.text).toContain(
      'INNER TABLE!\n\nInner 1,1 Inner 1,2\nInner 2,1 Inner 1,2\n\nThis is the paragraph after',
    );
    for (const text of [doc.text, doc.markdown]) {
      for (const r of [1, 2]) for (const c of [1, 2, 3]) expect(text.split(`Row ${r}, Column ${c}`)).toHaveLength(2);
    }
  });

  const withOfficeparser = existsSync(OFFICEPARSER_DOCX) ? it : it.skip;
  withOfficeparser('reads a real Word file’s table framed in a one-cell table as a table', async () => {
    const doc = await extractDocument(readFileSync(OFFICEPARSER_DOCX), 'docx');
    expect(doc.markdown).toMatch(/^\| One Three \| Two \|\n\| --- \| --- \|\n\| One Three \| Four \|$/m);
    expect(doc.text).toMatch(/^One Three Two\nFour$/m);
    expect(doc.text).toMatch(/^ITEM NEEDED\nBooks 1\nPens 3$/m);
  });
});
