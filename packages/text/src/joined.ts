import { indexTokens } from './stem.js';
import { hasUnspacedScript, tokenize } from './tokenize.js';

/** A word of two parts joined by a hyphen (`e-mail`, `wi-fi`, `covid-19`); a hyphen that cannot break too. */
const HYPHENATED = /^([\p{L}\p{N}\p{M}]+)[-\u2010\u2011]([\p{L}\p{N}\p{M}]+)$/u;
const LETTER = /\p{L}/u;

const HYPHENS = /[-\u2010\u2011]/g;
const HYPHEN_CHARS = '-\u2010\u2011';
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/**
 * The index tokens of the joined words of the text's hyphenated words (`COVID-19` → `covid19`,
 * `e-mails` → `email` on an English page), one per occurrence: the index holds them after the text's
 * own tokens, so that `covid19` and `ebook` find pages writing `COVID-19` and `e-book`, as Lucene's
 * word delimiter filter indexes both spellings (`catenate_words`).
 */
export function joinedTokens(text: string, lang: string): string[] {
  const tokens: string[] = [];
  for (const { joined } of hyphenatedIn(text)) tokens.push(...indexTokens(joined, lang));
  return tokens;
}

/** The words of two hyphen-joined parts in `text` (see {@link joinedWord}): where each starts, and its parts joined. */
export function hyphenatedIn(text: string): { readonly start: number; readonly joined: string }[] {
  const found: { start: number; joined: string }[] = [];
  // From each hyphen out to the word's ends: hyphens are few, and a pattern run over the whole
  // text cost more than tokenizing it.
  const hyphens = HYPHENS;
  hyphens.lastIndex = 0;
  const isWord = (at: number) => at >= 0 && at < text.length && WORD_CHAR.test(text[at]!);
  const isHyphen = (at: number) => at >= 0 && at < text.length && HYPHEN_CHARS.includes(text[at]!);
  for (let match = hyphens.exec(text); match !== null; match = hyphens.exec(text)) {
    const at = match.index;
    let start = at;
    while (isWord(start - 1)) start--;
    let end = at + 1;
    while (isWord(end)) end++;
    hyphens.lastIndex = Math.max(hyphens.lastIndex, end);
    // Two parts, not a chain (`state-of-the-art`) nor a dash (`- x`, `x -`).
    if (start === at || end === at + 1 || isHyphen(start - 1) || (isHyphen(end) && isWord(end + 1))) continue;
    const joined = joinedWord(text.slice(start, end));
    if (joined !== null) found.push({ start, joined });
  }
  return found;
}

/**
 * The one word a query word of two hyphen-joined parts is also written as (`e-mail` → `email`,
 * `on-line` → `online`, `wi-fi` → `wifi`), or null. Parts of digits only (`2020-21`) are a range,
 * not a word; runs of Chinese, Japanese and Southeast Asian scripts are segmented apart.
 */
export function joinedWord(text: string): string | null {
  const parts = HYPHENATED.exec(text);
  if (!parts || !LETTER.test(text) || hasUnspacedScript(text)) return null;
  const joined = `${parts[1]}${parts[2]}`;
  return tokenize(joined).length === 1 ? joined : null;
}
