import { indexTokens } from './stem.js';
import { hasUnspacedScript, tokenize } from './tokenize.js';

/** A word of two parts joined by a hyphen (`e-mail`, `wi-fi`, `covid-19`); a hyphen that cannot break too. */
const HYPHENATED = /^([\p{L}\p{N}\p{M}]+)[-\u2010\u2011]([\p{L}\p{N}\p{M}]+)$/u;
const LETTER = /\p{L}/u;

/** A word of two hyphen-joined parts in running text, not part of a longer chain (`state-of-the-art`). */
const HYPHENATED_IN_TEXT =
  /(?<![\p{L}\p{N}\p{M}\u2010\u2011-])[\p{L}\p{N}\p{M}]+[-\u2010\u2011][\p{L}\p{N}\p{M}]+(?![\p{L}\p{N}\p{M}]|[-\u2010\u2011][\p{L}\p{N}\p{M}])/gu;
const ANY_HYPHEN = /[-\u2010\u2011]/;

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
  if (!ANY_HYPHEN.test(text)) return [];
  const found: { start: number; joined: string }[] = [];
  for (const match of text.matchAll(HYPHENATED_IN_TEXT)) {
    const joined = joinedWord(match[0]);
    if (joined !== null) found.push({ start: match.index, joined });
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
