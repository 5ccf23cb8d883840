import { describe, expect, it } from '@jest/globals';
import { parseHTML } from 'linkedom';
import { dropCopyrightNotices, isCopyrightNotice } from './copyright-notice.js';
import { extractHtml } from './extract-html.js';

const body = (html: string): Element =>
  (parseHTML(`<html><body>${html}</body></html>`).document as unknown as Document).body;
const text = (el: Element): string => (el.textContent ?? '').replace(/\s+/g, ' ').trim();

/** Paragraphs of an article's own running text. */
const prose = (n: number): string =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Paragraph ${i + 1} of the investigation: the moving company quoted one price, loaded the truck and then asked for twice as much before it would unload the family's furniture.</p>`,
  ).join('');

describe('isCopyrightNotice', () => {
  it('reads the lines sites close their pages with', () => {
    for (const line of [
      'Copyright © 2025 WABC-TV. All Rights Reserved.',
      '© 2026 Tauri Contributors. CC-BY / MIT',
      '© ESPN Enterprises, Inc. All rights reserved.',
      'Copyright 2024 Termio Pest Control',
      '(c) 2019 Example Press',
      '版权所有 © 2023 新华网',
    ]) {
      expect(isCopyrightNotice(line)).toBe(true);
    }
  });

  it('leaves text that mentions copyright, a bare heading and a long paragraph', () => {
    for (const line of [
      '(Copyright: Parts of this paper are reproduced from the Illinois Online Network.)',
      'NOTE: The above is an excerpt from Achieving Your Pinnacle, by Tom Miller, Copyright 2013.',
      'Copyright',
      '© John Smith',
      `Copyright 2020 the authors. ${'This article is distributed under the terms of a licence that permits use, sharing and adaptation. '.repeat(3)}`,
    ]) {
      expect(isCopyrightNotice(line)).toBe(false);
    }
  });
});

describe('dropCopyrightNotices', () => {
  it("removes the site's notice at the end of the content, whatever wraps it", () => {
    for (const notice of [
      '<div class="uvrxY">Copyright © 2025 WABC-TV. All Rights Reserved.</div>',
      '<p class="disclaimer">Copyright &copy; 2023 NPR. All rights reserved. Visit our <a href="/terms">terms of use</a>.</p>',
      '<div><p><small>© 2026</small> Tauri Contributors. CC-BY / MIT</p></div>',
    ]) {
      const root = body(`<article>${prose(3)}${notice}</article>`);
      expect(dropCopyrightNotices(root)).toBe(1);
      const left = text(root);
      expect(left).toContain('Paragraph 3 of the investigation');
      expect(left).not.toMatch(/©|copyright/i);
    }
  });

  it('lets a short tag line after the notice stay, and the notice still goes', () => {
    const root = body(`<article>${prose(3)}<p>© 2025 WABC-TV</p><p>Tags: moving, consumer</p></article>`);
    expect(dropCopyrightNotices(root)).toBe(1);
    expect(text(root)).toContain('Tags: moving, consumer');
  });

  it('keeps a notice that text of the page follows, beside it or in its block', () => {
    for (const html of [
      `<article>${prose(1)}<p>© 2025 WABC-TV</p>${prose(3)}</article>`,
      `<article>${prose(1)}<div><span>© 2025 WABC-TV</span>${prose(2)}</div></article>`,
    ]) {
      const root = body(html);
      expect(dropCopyrightNotices(root)).toBe(0);
      expect(text(root)).toContain('© 2025 WABC-TV');
    }
  });

  it('keeps a notice that is all the content holds', () => {
    const root = body('<div><p>© 2025 Example Inc. All rights reserved.</p></div>');
    expect(dropCopyrightNotices(root)).toBe(0);
    expect(text(root)).toContain('© 2025 Example Inc.');
  });
});

describe('extractHtml and copyright notices', () => {
  const page = (notice: string): string =>
    `<html><head><title>Movers held a family's furniture hostage</title></head><body>
      <nav><a href="/">Home</a> <a href="/news">News</a></nav>
      <article><h1>Movers held a family's furniture hostage</h1>${prose(6)}${notice}</article>
      <footer><p>Contact us</p></footer></body></html>`;

  it("leaves the site's copyright line out of the article's text and markdown", () => {
    const got = extractHtml(page('<div class="x1">Copyright © 2025 WABC-TV. All Rights Reserved.</div>'), {
      url: 'https://abc7ny.example/post/movers/',
    });
    expect(got.body_text).toContain('Paragraph 6 of the investigation');
    expect(got.body_text).not.toContain('WABC-TV');
    expect(got.body_markdown).toContain('Paragraph 6 of the investigation');
    expect(got.body_markdown).not.toContain('WABC-TV');
  });

  it("keeps an article's own note that names its copyright", () => {
    const note = '<p>NOTE: The above is an excerpt from Achieving Your Pinnacle, by Tom Miller, Copyright 2013.</p>';
    const got = extractHtml(page(note), { url: 'https://example.org/post/excerpt/' });
    expect(got.body_text).toContain('Achieving Your Pinnacle');
  });
});
