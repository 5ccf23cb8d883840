import { describe, expect, it } from '@jest/globals';
import { JSDOM } from 'jsdom';
import { parseHTML } from 'linkedom';
import { marked, type Tokens } from 'marked';
import { contentMarkdown } from './markdown.js';
import { alignSpannedCells, unfoldRaggedTables } from './markdown-table-spans.js';

const DOMS = {
  linkedom: (html: string) =>
    parseHTML(`<html><body><div id="c">${html}</div></body></html>`).document.getElementById('c') as unknown as Element,
  jsdom: (html: string) =>
    new JSDOM(`<html><body><div id="c">${html}</div></body></html>`).window.document.getElementById('c') as Element,
};

/** The rows of the markdown's one table as read back by a GFM parser (marked), header first. */
function rowsOf(markdown: string): string[][] {
  const table = marked.lexer(markdown).find((t): t is Tokens.Table => t.type === 'table');
  if (table === undefined) throw new Error(`no table in ${markdown}`);
  return [table.header.map((c) => c.text), ...table.rows.map((row) => row.map((c) => c.text))];
}

describe.each(['linkedom', 'jsdom'] as const)('alignSpannedCells (%s)', (dom) => {
  const markdown = (html: string) => contentMarkdown(DOMS[dom](html));

  it('writes a cell spanning rows in each of them, at its column', () => {
    const html =
      '<table><tr><th>Year</th><th>Team</th><th>Score</th></tr>' +
      '<tr><td rowspan="2">2024</td><td>Red</td><td>3</td></tr><tr><td>Blue</td><td>5</td></tr></table>';
    expect(rowsOf(markdown(html))).toEqual([
      ['Year', 'Team', 'Score'],
      ['2024', 'Red', '3'],
      ['2024', 'Blue', '5'],
    ]);
  });

  it('follows a cell spanning columns with empty ones, so that the next cell keeps its column', () => {
    const html =
      '<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td colspan="2">ab</td><td>c</td></tr>' +
      '<tr><td>1</td><td>2</td><td>3</td></tr></table>';
    expect(rowsOf(markdown(html))).toEqual([
      ['A', 'B', 'C'],
      ['ab', '', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('carries a cell spanning rows and columns, and one in the last column past a short row', () => {
    const html =
      '<table><tr><th>A</th><th>B</th><th>C</th></tr><tr><td rowspan="2" colspan="2">big</td><td>x</td></tr>' +
      '<tr><td>y</td></tr><tr><td>1</td><td rowspan="9">z</td><td>2</td></tr><tr><td>3</td></tr></table>';
    expect(rowsOf(markdown(html))).toEqual([
      ['A', 'B', 'C'],
      ['big', '', 'x'],
      ['big', '', 'y'],
      ['1', 'z', '2'],
      ['3', 'z', ''],
    ]);
  });

  it('takes a span that is no whole number from 1 as 1, and leaves a table without spans as it is', () => {
    const root = DOMS[dom](
      '<table><tr><td colspan="0">a</td><td rowspan="x">b</td></tr><tr><td>c</td><td>d</td></tr></table>' +
        '<table><tr><td>e</td></tr></table>',
    );
    expect(alignSpannedCells(root)).toBe(1);
    expect(root.querySelectorAll('[colspan], [rowspan]')).toHaveLength(0);
    expect(Array.from(root.querySelectorAll('tr')).map((row) => row.children.length)).toEqual([2, 2, 1]);
  });

  it('leaves out a spacer row of a table it lays out, but not a row of pictures', () => {
    const html =
      '<table><tr><th colspan="2">Areas</th></tr><tr><td>AI</td><td>3</td></tr>' +
      '<tr><td colspan="2"><small>&nbsp;</small></td></tr><tr><td><img src="/a.png" alt=""></td><td> </td></tr>' +
      '<tr><td>Theory</td><td>4</td></tr></table>';
    expect(rowsOf(markdown(html))).toEqual([
      ['Areas', ''],
      ['AI', '3'],
      ['![](/a.png)', ''],
      ['Theory', '4'],
    ]);
  });

  it('lays out no more than 20,000 added cells a page: a table asking for more is left as written', () => {
    // 15 cells each spanning 1,000 columns (14,985 added), then again: the second is over the budget.
    const wide = (text: string) =>
      `<table>${Array.from({ length: 15 }, () => `<tr><td colspan="1000">${text}</td></tr>`).join('')}</table>`;
    const small = '<table><tr><td rowspan="2">a</td><td>b</td></tr><tr><td>c</td></tr></table>';
    const root = DOMS[dom](small + wide('x') + wide('y') + small);
    expect(alignSpannedCells(root)).toBe(3);
    const tables = Array.from(root.querySelectorAll('table'));
    expect(tables.map((table) => table.querySelectorAll('td').length)).toEqual([4, 15_000, 15, 4]);
    expect(tables[2]?.querySelectorAll('[colspan]')).toHaveLength(15);
    // Spans no page could need (a 3 KB page asked for billions of cells): each is taken as 1,000
    // columns, so twenty of the fifty tables fill the budget and the others are left as written.
    const huge = DOMS[dom]('<table><tr><td rowspan="999999999" colspan="999999999">a</td></tr></table>'.repeat(50));
    expect(alignSpannedCells(huge)).toBe(20);
    expect(huge.querySelectorAll('td')).toHaveLength(20 * 1_000 + 30);
  });

  it('lays out a nested table on its own', () => {
    const html =
      '<table><tr><th>Outer</th><th>Inner</th></tr><tr><td rowspan="2">o</td><td>' +
      '<table><tr><td colspan="2">n</td><td>m</td></tr></table></td></tr><tr><td>p</td></tr></table>';
    const root = DOMS[dom](html);
    alignSpannedCells(root);
    const [outer, inner] = Array.from(root.querySelectorAll('table'));
    const cells = (table: Element | undefined, row: number) =>
      Array.from(
        Array.from(table?.querySelectorAll('tr') ?? []).filter((r) => r.closest('table') === table)[row]?.children ??
          [],
      ).map((c) => c.textContent);
    expect(cells(inner, 0)).toEqual(['n', '', 'm']);
    expect(cells(outer, 2)).toEqual(['o', 'p']);
  });
});

describe.each(['linkedom', 'jsdom'] as const)('unfoldRaggedTables (%s)', (dom) => {
  const row = (cells: number, text = 'v') => `<tr>${`<td>${text}</td>`.repeat(cells)}</tr>`;

  it('writes as lines a table whose short rows would be padded with more empty cells than it has', () => {
    // One row of 1,100 cells over ten of one: 10,990 empty cells to pad.
    const html = `<table>${row(1_100, 'h')}${row(1, 'first')}${row(1).repeat(9)}</table>`;
    const root = DOMS[dom](html);
    expect(unfoldRaggedTables(root)).toBe(1);
    expect(root.querySelector('table')).toBeNull();
    const lines = Array.from(root.querySelectorAll('p'), (p) => p.textContent);
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe(Array(1_100).fill('h').join(' | '));
    expect(lines.slice(1, 3)).toEqual(['first', 'v']);
    // Padded, the ten short rows alone would write 11,000 cells.
    expect(contentMarkdown(DOMS[dom](html)).length).toBeLessThan(10_000);
  });

  it('leaves a big table of full rows, and one whose padding is small or no more than its cells', () => {
    const root = DOMS[dom](
      `<table>${row(10).repeat(2_000)}</table><table>${row(5)}${row(1)}</table>` +
        `<table>${row(1_000)}${row(10).repeat(9)}</table><table>${row(200)}${row(100).repeat(200)}</table>`,
    );
    expect(unfoldRaggedTables(root)).toBe(0);
    expect(root.querySelectorAll('table')).toHaveLength(4);
  });
});
