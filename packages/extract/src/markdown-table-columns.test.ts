import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { marked, type Tokens } from 'marked';
import type { DomImpl } from './dom.js';
import { extractHtml } from './extract-html.js';
import { dropEmptyColumns } from './markdown-table-columns.js';

/** The tables a GitHub-flavoured reader (marked) finds in the markdown, each as its rows of cell texts, header first. */
function tablesOf(markdown: string): string[][][] {
  return marked
    .lexer(markdown)
    .filter((token): token is Tokens.Table => token.type === 'table')
    .map((table) => [table.header.map((c) => c.text), ...table.rows.map((row) => row.map((c) => c.text))]);
}

describe('dropEmptyColumns', () => {
  it('removes a column empty in every row, so that the delimiter row reads as one', () => {
    const markdown = '| Dec | x   |  |\n| --- | --- |  |\n| Sun | Mon |  |';
    expect(tablesOf(markdown)).toEqual([]);
    const mended = dropEmptyColumns(markdown);
    expect(mended).toBe('| Dec | x   |\n| --- | --- |\n| Sun | Mon |');
    expect(tablesOf(mended)).toEqual([
      [
        ['Dec', 'x'],
        ['Sun', 'Mon'],
      ],
    ]);
  });

  it('keeps a column that any row fills, the header included, and escaped pipes inside cells', () => {
    const filled = '| A |  | C      |\n| - |  | ------ |\n| 1 |  | 3 \\| x |\n|   | y |        |';
    expect(tablesOf(dropEmptyColumns(filled))).toEqual([
      [
        ['A', '', 'C'],
        ['1', '', '3 | x'],
        ['', 'y', ''],
      ],
    ]);
    const spacer = '| A |  | C      |\n| - |  | ------ |\n| 1 |  | 3 \\| x |\n| 2 |  | `a\\|b` |';
    expect(tablesOf(dropEmptyColumns(spacer))).toEqual([
      [
        ['A', 'C'],
        ['1', '3 | x'],
        ['2', '`a|b`'],
      ],
    ]);
  });

  it('removes a table that is empty in every column, and reads tables in quotes', () => {
    expect(dropEmptyColumns('Before\n\n|  |  |\n|  |  |\n|  |  |\n\nAfter')).toBe('Before\n\n\nAfter');
    expect(dropEmptyColumns('> | A |  |\n> | - |  |\n> | 1 |  |')).toBe('> | A |\n> | - |\n> | 1 |');
  });

  it('leaves code blocks, tables without empty columns and text without tables as they are', () => {
    const fenced = '```\n| a |  |\n| - |  |\n```';
    expect(dropEmptyColumns(fenced)).toBe(fenced);
    const whole = '| a | b |\n| - | - |\n| 1 | 2 |';
    expect(dropEmptyColumns(whole)).toBe(whole);
    expect(dropEmptyColumns('a | b\n\nc')).toBe('a | b\n\nc');
  });
});

describe.each<DomImpl>(['linkedom', 'jsdom'])('empty table cells in the markdown (%s)', (dom) => {
  const para = `<p>${'This paragraph explains the plans in some detail, so that the page reads as an article. '.repeat(4)}</p>`;
  const markdownOf = (table: string) =>
    extractHtml(
      `<html><head><title>Plans compared</title></head><body><article><h1>Plans compared</h1>${para}${para}${table}${para}</article></body></html>`,
      { url: 'https://example.com/plans', dom },
    ).body_markdown;

  it('keeps each value under its header when a cell holds only an icon or an empty element', () => {
    const check = '<svg viewBox="0 0 10 10" aria-hidden="true"><path d="M1 5l3 3 5-7"/></svg>';
    const table =
      '<table><tr><th>Feature</th><th>Free</th><th>Pro</th><th>Note</th></tr>' +
      `<tr><td>Exports</td><td>${check}</td><td>${check}</td><td>included</td></tr>` +
      `<tr><td>Teams</td><td><i class="icon-x"></i></td><td>${check}</td><td>from $10</td></tr>` +
      '<tr><td>Support</td><td><span class="dash"></span></td><td>24/7</td><td>email</td></tr></table>';
    expect(tablesOf(markdownOf(table))).toEqual([
      [
        ['Feature', 'Free', 'Pro', 'Note'],
        ['Exports', '', '', 'included'],
        ['Teams', '', '', 'from $10'],
        ['Support', '', '24/7', 'email'],
      ],
    ]);
  });

  it('writes a calendar whose month spans two columns over an empty one as a table', () => {
    const table =
      '<table><tr><th colspan="2">December 2007</th><th></th></tr>' +
      '<tr><td>Sun</td><td></td><td>Mon</td></tr><tr><td>2</td><td> </td><td>3</td></tr></table>';
    expect(tablesOf(markdownOf(table))).toEqual([
      [
        ['December 2007', ''],
        ['Sun', 'Mon'],
        ['2', '3'],
      ],
    ]);
  });
});

const WCXB = join(import.meta.dirname, '../../../../shared/testdata/wcxb-dev/dev');
const wcxbPresent = existsSync(WCXB);
if (!wcxbPresent) console.warn(`wcxb table tests skipped: ${WCXB} is absent`);

(wcxbPresent ? describe : describe.skip)('tables of real pages in the markdown', () => {
  /** A WCXB dev page's markdown. */
  function markdownOf(id: string): string {
    const { url } = JSON.parse(readFileSync(join(WCXB, 'ground-truth', `${id}.json`), 'utf8')) as { url: string };
    const html = gunzipSync(readFileSync(join(WCXB, 'html', `${id}.html.gz`))).toString('utf8');
    return extractHtml(html, { url }).body_markdown;
  }

  it.each([
    // 2898 (half A, a price comparison): its table of offers ends in a column of buttons.
    ['2898', ['Merchant', 'Base', 'Promo', 'Shipping', 'Tax', 'Availability', 'Total']],
    // 0231 (half A, a comparison of streaming platforms): a last column of icons.
    ['0231', ['Platform', 'Audience size', 'Demographic', 'Cost', 'Minimum followers to go live', 'Multistreaming']],
    // 4265 (half B, projector reviews): each spec table's title spans two columns.
    ['4265', ['Nebula Mars 3 Specs']],
  ])('reads every table of %s as a table', (id, header) => {
    const markdown = markdownOf(id);
    const delimiterRows = markdown.split('\n').filter((line) => /^\|[\s|:-]*-[\s|:-]*$/.test(line));
    const tables = tablesOf(markdown);
    expect(tables).toHaveLength(delimiterRows.length);
    expect(tables.some((table) => header.every((name, i) => table[0]?.[i] === name))).toBe(true);
  });
});
