import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { linkShareOf } from './content.js';
import { isDataTable, keepDataTables } from './data-tables.js';

const body = (html: string): Element =>
  (parseHTML(`<html><body>${html}</body></html>`).document as unknown as Document).body;
const rows = (n: number): string =>
  Array.from(
    { length: n },
    (_, i) => `<tr><td>${1901 + i}</td><td><a href="/wiki/P${i}">Laureate ${i}</a></td></tr>`,
  ).join('');
const table = (attrs: string, n = 5): string =>
  `<table ${attrs}><tr><th>Year</th><th>Physics</th></tr>${rows(n)}</table>`;

describe('isDataTable', () => {
  it('takes a table with a header cell, three rows and no table inside', () => {
    expect(isDataTable(body(table('')).querySelector('table') as Element)).toBe(true);
    expect(
      isDataTable(
        body('<table><tr><td>a</td></tr><tr><td>b</td></tr><tr><td>c</td></tr></table>').querySelector(
          'table',
        ) as Element,
      ),
    ).toBe(false);
    expect(
      isDataTable(
        body('<table><tr><th>Year</th></tr><tr><td>1901</td></tr></table>').querySelector('table') as Element,
      ),
    ).toBe(false);
    const nested = body(`<table><tr><th>Menu</th></tr><tr><td>${table('')}</td></tr><tr><td>x</td></tr></table>`);
    expect(isDataTable(nested.querySelector('table') as Element)).toBe(false);
  });
});

describe('keepDataTables', () => {
  it("drops the class names and id Readability reads as unlikely from a data table's, and only those", () => {
    const root = body(table('class="wikitable sortable sticky-header" id="sidebar-list"'));
    expect(keepDataTables(Array.from(root.querySelectorAll('*')))).toBe(1);
    const kept = root.querySelector('table') as Element;
    expect(kept.getAttribute('class')).toBe('wikitable sortable');
    expect(kept.hasAttribute('id')).toBe(false);
  });

  it('leaves layout tables, tables with likely names and other elements alone', () => {
    const root = body(
      `<table class="footer-links"><tr><td>a</td></tr><tr><td>b</td></tr><tr><td>c</td></tr></table>` +
        `${table('class="content-header"')}<div class="sticky-header">${table('')}</div>`,
    );
    expect(keepDataTables(Array.from(root.querySelectorAll('*')))).toBe(0);
    expect(root.querySelector('table')?.getAttribute('class')).toBe('footer-links');
    expect(root.querySelector('div')?.getAttribute('class')).toBe('sticky-header');
  });
});

describe('linkShareOf', () => {
  it("does not count a data table's linked names as links, but counts a layout table's", () => {
    const data = body(`<p>An introduction of a few words.</p>${table('', 20)}`);
    expect(linkShareOf(data)).toBeLessThan(0.1);
    const layout = body(`<p>An introduction of a few words.</p><table>${rows(20)}</table>`);
    expect(linkShareOf(layout)).toBeGreaterThan(0.4);
  });
});
