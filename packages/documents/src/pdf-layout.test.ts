import { describe, expect, it } from '@jest/globals';
import { type PdfLine, type PdfRun, pdfLines, pdfParagraphs } from './pdf-layout.js';

const pdfMarkdown = (pages: PdfLine[][]): string => pdfParagraphs(pages).markdown;

/** A run that ends its line, half an em a character wide. */
const run = (text: string, x: number, y: number, size = 12, eol = true): PdfRun => ({
  text,
  x,
  y,
  size,
  width: text.length * size * 0.5,
  eol,
});
/** A page of runs, one a line, 16 units apart from `top` down, at the left margin 72 unless given. */
const page = (...lines: (string | [string, number, number?])[]): PdfLine[] =>
  pdfLines(
    lines.map((line, i) => {
      const [text, x, size] = typeof line === 'string' ? [line, 72, 12] : [line[0], line[1], line[2] ?? 12];
      return run(text, x, 700 - 16 * i, size);
    }),
  );
const LONG = 'x'.repeat(70);

describe('pdfLines', () => {
  it('starts a line where pdf.js marks one, or where the text goes down and back left', () => {
    const lines = pdfLines([
      run('Mentors train', 72, 700, 12, false),
      run(' ', 150, 700, 12, false),
      run('1,2', 152, 704, 7, false),
      run('their students', 72, 684, 12, false),
      run('', 72, 668, 12, true),
      run('and so on.', 72, 668, 12, true),
    ]);
    expect(lines.map((l) => l.text)).toEqual(['Mentors train 1,2', 'their students', 'and so on.']);
    // The superscript's size is not the line's.
    expect(lines[0]?.size).toBe(12);
  });

  it('joins an accent drawn as a glyph of its own to its letter, by where it is drawn', () => {
    // As pdf.js gives TeX's `prot\\'eg\\'e`: each accent starts a run back over the letter before it.
    const lines = pdfLines([
      run('in prote', 72, 700, 12, false),
      run('´ge', 72 + 8 * 6 - 5, 700, 12, false),
      run('´ performance', 72 + 10 * 6 - 5, 700, 12, true),
    ]);
    expect(lines.map((l) => l.text)).toEqual(['in protégé performance']);
    // Not drawn back, it is the next letter's.
    expect(pdfLines([run('Caf', 72, 700, 12, false), run('´e', 72 + 3 * 6, 700, 12, true)])[0]?.text).toBe('Café');
  });
});

describe('pdfMarkdown', () => {
  it('joins the lines of a paragraph, and opens one at a gap, an indent or a short line ending a sentence', () => {
    const md = pdfMarkdown([
      page(
        `${LONG} one`,
        `${LONG} two.`,
        ['First line indented, after a full line that ends a sentence', 93],
        `${LONG} three`,
        'ends short.',
        `${LONG} four`,
      ),
    ]);
    expect(md).toBe(
      `${LONG} one ${LONG} two.\n\nFirst line indented, after a full line that ends a sentence ${LONG} three ends short.\n\n${LONG} four`,
    );
  });

  it('makes a short paragraph set larger than the text a heading, each larger size a higher level', () => {
    const md = pdfMarkdown([
      page(['Annual Report', 72, 24], ['Sales', 72, 16], `${LONG} text`, ['Costs', 72, 16], `${LONG} more`),
    ]);
    expect(md).toBe(`# Annual Report\n\n## Sales\n\n${LONG} text\n\n## Costs\n\n${LONG} more`);
    // A larger sentence, or a drop cap, is no heading.
    expect(pdfMarkdown([page(['It rained all week.', 72, 16], `${LONG} text`)])).toBe(
      `It rained all week.\n\n${LONG} text`,
    );
    expect(pdfMarkdown([page(['D', 72, 30], `${LONG} text`)])).toBe(`D\n\n${LONG} text`);
  });

  it('joins a word broken at a line end, and keeps the hyphen of a compound the text writes whole elsewhere', () => {
    const md = pdfMarkdown([page(`${LONG} import-`, 'ance and the church-', 'key, as the church-key opens it')]);
    expect(md).toBe(`${LONG} importance and the church-key, as the church-key opens it`);
  });

  it('joins lines of Chinese or Japanese without a space, and Latin lines with one', () => {
    expect(
      pdfMarkdown([page('北京是中华人民共和国的首都', '也是全国的政治中心和文化中心', '東京は日本の首都で')]),
    ).toBe('北京是中华人民共和国的首都也是全国的政治中心和文化中心東京は日本の首都で');
    expect(pdfMarkdown([page(`${LONG} Beijing is`, 'the capital')])).toBe(`${LONG} Beijing is the capital`);
  });

  it('writes bulleted and numbered lines as list items, a hanging line part of its item', () => {
    const md = pdfMarkdown([
      page('Bring:', '• a tent', ['that sleeps two', 82], '• a stove', '1. Pack', '2. Go', 'Then rest.'),
    ]);
    expect(md).toBe('Bring:\n\n- a tent that sleeps two\n- a stove\n\n1. Pack\n2. Go\n\nThen rest.');
  });

  it('leaves out running heads, page numbers and dotted table of contents entries', () => {
    const names = ['one', 'two', 'three', 'four'];
    const body = (n: number) =>
      ['a', 'b', 'c', 'd', 'e'].map((l) => `Line ${l} of page ${names[n - 1]} says what it says.`);
    const pages = [1, 2, 3, 4].map((n) => page('Quarterly Review', ...body(n), `Page ${n} of 4`));
    pages[0] = page('Quarterly Review', 'Sales ........................ 2', ...body(1), '1');
    const md = pdfMarkdown(pages);
    expect(md).not.toMatch(/Quarterly Review|Page \d of 4|Sales|\n1$/);
    for (const name of names) expect(md).toContain(`Line e of page ${name}`);
    // A page of a line or two is all text, though every page opens the same way.
    const slides = [1, 2, 3].map((n) => page('Thank you for listening', `Slide ${n}`));
    expect(pdfMarkdown(slides)).toContain('Thank you for listening');
  });

  it('leaves out heads drawn after the text, that alternate their words or their text between odd and even pages', () => {
    const names = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
    const body = (n: number) =>
      ['a', 'b', 'c', 'd', 'e'].map((l, i) =>
        run(`Line ${l} of page ${names[n - 1]} says what it says.`, 72, 700 - 16 * i),
      );
    // The text first, then the head at the top and the page number at the bottom, as TeX draws them.
    const journal = (n: number) =>
      pdfLines([
        ...body(n),
        run(
          n === 1
            ? 'Vol 465 | 3 June 2010 | doi:10.1038/nature09040'
            : n % 2 === 0
              ? 'NATURE | Vol 465 | 3 June 2010 LETTERS'
              : 'LETTERS NATURE | Vol 465 | 3 June 2010',
          72,
          760,
          8,
        ),
        run(String(621 + n), 300, 20, 8),
      ]);
    const md = pdfMarkdown([1, 2, 3, 4, 5].map(journal));
    expect(md).not.toMatch(/NATURE|doi|62\d/);
    for (const name of names.slice(0, 5)) expect(md).toContain(`Line e of page ${name}`);
    // A book's even pages are headed by its title, its odd ones by the chapter's.
    const book = (n: number) =>
      pdfLines([
        ...body(n),
        run(n === 1 ? 'Chapter 1' : n % 2 === 0 ? 'A Field Guide to Moths' : 'Night Flyers', 72, 760, 8),
      ]);
    const bookMd = pdfMarkdown(names.map((_, i) => book(i + 1)));
    expect(bookMd).not.toMatch(/Field Guide|Night Flyers/);
    expect(bookMd).toContain('Line a of page ten');
  });

  it('keeps lines of text that differ from page to page only by their numbers', () => {
    const pages = [1, 2, 3, 4].map((n) =>
      page(
        `NATURE | Vol 465 | ${n + 2} June 2010 LETTERS`,
        `Section ${n} discusses topic number ${n} and what follows from it`,
        ...['a', 'b', 'c', 'd'].map((l) => `Line ${l} of this page says what it says.`),
        `Yet another line of text closes the body on page ${n}.`,
        `Page ${n} of 4`,
      ),
    );
    const md = pdfMarkdown(pages);
    expect(md).not.toMatch(/NATURE|Page \d of 4/);
    for (const n of [1, 2, 3, 4]) {
      expect(md).toContain(`Section ${n} discusses topic number ${n}`);
      expect(md).toContain(`closes the body on page ${n}.`);
    }
  });

  it('escapes what would read as Markdown', () => {
    expect(pdfMarkdown([page('# 1 seed_size *[draft]* _new_')])).toBe('\\# 1 seed_size \\*\\[draft\\]\\* \\_new\\_');
  });
});
