import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer } from 'stemmer';
import { tokenize } from './tokenize.js';

/**
 * Stemming for search, by the page's language: English with Porter (the `stemmer` package, as
 * before), and the languages Snowball covers well with Snowball's own algorithms (compiled to
 * JavaScript by `@orama/stemmers`). Pages in other languages keep their words as written. Index and
 * query must agree, so both sides use these functions; a query, whose language is rarely known, is
 * asked in each stemmed language's stems of its words (see `language-forms.ts` in index-lance).
 */

/** A stemmer of one folded word. */
type Stemmer = (word: string) => string;

/** Plain lower-case ASCII words: what a Latin-script word is once folded (numbers and codes are not). */
const ASCII_WORD = /^[a-z]+$/;
/** Cyrillic words (folded: lower case, `ё` as `е`). */
const CYRILLIC_WORD = /^[\u0430-\u044f]+$/;

interface Language {
  readonly stem: Stemmer;
  /** The words the stemmer is given: those of the language's script; others stay as they are. */
  readonly word: RegExp;
}

const latin = (stem: Stemmer): Language => ({ stem, word: ASCII_WORD });

/**
 * Languages whose pages are indexed by stems, by primary subtag. Words are folded (no accents, `ß`
 * as `ss`) before they are stemmed, on both sides: Snowball's rules for accented endings (French
 * `-ée`, Spanish `-ción`) then take the folded ending or leave it, the same way on the page and in
 * the query. Norwegian is written `no`, `nb` (Bokmål) or `nn` (Nynorsk); Snowball's is Bokmål's.
 */
const LANGUAGES: ReadonlyMap<string, Language> = new Map([
  ['en', latin(stemmer)],
  ['da', latin(danish)],
  ['de', latin(german)],
  ['es', latin(spanish)],
  ['fi', latin(finnish)],
  ['fr', latin(french)],
  ['it', latin(italian)],
  ['nb', latin(norwegian)],
  ['nl', latin(dutch)],
  ['nn', latin(norwegian)],
  ['no', latin(norwegian)],
  ['pt', latin(portuguese)],
  ['ru', { stem: russian, word: CYRILLIC_WORD }],
  ['sv', latin(swedish)],
]);

/** Whether pages in this language (primary subtag) are indexed with stemmed tokens. */
export function stemsLanguage(lang: string): boolean {
  return LANGUAGES.has(lang);
}

/** The languages whose pages are indexed by stems (see {@link indexTokens}), English first. */
export function stemmedLanguages(): readonly string[] {
  return [...LANGUAGES.keys()];
}

/**
 * Stems already computed, per language: word frequencies follow Zipf's law, so a small table
 * answers almost every token of a page (a stemmer costs one to five microseconds a word, most of
 * the analysis of a page). Cleared whole when full.
 */
const cache = new Map<string, Map<string, string>>();
const MAX_CACHED_STEMS = 200_000;

/**
 * The stem of one token from {@link tokenize} in a language (`москвы` → `москв` in Russian); the
 * token itself in a language not stemmed, and for numbers, codes, words of another
 * script and words of two letters or fewer.
 *
 * @example stemIn('de', 'stromnetze') // 'stromnetz'
 */
export function stemIn(lang: string, token: string): string {
  const language = LANGUAGES.get(lang);
  return language === undefined ? token : stemWith(language, stemsOf(lang), token);
}

/** The cached stems of a language (see {@link cache}). */
function stemsOf(lang: string): Map<string, string> {
  let stems = cache.get(lang);
  if (stems === undefined) {
    stems = new Map();
    cache.set(lang, stems);
  }
  return stems;
}

/** {@link stemIn} with the language and its cache looked up once for all of a page's tokens. */
function stemWith(language: Language, stems: Map<string, string>, token: string): string {
  let stem = stems.get(token);
  if (stem === undefined) {
    stem = token.length > 2 && language.word.test(token) ? language.stem(token) : token;
    if (stems.size >= MAX_CACHED_STEMS) stems.clear();
    stems.set(token, stem);
  }
  return stem;
}

/** The English stem of one token from {@link tokenize} (`panels` → `panel`); other tokens unchanged. */
export function stemToken(token: string): string {
  return stemIn('en', token);
}

/**
 * The tokens a page's text is indexed as: {@link tokenize} with CJK runs as character pairs (so any
 * character sequence is found as a phrase of pairs), stemmed when the page's language is.
 *
 * @example indexTokens('Solar panels', 'en') // ['solar', 'panel']
 */
export function indexTokens(text: string, lang: string): string[] {
  const tokens = tokenize(text, { cjk: 'bigrams' });
  const language = LANGUAGES.get(lang);
  if (language === undefined) return tokens;
  const stems = stemsOf(lang);
  for (let i = 0; i < tokens.length; i++) tokens[i] = stemWith(language, stems, tokens[i]!);
  return tokens;
}
