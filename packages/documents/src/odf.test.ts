import { describe, expect, it } from '@jest/globals';
import { odfPackage } from '@quarry/testkit';
import { strToU8, zipSync } from 'fflate';
import XLSX from 'xlsx';
import { extractDocument } from './extract.js';

const frame = (paragraphs: string) => `<draw:frame><draw:text-box>${paragraphs}</draw:text-box></draw:frame>`;

describe('OpenDocument', () => {
  it('reads a presentation slide by slide, each with its speaker notes', async () => {
    const slides =
      '<office:presentation>' +
      `<draw:page draw:name="page1">${frame('<text:p>Quarterly review</text:p>')}${frame(
        '<text:list><text:list-item><text:p>Revenue up</text:p></text:list-item><text:list-item><text:p>Costs &amp; risks</text:p></text:list-item></text:list>',
      )}<presentation:notes>${frame('<text:p>Say the numbers slowly.</text:p>')}</presentation:notes></draw:page>` +
      `<draw:page draw:name="page2">${frame('<text:p>Next<text:s/>steps</text:p>')}</draw:page>` +
      '</office:presentation>';
    const meta =
      '<dc:title>Review deck</dc:title><meta:initial-creator>Ada Lovelace</meta:initial-creator>' +
      '<dc:creator>Someone Else</dc:creator><meta:creation-date>2026-03-04T10:20:30</meta:creation-date>';
    const doc = await extractDocument(
      odfPackage('application/vnd.oasis.opendocument.presentation', slides, meta),
      'odp',
    );
    expect(doc.text).toBe('Quarterly review\n\nRevenue up\nCosts & risks\n\nSay the numbers slowly.\n\nNext steps');
    expect(doc.markdown).toBe(
      '## Quarterly review\n\n- Revenue up\n- Costs & risks\n\n> Say the numbers slowly.\n\n## Next steps',
    );
    expect(doc).toMatchObject({ title: 'Review deck', author: 'Ada Lovelace', published_at: '2026-03-04T10:20:30Z' });
  });

  it('leaves out deleted tracked changes, comments and the table of contents; keeps footnotes', async () => {
    const text =
      '<office:text>' +
      '<text:tracked-changes><text:changed-region><text:deletion><text:p>Deleted words</text:p></text:deletion></text:changed-region></text:tracked-changes>' +
      '<text:table-of-content><text:index-body><text:p>Contents 1</text:p></text:index-body></text:table-of-content>' +
      '<text:h text:outline-level="2">Findings</text:h>' +
      '<text:p>Water<office:annotation><text:p>check this</text:p></office:annotation> boils<text:note><text:note-citation>1</text:note-citation><text:note-body><text:p>At sea level.</text:p></text:note-body></text:note> at 100 degrees.</text:p>' +
      '<table:table><table:table-column/><table:table-header-rows><table:table-row><table:table-cell><text:p>Place</text:p></table:table-cell><table:table-cell><text:p>Boils at</text:p></table:table-cell></table:table-row></table:table-header-rows>' +
      '<table:table-row><table:table-cell><text:p>Everest</text:p></table:table-cell><table:table-cell><text:p>70</text:p></table:table-cell><table:table-cell table:number-columns-repeated="1000"/></table:table-row></table:table>' +
      '</office:text>';
    const doc = await extractDocument(odfPackage('application/vnd.oasis.opendocument.text', text), 'odt');
    expect(doc.text).toBe('Findings\n\nWater boils at 100 degrees.\n\nPlace Boils at\nEverest 70\n\nAt sea level.');
    expect(doc.markdown).toBe(
      '## Findings\n\nWater boils at 100 degrees.\n\n| Place | Boils at |\n| --- | --- |\n| Everest | 70 |\n\nAt sea level.',
    );
    // Its properties name nobody and nothing: its first heading titles it.
    expect(doc).toMatchObject({ title: 'Findings', author: null, published_at: null });
  });

  it('reads a spreadsheet written by SheetJS as tables, one section per sheet', async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ['City', 'Rain (mm)'],
        ['Bergen', 2250],
      ]),
      'Rain',
    );
    const bytes = XLSX.write(book, { bookType: 'ods', type: 'buffer' }) as Buffer;
    const doc = await extractDocument(bytes, 'ods');
    expect(doc.text).toBe('City Rain (mm)\nBergen 2250');
    expect(doc.markdown).toBe('## Rain\n\n| City | Rain (mm) |\n| --- | --- |\n| Bergen | 2250 |');
  });

  it('reads a package by its mimetype whatever it was served as, and refuses a zip of neither kind', async () => {
    const odt = odfPackage(
      'application/vnd.oasis.opendocument.text',
      '<office:text><text:p>Plain words</text:p></office:text>',
    );
    expect((await extractDocument(odt, 'xls')).text).toBe('Plain words');
    const other = Buffer.from(zipSync({ 'readme.txt': strToU8('hello') }));
    await expect(extractDocument(other, 'odt')).rejects.toMatchObject({ code: 'document_unreadable' });
  });
});

describe('OpenDocument tables', () => {
  // Tables as LibreOffice writes them (a Word file's tables saved as .odt), styles left out.
  const odt = (body: string) =>
    odfPackage('application/vnd.oasis.opendocument.text', `<office:text>${body}</office:text>`);
  const cell = (...paragraphs: string[]) =>
    `<table:table-cell>${paragraphs.map((p) => (p.startsWith('<') ? p : `<text:p>${p}</text:p>`)).join('')}</table:table-cell>`;
  const row = (...cells: string[]) => `<table:table-row>${cells.join('')}</table:table-row>`;
  const table = (...rows: string[]) =>
    `<table:table table:name="T"><table:table-column/>${rows.join('')}</table:table>`;
  const cities = table(
    row(cell('City'), cell('Population')),
    row(cell('Oslo'), cell('709,000')),
    row(cell('Lyon'), cell('522,000')),
  );

  it('reads a table holding a table as its content, the data table inside kept as a table', async () => {
    const form = table(
      row(cell('Office'), cell('Ana Lima')),
      row(cell('Cities'), cell('Our offices:', cities, 'Updated yearly.')),
    );
    const doc = await extractDocument(odt(`${form}<text:p>Signed.</text:p>`), 'odt');
    expect(doc.markdown).toBe(
      'Office\n\nAna Lima\n\nCities\n\nOur offices:\n\n| City | Population |\n| --- | --- |\n| Oslo | 709,000 |\n' +
        '| Lyon | 522,000 |\n\nUpdated yearly.\n\nSigned.',
    );
    expect(doc.text).toBe(
      'Office\n\nAna Lima\n\nCities\n\nOur offices:\n\nCity Population\nOslo 709,000\nLyon 522,000\n\nUpdated yearly.\n\nSigned.',
    );
  });

  it('reads a table of one row or one column as its paragraphs, headings and lists', async () => {
    const list = '<text:list><text:list-item><text:p>Grow sales</text:p></text:list-item></text:list>';
    const box = table(row(cell('<text:h text:outline-level="1">Annual Report</text:h>', 'Sales rose.', list)));
    const doc = await extractDocument(odt(box), 'odt');
    expect(doc.markdown).toBe('# Annual Report\n\nSales rose.\n\n- Grow sales');
    expect(doc.text).toBe('Annual Report\n\nSales rose.\n\nGrow sales');
    const columns = table(row(cell('Left column', 'Left text.'), cell('Right column', 'Right text.')));
    expect((await extractDocument(odt(columns), 'odt')).markdown).toBe(
      'Left column\n\nLeft text.\n\nRight column\n\nRight text.',
    );
  });

  it('writes merged cells in their columns, and their text once in the text', async () => {
    const covered = '<table:covered-table-cell/>';
    const sales = table(
      row(
        '<table:table-cell table:number-rows-spanned="2"><text:p>Region</text:p></table:table-cell>',
        '<table:table-cell table:number-columns-spanned="2"><text:p>Sales</text:p></table:table-cell>',
        covered,
      ),
      row(covered, cell('2023'), cell('2024')),
      row(cell('North'), cell('10'), cell('12')),
    );
    const doc = await extractDocument(odt(sales), 'odt');
    expect(doc.markdown).toBe(
      '| Region | Sales |  |\n| --- | --- | --- |\n| Region | 2023 | 2024 |\n| North | 10 | 12 |',
    );
    expect(doc.text).toBe('Region Sales\n2023 2024\nNorth 10 12');
  });
});
