import { tokenize } from '@quarry/text';

/**
 * The FTS5 table uses SQLite's `ascii` tokenizer: ASCII letters and digits form tokens (folded to
 * lower case), every other ASCII character separates them, and every non-ASCII character is part of
 * a token. For pure-ASCII text that is exactly what `@quarry/text`'s `tokenize` does, so such text
 * goes to SQLite untouched (no JavaScript work for most of the web). Only the words that contain a
 * non-ASCII character are rewritten into their normalized, space-separated tokens; CJK runs become
 * character pairs (`tokenize`'s `cjk: 'bigrams'`), which cost a hundredth of word segmentation.
 */

const BIGRAMS = { cjk: 'bigrams' } as const;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const NON_ASCII = /[^\x00-\x7f]+/g;

function isAsciiAlnum(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/** Rewrites text so that FTS5's `ascii` tokenizer sees exactly the tokens `tokenize(text, { cjk: 'bigrams' })` returns. */
export function toFtsText(text: string): string {
  if (ASCII_ONLY.test(text)) return text;
  const parts: string[] = [];
  let cursor = 0;
  let regionStart = -1;
  let regionEnd = -1;
  const flush = (): void => {
    parts.push(
      text.slice(cursor, regionStart),
      ' ',
      tokenize(text.slice(regionStart, regionEnd), BIGRAMS).join(' '),
      ' ',
    );
    cursor = regionEnd;
  };
  for (const match of text.matchAll(NON_ASCII)) {
    let start = match.index;
    let end = start + match[0].length;
    while (start > 0 && isAsciiAlnum(text.charCodeAt(start - 1))) start--;
    while (end < text.length && isAsciiAlnum(text.charCodeAt(end))) end++;
    if (regionStart !== -1 && start <= regionEnd) {
      regionEnd = end;
      continue;
    }
    if (regionStart !== -1) flush();
    regionStart = start;
    regionEnd = end;
  }
  if (regionStart !== -1) flush();
  parts.push(text.slice(cursor));
  return parts.join('');
}

/**
 * Filter facts and title words are indexed as tokens of a `meta` column, so that FTS5 itself
 * intersects them with the text query (a selective filter never makes us walk every match of a
 * common word) and no query needs a column filter (which makes FTS5 decode the position list of
 * every document of every word it walks). Their first character is one `tokenize` never keeps in
 * a token (`§`, `¶`: punctuation) but the `ascii` tokenizer does, so no word of any text or query
 * can equal them.
 */
export const META_ALL = '§all';

/** Marks a title token (`¶volcano`); a title's marked tokens keep the title's word order. */
const TITLE_MARK = '¶';

/** The title-column form of a token: `intitle:` searches and title bonuses use it. */
export function titleToken(token: string): string {
  return `${TITLE_MARK}${token}`;
}

/** `§l` + hex of the language code (`§l656e`). */
export function langToken(lang: string): string {
  return `§l${hex(lang)}`;
}

/** `§f` + hex of the stored filetype. */
export function filetypeToken(filetype: string): string {
  return `§f${hex(filetype)}`;
}

/** `§m` + UTC year and month of a time (`§m202511`). */
export function monthToken(ms: number): string {
  const date = new Date(ms);
  return `§m${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** `§s` + hex of a host; a page gets one for its host and one for each parent domain. */
export function siteToken(host: string): string {
  return `§s${hex(host)}`;
}

/**
 * The `meta` column of one page: its title's tokens, marked, then its filter tokens.
 * `title` must be the FTS form of the title (what {@link toFtsText} returned).
 */
export function metaText(page: {
  ftsTitle: string;
  lang: string;
  filetype: string;
  domain: string;
  crawledMs: number;
}): string {
  const tokens = page.ftsTitle
    .split(TITLE_SEPARATORS)
    .filter((token) => token !== '')
    .map((token) => titleToken(token.toLowerCase()));
  tokens.push(META_ALL, langToken(page.lang), filetypeToken(page.filetype), monthToken(page.crawledMs));
  const labels = page.domain.split('.');
  for (let i = 0; i < labels.length; i++) tokens.push(siteToken(labels.slice(i).join('.')));
  return tokens.join(' ');
}

/** What the `ascii` tokenizer separates tokens on: every ASCII character but letters and digits. */
const TITLE_SEPARATORS = /[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+/;

function hex(value: string): string {
  return Buffer.from(value, 'utf8').toString('hex');
}
