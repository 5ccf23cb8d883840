import { CHUNK_DEFAULTS, chunkText, JOINT_TOKENS } from './chunk.js';
import { PASSAGE_BOUNDS, windowAround } from './passages.js';
import { PortionStarts } from './portion-starts.js';
import { countTokens } from './tokens.js';

/** A stretch of a page read from an offset: `page.slice(start, end) === text`. */
export interface Portion {
  readonly text: string;
  /** Offset of the portion in the page (UTF-16 code units): the start asked, moved to a word start. */
  readonly start: number;
  /** Offset just past the portion, where the next one starts: ask for it as the next `start`. */
  readonly end: number;
  /** Tokens of `text` (o200k_base). */
  readonly tokens: number;
}

/** What {@link pagePortion} is asked. */
export interface PortionRequest {
  /** The page's plain text or its markdown: `start` and the portion's offsets refer to it. */
  readonly text: string;
  /**
   * Offset to read from, 0 to `text.length`; inside a word, the portion starts at the next word
   * (see {@link pagePortion}).
   * @defaultValue 0
   */
  readonly start?: number;
  /** Budget for the portion's text, in o200k_base tokens; at least 1. */
  readonly maxTokens: number;
}

/**
 * Characters of a window to chunk per token of the budget. English takes about 4.5 characters a
 * token and Chinese about 1.5, so the window nearly always holds the portion and the chunk after it;
 * when it does not, it is doubled. Chunking a whole page of a million characters for each portion
 * of it took 0.1 to 0.4 s.
 */
const WINDOW_CHARS_PER_TOKEN = 8;
/**
 * Chunks are filled to this part of the budget (at most their default size): a portion ends after
 * the last chunk that fits, so smaller chunks leave less of the budget unused (filled to the whole
 * budget, a page of paragraphs of a little over half of it was read a paragraph at a time).
 */
const CHUNKS_PER_BUDGET = 4;

/**
 * The part of a page from `start` that fits `maxTokens`, to read a long page in pieces: it ends
 * where a chunk ends (see `chunkText`: no paragraph or sentence is cut) and takes the whitespace
 * after it, so that the portion asked from its `end` goes on exactly where it stopped and the
 * portions read one after the other make up the page with no gap or overlap. A first sentence
 * longer than the budget is cut to it at whole words; a single word longer than it (a run of
 * Chinese, a long URL) between two of its characters. A `start` inside a word (a run without
 * whitespace) moves to the next word's start, but in scripts written without spaces (Chinese,
 * Japanese, Thai) and inside a word of `PASSAGE_BOUNDS.minTokens` tokens or more it is kept.
 * A `start` at `text.length` gives an empty portion.
 *
 * @throws RangeError when `start` is not an integer from 0 to `text.length`, or `maxTokens` is below 1.
 * @example let portion = pagePortion({ text, maxTokens: 1_000 }); // then { text, start: portion.end, maxTokens }
 */
export function pagePortion(request: PortionRequest): Portion {
  const { text, maxTokens } = request;
  const asked = request.start ?? 0;
  if (!Number.isInteger(asked) || asked < 0 || asked > text.length) {
    throw new RangeError(`start must be an integer from 0 to ${text.length}, the text's length`);
  }
  if (!(maxTokens >= 1)) throw new RangeError('maxTokens must be at least 1');
  // The same for every budget the API takes, so that a word cut with one budget is read on from
  // the cut with another.
  const starts = new PortionStarts(text, Math.min(maxTokens, PASSAGE_BOUNDS.minTokens));
  const start = starts.from(asked);
  const end = start === text.length ? start : portionEnd(text, start, maxTokens, starts);
  const portion = text.slice(start, end);
  return { text: portion, start, end, tokens: countTokens(portion) };
}

/**
 * Where the portion from `start` ends: after the most chunks that fit, or inside an over-long
 * first chunk. Only a window of the text from `start` is chunked, widened while every chunk in it
 * fits; the window may cut its last chunk, so no portion ends after that one.
 */
function portionEnd(text: string, start: number, maxTokens: number, starts: PortionStarts): number {
  const targetTokens = Math.min(CHUNK_DEFAULTS.targetTokens, Math.ceil(maxTokens / CHUNKS_PER_BUDGET));
  for (let windowChars = maxTokens * WINDOW_CHARS_PER_TOKEN; ; windowChars *= 2) {
    const whole = start + windowChars >= text.length;
    const windowEnd = whole ? text.length : start + windowChars;
    const chunks = chunkText(text.slice(start, windowEnd), { targetTokens });
    const first = chunks[0];
    if (first === undefined) {
      if (whole) return text.length;
      continue;
    }
    let fitting = 0;
    let used = first.tokens;
    while (fitting < chunks.length && used <= maxTokens) {
      fitting++;
      used += JOINT_TOKENS + (chunks[fitting]?.tokens ?? 0);
    }
    if (fitting === chunks.length && !whole) continue;
    // Counted apart, chunks may count a token more or less together (and with the whitespace after them).
    for (let i = fitting - 1; i >= 0; i--) {
      const next = chunks[i + 1];
      const end = next ? start + next.start : whole ? text.length : -1;
      if (end === -1 || !starts.isStart(end)) continue;
      if (countTokens(text.slice(start, end)) <= maxTokens) return end;
    }
    return cutEnd(text, start, start + first.end, maxTokens, starts);
  }
}

/**
 * Where the portion from `start` ends inside a first chunk longer than the budget: after the most
 * whole words that fit with the whitespace after them, else inside its first word.
 */
function cutEnd(text: string, start: number, chunkEnd: number, maxTokens: number, starts: PortionStarts): number {
  for (let budget = maxTokens; budget > 0; ) {
    const window = windowAround(text, { start, end: chunkEnd }, () => true, budget);
    if (window === null) break;
    const end = starts.from(window.end);
    const over = countTokens(text.slice(start, end)) - maxTokens;
    if (over <= 0) return end;
    budget -= over;
  }
  const wordEnd = start + (/^\s*\S*/.exec(text.slice(start, chunkEnd))?.[0].length ?? 0);
  return cutInsideWord(text, start, wordEnd, maxTokens, starts);
}

/**
 * The furthest place a portion may start, from `start` up to `wordEnd`, such that the text before
 * it fits `maxTokens` (searched by halves: a longer prefix all but never counts fewer tokens).
 * When no place fits (a character with more marks than the budget), the nearest one: a portion over
 * the budget rather than none.
 */
function cutInsideWord(text: string, start: number, wordEnd: number, maxTokens: number, starts: PortionStarts): number {
  let best = -1;
  let low = start + 1;
  let high = wordEnd;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const end = starts.from(middle);
    if (end <= wordEnd && countTokens(text.slice(start, end)) <= maxTokens) {
      best = end;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best > start ? best : starts.from(start + 1);
}
