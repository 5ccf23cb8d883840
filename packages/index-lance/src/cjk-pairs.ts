import { randomUUID } from 'node:crypto';
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
 * The start of the list's first line, which names the list (a random id after it): a file without
 * it (emptied, or made anew by an append after it was deleted) lists only part of the pairs, and
 * another id at the path is another list (the file replaced).
 */
const HEADER_START = 'quarry cjk-pairs 1 ';
/** The first line's length: its start, a UUID and the line's end. */
const HEADER_LENGTH = HEADER_START.length + 36 + 1;

/** Reads `length` bytes of the file from `position` (fewer where it ends). */
function readBytes(fd: number, position: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  let read = 0;
  while (read < length) {
    const got = readSync(fd, bytes, read, length - read, position + read);
    if (got === 0) break;
    read += got;
  }
  return bytes.subarray(0, read);
}

/**
 * The pairs of Chinese, Japanese and Korean characters the index's pages hold, by their first
 * character: what a search of one character asks. The index holds a run of such characters as its
 * pairs (see `indexTokens`), so a one-character word is asked as a prefix: the character and every
 * pair it may begin, some 21,000 tokens (`pairsBeginningWith`), of which a page collection holds a
 * few dozen (`记`: 24 at 100,000 pages). The engine looks each one up: 50 ms for the 21,000 against
 * 4 ms for the 24 (LanceDB 0.37, 100,000 pages).
 *
 * The list is a file of tokens beside the table ({@link CJK_PAIRS_FILE}), started with the table
 * and appended to by each writer before its rows are committed (see {@link record}), so that any
 * row a reader sees has its pairs in the file already, whatever process wrote it; a reader takes in
 * what was appended since it last looked before each search that asks a character. Pairs of pages
 * since deleted stay listed: a pair no page holds finds nothing.
 *
 * A list that may lack pairs is not used, and every pair is asked, as before the list existed,
 * until `quarry reindex` (see {@link notice}): an index that held pages before the file existed
 * (written by an earlier release), and a file deleted, emptied or replaced since (its first line
 * {@link HEADER_START} gone, shorter than read, another list at the path). A writer never makes the file
 * anew for a table holding pages.
 */
export class CjkPairs {
  readonly #path: string;
  /** Why the list may lack pairs, or null while it lists every pair of the table's pages. */
  #problem: string | null;
  /** Known tokens by first character (code point). */
  readonly #byChar = new Map<string, Set<string>>();
  /** Every known token: a page's thousands of tokens are each looked up once, here. */
  readonly #all = new Set<string>();
  /** How far the file has been read: up to the end of its last whole line. */
  #offset = 0;
  /** Whether a list of this index's may still be at the path (not since {@link unlist}). */
  #listed: boolean;
  /** The file's first line, once read: another there is another list. */
  #header: string | null = null;

  /**
   * Whether the file may still be getting its first line (made with the table, by this process or
   * another opening it at once); otherwise a file without it is not the list.
   */
  readonly #new: boolean;

  private constructor(path: string, problem: string | null, isNew: boolean) {
    this.#path = path;
    this.#problem = problem;
    this.#new = isNew;
    // An index without a list when opened (written before it, or in a folder that cannot be
    // written) has none to take back.
    this.#listed = problem === null;
  }

  /**
   * The list of the index in `dir`. `empty`: its table holds no page, so the list starts there (the
   * file is created if missing); otherwise the list is complete only if the file exists (and holds
   * its first line, checked as it is read).
   */
  static open(dir: string, empty: boolean): CjkPairs {
    const path = join(dir, CJK_PAIRS_FILE);
    if (existsSync(path)) return new CjkPairs(path, null, empty);
    if (!empty) return new CjkPairs(path, 'its pages were written before the list existed, or it was deleted', false);
    try {
      // Exclusive: another process opening the empty index at once may have made it, and appended.
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, `${HEADER_START}${randomUUID()}\n`);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        return new CjkPairs(path, 'the list cannot be written', true);
    }
    return new CjkPairs(path, null, true);
  }

  /** Whether {@link pairsOf} knows the pairs (the index's pages all written since the file existed). */
  get complete(): boolean {
    return this.#problem === null;
  }

  /** What an operator is told while the list is not used (see {@link CjkPairs}), or null. */
  notice(): string | null {
    if (this.#problem === null) return null;
    return (
      `the search index at ${dirname(this.#path)} has no usable list of the Chinese, Japanese and Korean character ` +
      `pairs its pages hold (${this.#problem}): a search of one such character asks every pair it may begin, ` +
      'about 4 times as long, and misses pairs with characters of the rarer blocks. To list them, stop Quarry and run: quarry reindex'
    );
  }

  /**
   * Adds the CJK tokens of rows about to be written (their analysed `t_text`) that the list lacks,
   * in one append. Call it before the rows are committed. A failure is thrown: the rows must not be
   * written then, or a one-character search would miss them. A list found deleted or changed is
   * not written to but removed (see {@link unlist}): every pair is asked from then on.
   */
  record(texts: readonly string[]): void {
    if (this.#problem !== null && !this.#listed) return;
    let fresh: Set<string> | null = null;
    for (const text of texts) {
      if (!MAY_HOLD_CJK.test(text)) continue;
      if (fresh === null) {
        if (this.#problem === null) this.#refresh();
        if (this.#problem !== null) {
          this.#unlist();
          return;
        }
        fresh = new Set();
      }
      for (const token of text.split(' ')) {
        if (token.length < 2 || !mayStartCjk(token.charCodeAt(0)) || this.#all.has(token)) continue;
        // A pair: a lone character beyond the first plane is two code units long too.
        const first = firstChar(token);
        if (first.length < token.length && hasCjk(first)) fresh.add(token);
      }
    }
    if (fresh === null || fresh.size === 0) return;
    // Each append opens and closes a line of its own: a writer stopped halfway leaves a line
    // without its end, which the next append's leading newline closes, no token of it lost. The
    // file is not made anew: one deleted would list only these.
    let fd: number;
    try {
      fd = openSync(this.#path, constants.O_WRONLY | constants.O_APPEND);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.#problem = 'the list was deleted';
      this.#unlist();
      return;
    }
    try {
      writeSync(fd, `\n${[...fresh].join(' ')}\n`);
    } finally {
      closeSync(fd);
    }
    // Known once written: a failed append leaves them to the next write of the pages.
    for (const token of fresh) this.#add(token);
  }

  /**
   * The tokens the index may hold that begin with `char` (itself first, alone, then its pairs), or
   * null when the list is not complete.
   */
  pairsOf(char: string): string[] | null {
    if (this.#problem === null) this.#refresh();
    if (this.#problem !== null) return null;
    return [char, ...(this.#byChar.get(char) ?? [])];
  }

  /**
   * Removes whatever is at the list's path before rows whose pairs this process cannot list are
   * written: a list put back (or another index's) would be read whole by the processes opening the
   * index later, which would then miss those rows. Thrown when it cannot be: the rows must not be
   * written then.
   */
  #unlist(): void {
    rmSync(this.#path, { force: true });
    this.#listed = false;
  }

  /** Takes in the file's lines appended since it was last read; notes a file deleted, emptied or replaced. */
  #refresh(): void {
    let fd: number;
    try {
      fd = openSync(this.#path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') this.#problem = 'the list was deleted';
      return;
    }
    try {
      this.#problem = this.#readFrom(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** The reading of the open file for `#refresh`: what is wrong with it, or null. */
  #readFrom(fd: number): string | null {
    const size = fstatSync(fd).size;
    if (this.#header === null) {
      // Not read yet: a file without its first line is no list, but one being made with the table.
      if (size < HEADER_LENGTH) return this.#new ? null : 'the list lacks its first line (emptied, or made anew)';
      const header = readBytes(fd, 0, HEADER_LENGTH).toString('utf8');
      if (!header.startsWith(HEADER_START) || !header.endsWith('\n')) return 'the list lacks its first line';
      this.#header = header;
      this.#offset = HEADER_LENGTH;
    } else if (size < this.#offset) return 'the list was cut short';
    else if (readBytes(fd, 0, HEADER_LENGTH).toString('utf8') !== this.#header) return 'the list was replaced';
    if (size === this.#offset) return null;
    const bytes = readBytes(fd, this.#offset, size - this.#offset);
    // Up to the last line's end: a line being appended is read once whole.
    const end = bytes.lastIndexOf(0x0a);
    if (end < 0) return null;
    for (const token of bytes.toString('utf8', 0, end).split(/\s+/)) if (token !== '') this.#add(token);
    this.#offset += end + 1;
    return null;
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
