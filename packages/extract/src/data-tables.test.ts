import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { linkShareOf } from './content.js';
import { dropLinkTables, isDataTable, keepDataTables } from './data-tables.js';

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

describe('dropLinkTables', () => {
  const story = `<p>${'The story of the day, told in full sentences with no link in them at all. '.repeat(16)}</p>`;
  const headlines = (n: number): string =>
    `<table>${Array.from({ length: n }, (_, i) => `<tr><td>[News] <a href="/n${i}">Headline number ${i} of the day, and what it means</a></td></tr>`).join('')}</table>`;

  it("removes a table of links from an article, not a data table's, a short one or one that is the article", () => {
    const root = body(`${story}${headlines(12)}`);
    expect(dropLinkTables(root)).toBe(1);
    expect(root.querySelector('table')).toBeNull();
    expect(root.textContent).toContain('The story of the day');
    // A data table (a header cell), fewer than five links, or half the article's text: kept.
    const data = body(`${story}${headlines(12).replace('<table>', '<table><tr><th>Headlines</th></tr>')}`);
    expect(dropLinkTables(data)).toBe(0);
    expect(dropLinkTables(body(`${story}${headlines(4)}`))).toBe(0);
    expect(dropLinkTables(body(`<p>A short introduction.</p>${headlines(12)}`))).toBe(0);
    // Links under 80% of its text: a table of descriptions, kept.
    const described = body(
      `${story}<table>${Array.from({ length: 6 }, (_, i) => `<tr><td><a href="/p${i}">Item ${i}</a></td><td>A description of the item in a sentence of its own.</td></tr>`).join('')}</table>`,
    );
    expect(dropLinkTables(described)).toBe(0);
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
