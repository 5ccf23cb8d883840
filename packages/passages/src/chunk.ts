import { segmentsOf } from '@quarry/text';
import { markdownLines } from './markdown.js';
import { countTokens } from './tokens.js';

/** One piece of a page: a character range of its plain text, under its section headings. */
export interface Chunk {
  /** Offset of the first character in the page's `body_text` (UTF-16 code units, as JS strings). */
  readonly start: number;
  /** Offset just past the last character: `body_text.slice(start, end)` is the chunk. */
  readonly end: number;
  /** The headings this chunk sits under, outermost first (empty before the first heading). */
  readonly headingPath: readonly string[];
  /** Tokens of the chunk's text ({@link countTokens}). */
  readonly tokens: number;
}

/** Options of {@link chunkText}. */
export interface ChunkOptions {
  /** The page as markdown: its headings give each chunk its heading path. */
  readonly markdown?: string;
  /**
   * Size chunks are filled up to. A chunk ends at a heading, at a sentence that would overflow it,
   * or at the end of a paragraph once half full; a single longer sentence is a chunk of its own.
   * @defaultValue {@link CHUNK_DEFAULTS}.targetTokens
   */
  readonly targetTokens?: number;
}

/** Defaults of {@link ChunkOptions}. */
export const CHUNK_DEFAULTS = {
  /** About a paragraph: small enough to be precise, large enough to stand on its own. */
  targetTokens: 160,
} as const;

interface Span {
  readonly start: number;
  readonly end: number;
}

interface Open {
  start: number;
  end: number;
  tokens: number;
  headingOnly: boolean;
  path: readonly string[];
}

/** The sentence splitter is language-neutral (Unicode sentence rules), so one serves every page. */
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
/** Tokens assumed for the whitespace joining two sentences or paragraphs while packing. */
export const JOINT_TOKENS = 1;
/** How far ahead in the markdown a line of text is looked for (lines the text lost are skipped). */
const ALIGN_LOOKAHEAD_LINES = 200;
/** Lines the markdown may have that the text lacks before a match needs no further check. */
const ALIGN_FREE_JUMP_LINES = 2;

/**
 * Splits a page's plain text into chunks that follow its structure: a chunk never crosses a
 * heading, never cuts a sentence, and carries the path of headings above it. Headings come from
 * `options.markdown`: the text's lines are matched in order with the markdown's lines, so a line is
 * a heading where the markdown has a heading there (a table of contents that repeats the headings
 * is not mistaken for them). Without markdown every chunk has an empty path.
 */
export function chunkText(text: string, options: ChunkOptions = {}): Chunk[] {
  const target = options.targetTokens ?? CHUNK_DEFAULTS.targetTokens;
  const markdown = options.markdown ? markdownLines(options.markdown) : [];
  const markdownKeys = markdown.map((l) => normalizeLine(l.text));
  let nextMarkdownLine = 0;
  const path: { level: number; text: string }[] = [];
  const chunks: Chunk[] = [];
  let open: Open | null = null;
  let full = false;
  const close = () => {
    if (open && !open.headingOnly) chunks.push(finish(text, open));
    open = null;
  };

  for (const line of lines(text)) {
    const found = alignLine(markdownKeys, nextMarkdownLine, normalizeLine(text.slice(line.start, line.end)));
    if (found !== -1) nextMarkdownLine = found + 1;
    const level = found === -1 ? undefined : markdown[found]!.headingLevel;
    if (level !== undefined) {
      const heading = { level, text: markdown[found]!.text };
      close();
      full = false;
      while (path.length > 0 && path.at(-1)!.level >= heading.level) path.pop();
      path.push({ level: heading.level, text: heading.text });
      const current = path.map((h) => h.text);
      open = { ...line, tokens: countTokens(text.slice(line.start, line.end)), headingOnly: true, path: current };
      continue;
    }
    const currentPath = path.map((h) => h.text);
    // A line that goes on with the sentence the line above left open (a paragraph wrapped with
    // `<br>`s: `…that can be` / `adjusted to their fitness level.`) stays with that sentence.
    let continues = open !== null && !(open as Open).headingOnly && continuesSentence(text, (open as Open).end, line);
    if (full && !continues) close();
    full = false;
    for (const sentence of sentences(text, line)) {
      const tokens = countTokens(text.slice(sentence.start, sentence.end));
      const state = open as Open | null;
      if (state && (continues || state.tokens + JOINT_TOKENS + tokens <= target)) {
        continues = false;
        state.end = sentence.end;
        state.tokens += JOINT_TOKENS + tokens;
        state.headingOnly = false;
        continue;
      }
      // A heading that cannot share a chunk with its first sentence stays in the path only.
      if (state?.headingOnly) open = null;
      else close();
      open = { ...sentence, tokens, headingOnly: false, path: currentPath };
    }
    // A chunk half full ends with its paragraph, once the next line shows it does not go on.
    const state = open as Open | null;
    full = state !== null && !state.headingOnly && state.tokens * 2 >= target;
  }
  close();
  return chunks;
}

function finish(text: string, open: Open): Chunk {
  return {
    start: open.start,
    end: open.end,
    headingPath: open.path,
    tokens: countTokens(text.slice(open.start, open.end)),
  };
}

/** Text that ends a sentence (or a clause a line may end on): nothing after it continues it. */
const SENTENCE_END = /[.!?。！？…:;：；]["'”’)\]）」』]*$/u;

/**
 * Whether `line` goes on with a sentence that ends at `end` on the line just above (one line
 * break between them): that sentence has no closing punctuation and the line starts in lower case.
 */
function continuesSentence(text: string, end: number, line: Span): boolean {
  const gap = text.slice(end, line.start);
  if ((gap.match(/\n/g) ?? []).length !== 1 || gap.trim() !== '') return false;
  return (
    !SENTENCE_END.test(text.slice(Math.max(0, end - 4), end)) && /^\p{Ll}/u.test(text.slice(line.start, line.start + 1))
  );
}

/** Non-empty lines of the text, without their surrounding whitespace. */
function lines(text: string): Span[] {
  const spans: Span[] = [];
  const pattern = /[^\n]+/g;
  for (const match of text.matchAll(pattern)) {
    const span = trimSpan(text, match.index, match.index + match[0].length);
    if (span) spans.push(span);
  }
  return spans;
}

function sentences(text: string, line: Span): Span[] {
  const spans: Span[] = [];
  for (const segment of segmentsOf(sentenceSegmenter, text.slice(line.start, line.end))) {
    const start = line.start + segment.index;
    const span = trimSpan(text, start, start + segment.segment.length);
    if (span) spans.push(span);
  }
  return spans;
}

function trimSpan(text: string, start: number, end: number): Span | null {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s]!)) s++;
  while (e > s && /\s/.test(text[e - 1]!)) e--;
  return s < e ? { start: s, end: e } : null;
}

function normalizeLine(line: string): string {
  return line.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The index of the markdown line at or after `from` (within the lookahead) that reads as `line`, or
 * -1. A line found further than a few lines ahead must occur only once in the lookahead: a common
 * line ("Photo", "Share") would otherwise jump over the lines, and headings, in between.
 */
function alignLine(markdownKeys: readonly string[], from: number, line: string): number {
  const last = Math.min(markdownKeys.length, from + ALIGN_LOOKAHEAD_LINES);
  const found = indexWithin(markdownKeys, line, from, last);
  if (found === -1 || found - from <= ALIGN_FREE_JUMP_LINES) return found;
  return indexWithin(markdownKeys, line, found + 1, last) === -1 ? found : -1;
}

/**
 * The first index of `key` in `keys` from `from` up to `end` (excluded), or -1. Searched no further
 * than the lookahead: a line the markdown lacks was searched for to its end, and a page of 80,000
 * headings took 3 s.
 */
function indexWithin(keys: readonly string[], key: string, from: number, end: number): number {
  for (let i = from; i < end; i++) if (keys[i] === key) return i;
  return -1;
}
