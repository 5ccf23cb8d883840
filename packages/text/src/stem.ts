import { stemmer } from 'stemmer';
import { tokenize } from './tokenize.js';

/**
 * Stemming for search: English only (Porter, from the `stemmer` package), because English is the
 * only language with a maintained stemmer here; other languages are indexed and searched as their
 * exact (folded) forms. Index and query must agree, so both sides use these functions.
 */

/** Languages whose pages are stemmed. */
const STEMMED_LANGUAGES: ReadonlySet<string> = new Set(['en']);
/** Only plain lower-case ASCII words are stemmed: numbers, codes and other scripts stay as they are. */
const ASCII_WORD = /^[a-z]+$/;

/** Whether pages in this language (primary subtag) are indexed with stemmed tokens. */
export function stemsLanguage(lang: string): boolean {
  return STEMMED_LANGUAGES.has(lang);
}

/** The languages whose pages are indexed by stems (see {@link indexTokens}). */
export function stemmedLanguages(): readonly string[] {
  return [...STEMMED_LANGUAGES];
}

/**
 * Stems already computed: word frequencies follow Zipf's law, so a small table answers almost every
 * token of a page (Porter costs about a microsecond a word, most of the analysis of an English page).
 * Cleared whole when full.
 */
const stems = new Map<string, string>();
const MAX_CACHED_STEMS = 200_000;

/** The English stem of one token from {@link tokenize} (`panels` → `panel`); other tokens unchanged. */
export function stemToken(token: string): string {
  let stem = stems.get(token);
  if (stem === undefined) {
    stem = token.length > 2 && ASCII_WORD.test(token) ? stemmer(token) : token;
    if (stems.size >= MAX_CACHED_STEMS) stems.clear();
    stems.set(token, stem);
  }
  return stem;
}

/**
 * The tokens a page's text is indexed as: {@link tokenize} with CJK runs as character pairs (so any
 * character sequence is found as a phrase of pairs), stemmed when the page's language is stemmed.
 *
 * @example indexTokens('Solar panels', 'en') // ['solar', 'panel']
 */
export function indexTokens(text: string, lang: string): string[] {
  const tokens = tokenize(text, { cjk: 'bigrams' });
  if (!stemsLanguage(lang)) return tokens;
  for (let i = 0; i < tokens.length; i++) tokens[i] = stemToken(tokens[i]!);
  return tokens;
}
