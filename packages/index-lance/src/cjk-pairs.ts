import { closeSync, existsSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { hasCjk } from '@quarry/text';

/** The file in the index folder listing the CJK character pairs its pages may hold. */
export const CJK_PAIRS_FILE = 'cjk-pairs.txt';

/**
 * Code units that every Chinese, Japanese or Korean character (`hasCjk`) begins with, and some
 * others: the blocks of those scripts, those beyond the first plane by their high surrogates. Tested
 * without Unicode property escapes, which took 4 times as long over a page's text (23 against 5 µs);
 * a token passing is then checked with `hasCjk`.
 */
const CJK_UNIT_RANGES: readonly (readonly [number, number])[] = [
  // The Unified Ideographs first: most tokens of Chinese and Japanese pages.
  [0x4e00, 0x9fff],
  [0x1100, 0x11ff],
  [0x2e80, 0x2fdf],
  [0x3000, 0x30ff],
  [0x3130, 0x318f],
  [0x31f0, 0x31ff],
  [0x3400, 0x4dbf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7ff],
  [0xf900, 0xfaff],
  [0xff66, 0xffdc],
  [0xd82c, 0xd82c],
  [0xd840, 0xd888],
];
const unit = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;
/** Whether a row's analysed text may hold a CJK token (most rows hold none: checked first). */
const MAY_HOLD_CJK = new RegExp(`[${CJK_UNIT_RANGES.map(([from, to]) => `${unit(from)}-${unit(to)}`).join('')}]`);

/** Whether a token's first code unit is one of {@link CJK_UNIT_RANGES}. */
function mayStartCjk(code: number): boolean {
  if (code < 0x1100) return false;
  for (const [from, to] of CJK_UNIT_RANGES) if (code >= from && code <= to) return true;
  return false;
}

/**
 * The pairs of Chinese, Japanese and Korean characters the index's pages hold, by their first
 * character: what a search of one character asks. The index holds a run of such characters as its
 * pairs (see `indexTokens`), so a one-character word is asked as a prefix: the character and every
 * pair it may begin, some 21,000 tokens (`pairsBeginningWith`), of which a page collection holds a
 * few dozen (`记`: 24 at 100,000 pages). The engine looks each one up: 50 ms for the 21,000 against
 * 4 ms for the 24 (LanceDB 0.37, 100,000 pages).
 *
 * The list is a file of tokens beside the table ({@link CJK_PAIRS_FILE}), appended to by each
 * writer before its rows are committed (see {@link record}), so that any row a reader sees has its
 * pairs in the file already, whatever process wrote it; a reader takes in what was appended since
 * it last looked before each search that asks a character. Pairs of pages since deleted stay listed:
 * a pair no page holds finds nothing. An index that held pages before the file existed (written by
 * an earlier release) has none, and its searches ask every pair, as before, until `quarry reindex`.
 */
export class CjkPairs {
  readonly #path: string;
  /** Whether the file lists every pair of the table's pages (it existed when the index was opened). */
  readonly #complete: boolean;
  /** Known tokens by first character (code point). */
  readonly #byChar = new Map<string, Set<string>>();
  /** Every known token: a page's thousands of tokens are each looked up once, here. */
  readonly #all = new Set<string>();
  /** How far the file has been read: up to the end of its last whole line. */
  #offset = 0;

  private constructor(path: string, complete: boolean) {
    this.#path = path;
    this.#complete = complete;
  }

  /**
   * The list of the index in `dir`. `empty`: its table holds no page, so the list starts there (the
   * file is created if missing); otherwise the list is complete only if the file exists.
   */
  static open(dir: string, empty: boolean): CjkPairs {
    const path = join(dir, CJK_PAIRS_FILE);
    let complete = existsSync(path);
    if (!complete && empty) {
      try {
        closeSync(openSync(path, 'a'));
        complete = true;
      } catch {
        // A read-only folder: no list, every pair asked.
      }
    }
    return new CjkPairs(path, complete);
  }

  /** Whether {@link pairsOf} knows the pairs (the index's pages all written since the file existed). */
  get complete(): boolean {
    return this.#complete;
  }

  /**
   * Adds the CJK tokens of rows about to be written (their analysed `t_text`) that the list lacks,
   * in one append. Call it before the rows are committed. A failure is thrown: the rows must not be
   * written then, or a one-character search would miss them.
   */
  record(texts: readonly string[]): void {
    if (!this.#complete) return;
    let fresh: string[] | null = null;
    for (const text of texts) {
      if (!MAY_HOLD_CJK.test(text)) continue;
      if (fresh === null) {
        this.#refresh();
        fresh = [];
      }
      for (const token of text.split(' ')) {
        if (token.length < 2 || !mayStartCjk(token.charCodeAt(0)) || this.#all.has(token)) continue;
        if (hasCjk(firstChar(token)) && this.#add(token)) fresh.push(token);
      }
    }
    if (fresh === null || fresh.length === 0) return;
    // Each append opens and closes a line of its own: a writer stopped halfway leaves a line
    // without its end, which the next append's leading newline closes, no token of it lost.
    const fd = openSync(this.#path, 'a');
    try {
      writeSync(fd, `\n${fresh.join(' ')}\n`);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The tokens the index may hold that begin with `char` (itself first, alone, then its pairs), or
   * null when the list is not complete.
   */
  pairsOf(char: string): string[] | null {
    if (!this.#complete) return null;
    this.#refresh();
    return [char, ...(this.#byChar.get(char) ?? [])];
  }

  /** Whether the token is listed (or, for an incomplete list, may be held: always). */
  holds(token: string): boolean {
    if (!this.#complete) return true;
    return this.#byChar.get(firstChar(token))?.has(token) ?? false;
  }

  /** Takes in the file's lines appended since it was last read. */
  #refresh(): void {
    let fd: number;
    try {
      fd = openSync(this.#path, 'r');
    } catch {
      return;
    }
    try {
      const size = fstatSync(fd).size;
      if (size <= this.#offset) return;
      const bytes = Buffer.allocUnsafe(size - this.#offset);
      let read = 0;
      while (read < bytes.length) {
        const got = readSync(fd, bytes, read, bytes.length - read, this.#offset + read);
        if (got === 0) break;
        read += got;
      }
      // Up to the last line's end: a line being appended is read once whole.
      const end = bytes.lastIndexOf(0x0a, read - 1);
      if (end < 0) return;
      for (const token of bytes.toString('utf8', 0, end).split(/\s+/)) if (token !== '') this.#add(token);
      this.#offset += end + 1;
    } finally {
      closeSync(fd);
    }
  }

  /** Adds a token; whether it was new. */
  #add(token: string): boolean {
    const char = firstChar(token);
    let tokens = this.#byChar.get(char);
    if (tokens === undefined) {
      tokens = new Set();
      this.#byChar.set(char, tokens);
    }
    if (tokens.has(token)) return false;
    tokens.add(token);
    this.#all.add(token);
    return true;
  }
}

/** A token's first character (a code point: one or two UTF-16 units). */
function firstChar(token: string): string {
  const code = token.codePointAt(0) ?? 0;
  return code > 0xffff ? token.slice(0, 2) : token.slice(0, 1);
}
