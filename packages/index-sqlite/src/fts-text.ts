import { tokenize } from '@quarry/text';

/**
 * The FTS5 table uses SQLite's `ascii` tokenizer: ASCII letters and digits form tokens (folded to
 * lower case), every other ASCII character separates them, and every non-ASCII character is part of
 * a token. For pure-ASCII text that is exactly what `@quarry/text`'s `tokenize` does, so such text
 * goes to SQLite untouched (no JavaScript work for most of the web). Only the words that contain a
 * non-ASCII character are rewritten into their normalized, space-separated tokens.
 */

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const NON_ASCII = /[^\x00-\x7f]+/g;

function isAsciiAlnum(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/** Rewrites text so that FTS5's `ascii` tokenizer sees exactly the tokens `tokenize(text)` returns. */
export function toFtsText(text: string): string {
  if (ASCII_ONLY.test(text)) return text;
  const parts: string[] = [];
  let cursor = 0;
  let regionStart = -1;
  let regionEnd = -1;
  const flush = (): void => {
    parts.push(text.slice(cursor, regionStart), ' ', tokenize(text.slice(regionStart, regionEnd)).join(' '), ' ');
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
 * Filter facts are indexed as tokens of a `meta` column (weight 0 in ranking) so that FTS5 itself
 * intersects them with the text query: a selective filter then never makes us walk every match
 * of a common word. Token prefixes cannot collide with words because user terms never address
 * the `meta` column.
 */
export const META_ALL = 'zall';

/** `zl` + language code (`zlen`). */
export function langToken(lang: string): string {
  return `zl${hex(lang)}`;
}

/** `zf` + stored filetype (`zfpdf`). */
export function filetypeToken(filetype: string): string {
  return `zf${hex(filetype)}`;
}

/** `zm` + UTC year and month of a time (`zm202511`). */
export function monthToken(ms: number): string {
  const date = new Date(ms);
  return `zm${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** `zs` + hex of a host; a page gets one for its host and one for each parent domain. */
export function siteToken(host: string): string {
  return `zs${hex(host)}`;
}

/** The tokens of the `meta` column for one page. */
export function metaTokens(page: { lang: string; filetype: string; domain: string; crawledMs: number }): string {
  const tokens = [META_ALL, langToken(page.lang), filetypeToken(page.filetype), monthToken(page.crawledMs)];
  const labels = page.domain.split('.');
  for (let i = 0; i < labels.length; i++) tokens.push(siteToken(labels.slice(i).join('.')));
  return tokens.join(' ');
}

function hex(value: string): string {
  return Buffer.from(value, 'utf8').toString('hex');
}
