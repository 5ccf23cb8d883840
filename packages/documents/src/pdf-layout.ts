import { escapeLineStart } from './markdown-table.js';
import { placeRunAccent } from './pdf-accents.js';

/**
 * A PDF's text as paragraphs and as Markdown, from where its text sits. A PDF holds positioned runs of text and no
 * paragraphs or headings; pdf.js gives each run its baseline, left edge, width and font size, and
 * marks where a line ends. From those, lines are joined into paragraphs (a line that breaks a word
 * with a hyphen is joined without it) and a short paragraph set larger than the body text is a
 * heading. A paragraph ends where the font size changes, the space between lines opens, the next
 * line is indented, or a line ends short of the column with a sentence's end; a line that starts
 * with a bullet or a number (`1.`, `2)`) is a list item. The running head and foot of the pages (a
 * title or a page number on most pages, or on most odd or even ones) and a table of contents' dotted
 * entries are left out.
 * The text is the same paragraphs without the Markdown: a word a line broke is found whole by search.
 */

/** One run of text as pdf.js gives it (`TextItem`: `str`, `transform`, `width`, `hasEOL`). */
export interface PdfRun {
  text: string;
  /** Left edge and baseline, in the page's units (y grows upwards). */
  x: number;
  y: number;
  width: number;
  /** The font's size on the page (the transform's vertical scale). */
  size: number;
  /** The line ends after this run. */
  eol: boolean;
}

/** One line of a page. */
export interface PdfLine {
  text: string;
  x: number;
  right: number;
  y: number;
  /** The size of the line's longest run (a superscript's smaller size is not the line's). */
  size: number;
}

/** A run starting this share of its size before the line's right edge starts over the line's last glyph. */
const ACCENT_OVERLAP = 0.1;

/** The lines of one page, in the order pdf.js gives its runs. */
export function pdfLines(runs: readonly PdfRun[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let line: (PdfLine & { longest: number }) | null = null;
  let broken = true;
  const end = () => {
    if (line !== null && line.text.trim() !== '') {
      const { longest: _, ...done } = line;
      lines.push({ ...done, text: done.text.replace(/\s+/g, ' ').trim() });
    }
    line = null;
  };
  for (const run of runs) {
    const blank = run.text.trim() === '';
    // A run lower down and back to the left starts a line, even when pdf.js did not mark the end.
    if (line !== null && !blank && !broken && Math.abs(run.y - line.y) > 0.5 * line.size && run.x < line.right) end();
    if (broken && !blank) end();
    if (!blank || line !== null) {
      if (line === null) line = { text: '', x: run.x, right: run.x, y: run.y, size: run.size, longest: 0 };
      // An accent drawn as a glyph of its own joins its letter: back over the line's end, that one.
      const [before, text] = placeRunAccent(line.text, run.text, run.x < line.right - ACCENT_OVERLAP * run.size);
      line.text = before + text;
      if (!blank) {
        line.right = Math.max(line.right, run.x + run.width);
        if (run.text.length > line.longest) {
          line.longest = run.text.length;
          line.size = run.size;
          line.y = run.y;
        }
      }
    }
    if (!blank) broken = false;
    if (run.eol) broken = true;
  }
  end();
  return lines;
}

/** A paragraph at least this much larger than the body text is a heading… */
const HEADING_SCALE = 1.08;
/** …when it is this short, and does not end as a sentence does. */
const MAX_HEADING_CHARS = 150;
/** Space between lines beyond this many times the page's usual space for their size opens a paragraph. */
const PARAGRAPH_GAP = 1.35;
/** A line this much of its size further right than the paragraph's left edge is indented. */
const INDENT = 0.8;
/** A line ending this share of the column short of its right edge, after a sentence, ends a paragraph. */
const SHORT_LINE = 0.15;
/** A line on this share of the pages (at least 3), at the top or bottom, is a running head or foot. */
const RUNNING_SHARE = 0.5;
const BULLET = /^[•●◦▪■‣∙·–-]\s+/u;
/** A numbered item's opening: `1.`, `2)`, `1.2.`, `iv.`, `b)`. */
const NUMBERED = /^(?:\d{1,3}(?:\.\d{1,3})*|[ivx]{1,5}|[a-z])[.)]\s/;
const SENTENCE_END = /[.!?:;。！？”"')]$/u;

interface Paragraph {
  lines: PdfLine[];
  size: number;
  bullet: boolean;
  /** Opens with its number (`1.`, `2)`), kept as written: a list item in Markdown when it is one. */
  numbered: boolean;
  /** The left edge of its leftmost line. */
  left: number;
}

/**
 * The text and the Markdown of a document's pages, each page given as its lines (see
 * {@link pdfLines}): the same paragraphs, the text without the Markdown's marks and escapes.
 */
export function pdfParagraphs(pages: readonly (readonly PdfLine[])[]): { text: string; markdown: string } {
  const running = runningLines(pages);
  // A table of contents' entries go: the headings they list are in the text.
  const kept = pages.map((lines) => withoutRunning(lines, running).filter((l) => !CONTENTS_ENTRY.test(l.text)));
  const paragraphs = kept.flatMap(pageParagraphs);
  const body = bodySize(paragraphs);
  const compounds = hyphenatedWords(kept);
  const texts = paragraphs.map((p) =>
    joinLines(
      p.lines.map((l) => l.text),
      compounds,
    ),
  );
  const headings = paragraphs.map((p, i) => isHeading(p, texts[i] ?? '', body));
  const headingSizes = [...new Set(paragraphs.filter((_, i) => headings[i]).map((p) => roundSize(p.size)))].sort(
    (a, b) => b - a,
  );
  const blocks = paragraphs.map((p, i) => {
    const text = texts[i] ?? '';
    if (headings[i])
      return `${'#'.repeat(Math.min(headingSizes.indexOf(roundSize(p.size)) + 1, 6))} ${escapeInline(text)}`;
    if (p.bullet) return `- ${escapeInline(text.replace(BULLET, ''))}`;
    if (p.numbered) return escapeInline(text);
    return escapeLineStart(escapeInline(text));
  });
  // A list's items on consecutive lines (a tight list), other paragraphs apart.
  const join = (parts: readonly string[]) =>
    parts.reduce((all, part, i) => {
      if (i === 0) return part;
      const [a, b] = [paragraphs[i - 1] as Paragraph, paragraphs[i] as Paragraph];
      const tight = isItem(a) && isItem(b) && a.bullet === b.bullet;
      return `${all}${tight ? '\n' : '\n\n'}${part}`;
    }, '');
  return { text: join(texts), markdown: join(blocks) };
}

const isItem = (p: Paragraph): boolean => p.bullet || (p.numbered && /^\d{1,3}[.)]\s/.test(p.lines[0]?.text ?? ''));

function pageParagraphs(lines: readonly PdfLine[]): Paragraph[] {
  const leading = usualLeading(lines);
  // Folded, not spread: a page can hold more lines than a call takes arguments.
  const right = lines.reduce((max, l) => Math.max(max, l.right), 0);
  const paragraphs: Paragraph[] = [];
  let current: Paragraph | null = null;
  for (const [i, line] of lines.entries()) {
    const before = lines[i - 1];
    const bullet = BULLET.test(line.text);
    const numbered = NUMBERED.test(line.text);
    const opens = before === undefined || opensParagraph(before, line, lines[i + 1], current, leading, right);
    if (current === null || bullet || numbered || opens) {
      current = { lines: [line], size: line.size, bullet, numbered, left: line.x };
      paragraphs.push(current);
    } else {
      current.lines.push(line);
      current.left = Math.min(current.left, line.x);
    }
  }
  return paragraphs;
}

function opensParagraph(
  before: PdfLine,
  line: PdfLine,
  after: PdfLine | undefined,
  paragraph: Paragraph | null,
  leading: Map<number, number>,
  right: number,
): boolean {
  if (Math.abs(line.size - before.size) > 0.05 * before.size) return true;
  const gap = before.y - line.y;
  // Up the page: the next column or a float; down by more than the usual space: a new block.
  if (gap <= 0 || gap > PARAGRAPH_GAP * (leading.get(roundSize(line.size)) ?? 1.2 * line.size)) return true;
  const left = paragraph?.left ?? before.x;
  const first = paragraph?.lines[0];
  if (first !== undefined && paragraph !== null && (paragraph.bullet || paragraph.numbered)) {
    // A list item's lines after the first stand in from its marker; one that does not is the text after the list.
    return line.x <= first.x + 0.5 * line.size;
  }
  // A first line's indent: the line after it is back at the left (a hanging indent's lines stay in).
  const indented = (l: PdfLine, from: number) => l.x > from + INDENT * l.size;
  if (indented(line, left) && indented(line, before.x) && (after === undefined || !indented(after, left))) return true;
  const column = right - left;
  return SENTENCE_END.test(before.text) && before.right < right - SHORT_LINE * column;
}

/** The most common space between consecutive lines of one size, per size. */
function usualLeading(lines: readonly PdfLine[]): Map<number, number> {
  const counts = new Map<number, Map<number, number>>();
  for (let i = 1; i < lines.length; i++) {
    const [a, b] = [lines[i - 1] as PdfLine, lines[i] as PdfLine];
    const gap = a.y - b.y;
    if (roundSize(a.size) !== roundSize(b.size) || gap <= 0 || gap > 3 * a.size) continue;
    const bySize = counts.get(roundSize(a.size)) ?? new Map<number, number>();
    const key = Math.round(gap * 2) / 2;
    bySize.set(key, (bySize.get(key) ?? 0) + 1);
    counts.set(roundSize(a.size), bySize);
  }
  const leading = new Map<number, number>();
  for (const [size, gaps] of counts) {
    const [usual] = [...gaps.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    if (usual !== undefined) leading.set(size, usual[0]);
  }
  return leading;
}

/** The size most of the text is set in. */
function bodySize(paragraphs: readonly Paragraph[]): number {
  const chars = new Map<number, number>();
  for (const p of paragraphs) {
    for (const l of p.lines) chars.set(roundSize(l.size), (chars.get(roundSize(l.size)) ?? 0) + l.text.length);
  }
  return [...chars.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
}

function isHeading(p: Paragraph, text: string, body: number): boolean {
  return (
    body > 0 &&
    p.size >= HEADING_SCALE * body &&
    p.lines.length <= 3 &&
    text.length <= MAX_HEADING_CHARS &&
    !/[.,;]$/.test(text) &&
    // A drop cap is one letter.
    /\p{L}.*\p{L}/u.test(text)
  );
}

/** A table of contents' entry: its title, a leader of dots, the page (`Tables ........ 2`). */
const CONTENTS_ENTRY = /(?:\.\s?){5,}\s*\d{1,4}\s*$/;

const roundSize = (size: number): number => Math.round(size * 2) / 2;

/** Chinese and Japanese write no space between words: a line break between their characters is none. */
const CJK_END = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef]$/u;
const CJK_START = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/**
 * Lines joined with a space (none between Chinese or Japanese characters). A word broken by a hyphen at a line's end is joined whole
 * (`import-` `ance`), unless the document writes it with the hyphen within a line too
 * (`church-key`), as a compound it is (see {@link hyphenatedWords}).
 */
function joinLines(lines: readonly string[], compounds: ReadonlySet<string> = new Set()): string {
  let text = '';
  for (const line of lines) {
    const head = /(\p{L}+)-$/u.exec(text)?.[1];
    const tail = /^(\p{Ll}+)/u.exec(line)?.[1];
    if (text === '') text = line;
    else if (CJK_END.test(text) && CJK_START.test(line)) text += line;
    else if (head === undefined || tail === undefined) text += ` ${line}`;
    else text = compounds.has(`${head}-${tail}`.toLowerCase()) ? text + line : text.slice(0, -1) + line;
  }
  return text;
}

/** The words written with a hyphen inside a line (`church-key`), lower-cased. */
function hyphenatedWords(pages: readonly (readonly PdfLine[])[]): Set<string> {
  const words = new Set<string>();
  for (const lines of pages) {
    for (const line of lines) for (const [word] of line.text.matchAll(/\p{L}+-\p{L}+/gu)) words.add(word.toLowerCase());
  }
  return words;
}

/**
 * The running heads and feet: each text (see {@link runningKey}) that opens or closes at least
 * {@link RUNNING_SHARE} of the pages, or of the odd or of the even pages (a book's heads alternate
 * between its title and the chapter's), and 3 of them; with the lines that carry it.
 */
function runningLines(pages: readonly (readonly PdfLine[])[]): Map<string, PdfLine[]> {
  const seen = new Map<string, { lines: PdfLine[]; pages: number[] }>();
  for (const [n, lines] of pages.entries()) {
    for (const line of pageEnds(lines)) {
      const key = runningKey(line);
      if (key === '') continue;
      const entry = seen.get(key) ?? { lines: [], pages: [] };
      entry.lines.push(line);
      if (entry.pages.at(-1) !== n) entry.pages.push(n);
      seen.set(key, entry);
    }
  }
  const least = (of: number) => Math.max(3, RUNNING_SHARE * of);
  const odd = Math.ceil(pages.length / 2);
  const isRunning = (on: readonly number[]) =>
    on.length >= least(pages.length) ||
    on.filter((n) => n % 2 === 0).length >= least(odd) ||
    on.filter((n) => n % 2 === 1).length >= least(pages.length - odd);
  return new Map([...seen].filter(([, { pages: on }]) => isRunning(on)).map(([key, { lines }]) => [key, lines]));
}

/**
 * A line's words in any order, lower-cased (`NATURE | Vol 465 LETTERS` on odd pages is `LETTERS
 * NATURE | Vol 465` on even ones). A head's numbers are read as `#`, so `Page 3` and `Page 4` are one;
 * a sentence's are not: lines that differ only by their numbers are text.
 */
function runningKey(line: PdfLine): string {
  const text = line.text.toLowerCase();
  const words = (isProse(line.text) ? text : text.replace(/\d+/g, '#')).match(/[\p{L}\p{N}#]+/gu) ?? [];
  return words.sort().join(' ');
}

/** A line of this many words or more can be a sentence… */
const PROSE_WORDS = 5;
/**
 * …when it ends as one, or most of its words are lower-case: a running head is a title, a name, a
 * journal's line (`NATURE | Vol 465 | 3 June 2010`), a page number.
 */
function isProse(text: string): boolean {
  const words = text.match(/\p{L}+/gu) ?? [];
  if (words.length < PROSE_WORDS) return false;
  return /[.!?]$/.test(text) || words.filter((w) => /^\p{Ll}/u.test(w)).length > words.length / 2;
}

/** A running head or foot is a short line. */
const MAX_RUNNING_CHARS = 120;

/**
 * The lines a running head or foot can be: the first and last, and on a page of 6 lines or more
 * the second and the last but one (a title over a section's name, a page number under a note); and
 * the highest and the lowest on the page, as a writer may draw its heads after the text (TeX
 * does). A page of 3 lines or fewer (a slide) has none: its lines are what it says.
 */
function pageEnds(lines: readonly PdfLine[]): PdfLine[] {
  if (lines.length <= 3) return [];
  const ends = lines.length >= 6 ? [lines[0], lines[1], lines.at(-2), lines.at(-1)] : [lines[0], lines.at(-1)];
  const highest = lines.reduce((top, l) => (l.y > top.y ? l : top));
  const lowest = lines.reduce((bottom, l) => (l.y < bottom.y ? l : bottom));
  return [...new Set([...ends, highest, lowest])].filter(
    (l): l is PdfLine => l !== undefined && l.text.length <= MAX_RUNNING_CHARS,
  );
}
/** A page number alone: `12`, `- 12 -`, `Page 12 of 40`, `xii`. */
const PAGE_NUMBER = /^(?:[-–—]\s*)?(?:page\s+)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|\/)\s*\d{1,4})?(?:\s*[-–—])?$/i;

/**
 * A page's lines without its running head and foot, a page number at its top or bottom, and a
 * running head's variant: a line at the page's end on a running head's baseline, in its size, that
 * shares half its words (a journal's first page names the article's DOI in its head).
 */
function withoutRunning(lines: readonly PdfLine[], running: ReadonlyMap<string, readonly PdfLine[]>): PdfLine[] {
  const ends = new Set(pageEnds(lines));
  const variant = (line: PdfLine) => {
    if (isProse(line.text)) return false;
    const words = new Set(line.text.toLowerCase().match(/\p{L}+/gu));
    return [...running.values()].some((heads) =>
      heads.some((head) => {
        if (Math.abs(head.y - line.y) > 1 || Math.abs(head.size - line.size) > 0.05 * head.size) return false;
        const shared = new Set(head.text.toLowerCase().match(/\p{L}+/gu));
        return words.size > 0 && [...words].filter((w) => shared.has(w)).length >= words.size / 2;
      }),
    );
  };
  return lines.filter((l) => !(ends.has(l) && (running.has(runningKey(l)) || PAGE_NUMBER.test(l.text) || variant(l))));
}

/** Characters that would read as emphasis, links, code or HTML, escaped. */
function escapeInline(text: string): string {
  // An underscore inside a word (`seed_size`) opens no emphasis.
  return text.replace(/([\\`*[\]<])|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, (m) => `\\${m}`);
}
