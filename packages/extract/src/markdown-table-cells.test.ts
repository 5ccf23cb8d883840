import { describe, expect, it } from '@jest/globals';
import { marked, type Tokens } from 'marked';
import type { DomImpl } from './dom.js';
import { extractHtml } from './extract-html.js';

const PARA = '<p>Options change how cargo builds a package and where it puts what it built. </p>';
const page = (table: string): string =>
  `<html><head><title>Options</title></head><body><article><h1>Options</h1>${PARA.repeat(3)}${table}${PARA.repeat(3)}</article></body></html>`;

/** The one table a GitHub-flavoured reader (marked) finds in the markdown. */
function readTable(markdown: string): Tokens.Table {
  const tables = marked.lexer(markdown).filter((token) => token.type === 'table');
  expect(tables).toHaveLength(1);
  return tables[0] as Tokens.Table;
}

describe.each<DomImpl>(['linkedom', 'jsdom'])('table cells in the markdown (%s)', (dom) => {
  const run = (table: string) => extractHtml(page(table), { url: 'https://example.com/options', dom }).body_markdown;

  it('keeps a row of cells holding several pipes to its columns', () => {
    const table = readTable(
      run(
        '<table><tr><th>Parameter</th><th>Type</th></tr>' +
          '<tr><td>value</td><td><code>string | number | null</code> or a | b</td></tr><tr><td>mode</td><td>fast</td></tr></table>',
      ),
    );
    expect(table.header.map((cell) => cell.text)).toEqual(['Parameter', 'Type']);
    expect(table.rows.map((row) => row.length)).toEqual([2, 2]);
    expect(table.rows[0]?.[1]?.tokens[0]).toMatchObject({ type: 'codespan', text: 'string | number | null' });
    expect(table.rows[0]?.[1]?.text).toContain('or a | b');
  });

  it('parts the blocks and lines of a cell by a space; a link of blocks is its blocks', () => {
    const md = run(
      '<table><tr><th>Pest</th><th>Size</th></tr><tr><td><p>Cat flea</p><p>Ctenocephalides felis</p></td><td>2<br>3 mm</td></tr></table>' +
        '<div>See <a href="/fleas"><img alt="Flea" src="/flea.png">\n<div>Fleas </div><div>Ctenocephalides</div></a> first.</div>',
    );
    expect(readTable(md).rows[0]?.map((cell) => cell.text)).toEqual(['Cat flea Ctenocephalides felis', '2 3 mm']);
    // The link goes on its first words (see markdown-card-links.ts).
    expect(md).toMatch(
      /See\n\n!\[Flea\]\(https:\/\/example\.com\/flea\.png\)\n\n\[Fleas\]\(https:\/\/example\.com\/fleas\)\n\nCtenocephalides\n\nfirst\./,
    );
  });

  it('writes inline code in a cell as code', () => {
    const md = run(
      '<table><tr><th>Flag</th><th>Keys</th></tr><tr><td><code>--release</code></td><td><kbd>Ctrl</kbd>+<kbd>C</kbd>, <code>a `tick` b</code></td></tr></table>',
    );
    const [flag, keys] = readTable(md).rows[0] ?? [];
    expect(flag?.tokens).toEqual([expect.objectContaining({ type: 'codespan', text: '--release' })]);
    expect(
      keys?.tokens.filter((token) => token.type === 'codespan').map((token) => (token as Tokens.Codespan).text),
    ).toEqual(['Ctrl', 'C', 'a `tick` b']);
  });

  it('pads no column to its widest cell, and the table reads the same', () => {
    const md = run(
      '<table><tr><th>Rank</th><th>Business school</th></tr><tr><td>1</td><td>Chicago Booth School of Business</td></tr>' +
        '<tr><td>2</td><td></td></tr><tr><td>3 (tie)</td><td>a <code>x | y</code> b</td></tr></table>',
    );
    expect(md).toContain(
      '| Rank | Business school |\n| --- | --- |\n| 1 | Chicago Booth School of Business |\n| 2 | |\n' +
        '| 3 (tie) | a `x \\| y` b |',
    );
    const table = readTable(md);
    expect(table.header.map((cell) => cell.text)).toEqual(['Rank', 'Business school']);
    expect(table.rows.map((row) => row.map((cell) => cell.text))).toEqual([
      ['1', 'Chicago Booth School of Business'],
      ['2', ''],
      ['3 (tie)', 'a `x | y` b'],
    ]);
  });
});
