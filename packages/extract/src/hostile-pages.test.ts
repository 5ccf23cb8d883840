import { describe, expect, it } from '@jest/globals';
import { extractHtml } from './extract-html.js';

/*
 * Pages whose shape made one step of extraction grow faster than the page: each took from tens of
 * seconds to many minutes before, or ran out of memory, so the crawler's extraction thread gave up
 * on it at its time limit (30 s, `EXTRACT_TIMEOUT_MS`) and the page was lost. Each test checks
 * what comes out (a stack overflow or running out of memory fails it). Jest cannot stop a test that
 * never yields, so the time each takes is not a test's to judge: `npm run bench -- extract` times
 * them against that limit (its hostile pages table, bench/lib/hostile-pages.mjs, at full size), and
 * where a cost grows with a page's shape, a test of the step itself counts the work
 * (readability-checks.test.ts, for instance). So where only the count of a repeated part made the
 * old cost, a test here repeats it a few thousand times (still past every limit the step has on
 * counts or characters) rather than the tens or hundreds of thousands the bench times; nesting
 * depths, which decide a stack's overflow, stay as deep as the pages that overflowed it.
 */
const LIMIT_MS = 30_000;
const extract = (html: string) => extractHtml(html, { url: 'https://example.org/page', dom: 'linkedom' });
const PARAGRAPH = 'Some words of the article that make a paragraph long enough to count as text.';
const times = (n: number, part: (i: number) => string): string => Array.from({ length: n }, (_, i) => part(i)).join('');
const page = (body: string, head = '') => `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;

describe('extractHtml on hostile pages', () => {
  it(
    'reads a page nested 2,500 deep (Readability read each text once per ancestor: 47 s)',
    () => {
      const depth = 2_500;
      const got = extract(page(`${'<div>'.repeat(depth)}<p>Deep text at the bottom.</p>${'</div>'.repeat(depth)}`));
      expect(got.body_text).toBe('Deep text at the bottom.');
    },
    LIMIT_MS,
  );

  it(
    "reads 7,000 nested <div>s of a few words each (Readability's density test read every block's text again for each block around it: minutes)",
    () => {
      const depth = 7_000;
      const got = extract(page(`${'<div>some words here '.repeat(depth)}${'</div>'.repeat(depth)}`));
      expect(got.word_count).toBe(3 * depth);
    },
    LIMIT_MS,
  );

  it(
    'reads 10,000 unclosed inline tags (30,000 deep) as their text',
    () => {
      const got = extract(page(`<h1>Unclosed</h1>${'<span><b><i>word '.repeat(10_000)}`));
      expect(got.word_count).toBeGreaterThanOrEqual(10_000);
      expect(got.body_text).toContain('word word word');
    },
    LIMIT_MS,
  );

  it(
    'reads 5,000 links after 20,000 unclosed <b>s (each link start looks for an open link among them)',
    () => {
      const got = extract(
        page(
          `<h1>Links</h1><p>${PARAGRAPH}</p><p>${'<b>bold '.repeat(20_000)}${'<a href="/l">link</a> '.repeat(5_000)}</p>`,
        ),
      );
      expect(got.body_text).toContain('bold bold link link');
      expect(got.word_count).toBeGreaterThanOrEqual(25_000);
    },
    LIMIT_MS,
  );

  it(
    'counts the words of a 120,000-character Chinese paragraph (ICU slows down past 65,536: minutes)',
    () => {
      const got = extract(
        page(`<article><h1>标题</h1><p>${'中文字是一种文字，我们今天说。'.repeat(8_000)}</p></article>`),
      );
      // 中文 字 是 一种 文字 我们 今天 说: 8 words a sentence.
      expect(got.word_count).toBe(8 * 8_000 + 1);
    },
    LIMIT_MS,
  );

  it(
    'converts a run of 600,000 digits to markdown (the converter read on from every digit: minutes)',
    () => {
      const digits = '1415926535'.repeat(60_000);
      const got = extract(page(`<article><h1>Pi</h1><p>3.${digits}</p></article>`));
      expect(got.body_text).toContain(digits);
      expect(got.body_markdown).toContain(digits);
    },
    LIMIT_MS,
  );

  it(
    'reads a title of 20,000 parts (its runs were held in memory whole: out of memory), cut to 1,000 characters',
    () => {
      const keywords = 'Cheap flights - '.repeat(20_000);
      const got = extract(page(`<h1>${keywords}</h1><p>Text.</p>`, `<title>${keywords}</title>`));
      expect(got.title.length).toBeLessThanOrEqual(1_000);
      expect(got.title.length).toBeGreaterThan(500);
      expect(got.title.startsWith('Cheap flights - Cheap flights')).toBe(true);
    },
    LIMIT_MS,
  );

  it(
    'reads 20,000 non-breaking spaces (each walked back over all before it: minutes for 100,000)',
    () => {
      const got = extract(page(`<article><h1>Gap</h1><p>before${'&nbsp;'.repeat(20_000)}after</p></article>`));
      expect(got.body_text).toMatch(/before\s+after/);
    },
    LIMIT_MS,
  );

  it(
    'drops a list of 10,000 empty items (each item read the whole list again: minutes for 50,000)',
    () => {
      const got = extract(page(`<article><h1>Items</h1><p>Some text.</p><ul>${'<li>'.repeat(10_000)}</ul></article>`));
      expect(got.body_text).toContain('Some text.');
    },
    LIMIT_MS,
  );

  // Each of these looked an id up with a walk of the whole page (linkedom's getElementById).
  it(
    'marks 5,000 footnote references (each looked for its note in the whole page: 157 s for 20,000)',
    () => {
      const got = extract(
        page(
          `<article><h1>Notes</h1><p>${'word<sup><a href="#fn1">1</a></sup> '.repeat(5_000)}</p><ol><li id="fn1">The note.</li></ol></article>`,
        ),
      );
      expect(got.body_text).toContain('word[1] word[1]');
      expect(got.body_markdown).toMatch(/^\[\^1\]: The note\.$/m);
    },
    LIMIT_MS,
  );

  it(
    'reads 5,000 headings that link back to a table of contents (each looked for its target: 37 s for 20,000)',
    () => {
      const headings = times(
        5_000,
        (i) => `<h2 id="h${i}"><a href="#toc${i}">Heading ${i}</a></h2><p>${PARAGRAPH}</p>`,
      );
      const contents = times(5_000, (i) => `<li><a id="toc${i}" href="#h${i}">Heading ${i}</a></li>`);
      const got = extract(page(`<article><h1>Headings</h1><ul>${contents}</ul>${headings}</article>`));
      expect(got.body_markdown).toContain('## Heading 4999');
    },
    LIMIT_MS,
  );

  it(
    'reads 5,000 MathJax 2 formulas (each looked for its drawing: 81 s for 25,000)',
    () => {
      const formulas = times(
        5_000,
        (i) =>
          `<span class="MathJax_Preview"></span><span id="MathJax-Element-${i}-Frame">x</span><script type="math/tex" id="MathJax-Element-${i}">x_${i}</script> `,
      );
      const got = extract(page(`<article><h1>Formulas</h1><p>${PARAGRAPH}</p><p>${formulas}</p></article>`));
      expect(got.body_markdown).toContain('$x_0$ $x_1$');
      expect(got.body_markdown).toContain('$x_4999$');
    },
    LIMIT_MS,
  );

  it(
    'puts 5,000 streamed React parts in place (each looked for its placeholder: 63 s for 25,000)',
    () => {
      const placeholders = times(5_000, (i) => `<template id="P:${i}"></template>`);
      const parts = times(5_000, (i) => `<div hidden id="S:${i}"><p>Part ${i}.</p></div>`);
      const got = extract(page(`<article><h1>Streamed</h1><p>${PARAGRAPH}</p>${placeholders}</article>${parts}`));
      expect(got.body_text).toContain('Part 0.\n\nPart 1.');
      expect(got.body_text).toContain('Part 4999.');
    },
    LIMIT_MS,
  );

  it(
    'reads a paragraph of 50,000 inline elements (the text read so far was copied for each: 37 s for 330,000)',
    () => {
      const got = extract(page(`<article><h1>Spans</h1><p>${'<span>w</span>'.repeat(50_000)}</p></article>`));
      expect(got.body_text).toContain('w'.repeat(50_000));
    },
    LIMIT_MS,
  );
  // Spans and ragged rows let a small page ask for a grid of millions of cells in the markdown.
  const table = (rows: string) => page(`<article><h1>Table</h1><p>${PARAGRAPH}</p><table>${rows}</table></article>`);

  it(
    'lays out a 3 KB table whose cells ask for billions of cells within a budget (22 s, 900 MB, 3.8 MB of markdown)',
    () => {
      const got = extract(table('<tr><td rowspan="999999999" colspan="999999999">a</td></tr>'.repeat(50)));
      expect(got.body_text).toContain(PARAGRAPH);
      expect(got.body_markdown.length).toBeLessThan(10_000);
    },
    LIMIT_MS,
  );

  it(
    'lays out a 10 KB table whose cells carry into ever more columns (out of stack after 14 s and 3.4 GB)',
    () => {
      const got = extract(table('<tr><td rowspan="65534" colspan="1000">a</td></tr>'.repeat(200)));
      expect(got.body_markdown.length).toBeLessThan(100_000);
    },
    LIMIT_MS,
  );

  it(
    'writes as lines a table whose row of 20,000 cells would pad 2,000 short rows (9.5 s, 160 MB of markdown)',
    () => {
      const got = extract(table(`<tr>${'<td>x</td>'.repeat(20_000)}</tr>${'<tr><td>y</td></tr>'.repeat(2_000)}`));
      expect(got.body_markdown.length).toBeLessThan(1_000_000);
      expect(got.body_markdown).toMatch(/^y$/m);
    },
    LIMIT_MS,
  );
  it.each([
    ['list items', '<ol><li>', '</li></ol>', 'each level indented them again: 301 s, then too long a string'],
    ['quotes', '<blockquote>', '</blockquote>', '10 MB of markdown from 226 KB'],
  ])(
    'writes 5,000 paragraphs 250 %s deep, nested 16 deep at most (%s, for 20,000)',
    (_kind, open, close) => {
      const nested = `${open.repeat(250)}${'<p>para</p>'.repeat(5_000)}${close.repeat(250)}`;
      const got = extract(page(`<article><h1>Deep</h1><p>${PARAGRAPH}</p>${nested}</article>`));
      expect(got.body_markdown.match(/\bpara\b/g)).toHaveLength(5_000);
      // Sixteen levels of ` 1. ` or `> ` a line: 200 to 280 KB (each of 250 levels: over 2.5 MB).
      expect(got.body_markdown.length).toBeLessThan(500_000);
    },
    LIMIT_MS,
  );
  it(
    "converts a table cell of 10,000 lines parted by <br> (the converter copied the cell's texts for each: 45 s for 50,000)",
    () => {
      const got = extract(table(`<tr><td>${'line<br>'.repeat(10_000)}</td><td>end</td></tr>`));
      expect(got.body_markdown.match(/\bline\b/g)).toHaveLength(10_000);
      expect(got.body_markdown).toContain('end');
    },
    LIMIT_MS,
  );
  it(
    "reads the last few of 5,000 copyright lines at an article's end, not each (every line measured the whole article: 100 s for 20,000)",
    () => {
      const got = extract(
        page(
          `<article><h1>Notice</h1>${times(5, () => `<p>${PARAGRAPH}</p>`)}${'<p>© 2025 Example Inc.</p>'.repeat(5_000)}</article>`,
        ),
      );
      expect(got.body_text).toContain(PARAGRAPH);
      expect(got.body_text.match(/© 2025 Example Inc\./g)?.length).toBeGreaterThan(4_950);
    },
    LIMIT_MS,
  );
  it(
    'reads the last few of 2,000 labelled lists of related posts, not each (every list measured the whole article: 29 s for 5,000)',
    () => {
      const list =
        '<h3>Related posts</h3><ul><li><a href="/a">Another post of the site</a></li><li><a href="/b">One more post of the site</a></li></ul>';
      const got = extract(
        page(`<article><h1>Related</h1>${times(5, () => `<p>${PARAGRAPH}</p>`)}${list.repeat(2_000)}</article>`),
      );
      expect(got.body_text).toContain(PARAGRAPH);
      expect(got.body_text.match(/Another post of the site/g)?.length).toBeGreaterThan(1_960);
    },
    LIMIT_MS,
  );
  it(
    "removes 5,000 labels of one form control, finding it once (each label's lookup walked the page: 20 s for 20,000)",
    () => {
      const got = extract(
        page(
          `<article><h1>Form</h1><p>${PARAGRAPH}</p>${'<label for="email">Email address</label>'.repeat(5_000)}<input id="email"></article>`,
        ),
      );
      expect(got.body_text).toContain(PARAGRAPH);
      expect(got.body_text).not.toContain('Email address');
    },
    LIMIT_MS,
  );
});
