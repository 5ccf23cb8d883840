import { stemIn, stemmedLanguages } from '@quarry/text';

/**
 * A query's words in each stemmed language. Pages are indexed by their language's stems (`Москвы`
 * as `москв` on a Russian page, `Stromnetze` as `stromnetz` on a German one), and a query's language
 * is rarely known (two words, a name), so each word is asked in every stemmed language's stems,
 * each of the pages of that language only: a German stem asked of English pages would find other
 * words there (`univers` for `university` is the French stem, and the English one of `universe`).
 * Languages whose stems of the words are their English stems or the words as typed (most: a
 * Latin-script word is left whole by the Russian stemmer, a Russian one by the others) add nothing:
 * their pages are asked with those.
 */

/** The analysis version since which pages of the stemmed languages other than English hold stems. */
export const LANGUAGES_STEMMED_SINCE = 7;

/** The stemmed languages other than English, whose stems are a word's English form (see wordForms). */
const OTHER_STEMMED: readonly string[] = stemmedLanguages().filter((lang) => lang !== 'en');

/** A query's tokens as the pages of some stemmed languages hold them. */
export interface LanguageReading {
  /** The languages whose pages hold the tokens so (primary subtags). */
  readonly languages: readonly string[];
  readonly tokens: readonly string[];
}

/** How the pages of each stemmed language hold a query's tokens. */
export interface LanguageForms {
  /** Languages whose stems of the tokens are the English ones (`en` first). */
  readonly english: readonly string[];
  /** Languages whose stems are the tokens as typed (and not the English ones). */
  readonly typed: readonly string[];
  /** Every other stemmed language, grouped by the tokens its pages hold. */
  readonly others: readonly LanguageReading[];
}

/**
 * How each stemmed language's pages hold tokens `typed` (a query's, analysed), whose English stems
 * are `english` (the same length).
 *
 * @example languageForms(['москвы'], ['москвы']) // others: [{ languages: ['ru'], tokens: ['москв'] }]
 */
export function languageForms(english: readonly string[], typed: readonly string[]): LanguageForms {
  const forms = { english: ['en'], typed: [] as string[], others: [] as { languages: string[]; tokens: string[] }[] };
  for (const lang of OTHER_STEMMED) {
    const tokens = typed.map((token) => stemIn(lang, token));
    if (sameTokens(tokens, english)) forms.english.push(lang);
    else if (sameTokens(tokens, typed)) forms.typed.push(lang);
    else {
      const group = forms.others.find((reading) => sameTokens(reading.tokens, tokens));
      if (group) group.languages.push(lang);
      else forms.others.push({ languages: [lang], tokens });
    }
  }
  return forms;
}

/**
 * The token sequences of the stemmed languages whose pages hold `typed` neither as its English stems
 * `english` nor as typed (see {@link languageForms}), each with those languages.
 */
export function languageReadings(english: readonly string[], typed: readonly string[]): readonly LanguageReading[] {
  return languageForms(english, typed).others;
}

/** Pages in one of `only`'s languages, or in none of `except`'s (primary subtags). */
export type LanguageFilter = { readonly only: readonly string[] } | { readonly except: readonly string[] };

/** Whether a page in `lang` passes a filter (every page passes none). */
export function passesLanguages(lang: string, filter: LanguageFilter | undefined): boolean {
  if (filter === undefined) return true;
  return 'only' in filter ? filter.only.includes(lang) : !filter.except.includes(lang);
}

/**
 * Whether some page passes a filter, given the languages of the index's pages: the stemmed ones
 * present, and {@link UNSTEMMED} when a page of any other language is.
 */
export function filterMeetsPages(filter: LanguageFilter | undefined, present: ReadonlySet<string>): boolean {
  if (filter === undefined) return true;
  if ('only' in filter) return filter.only.some((lang) => present.has(lang));
  for (const lang of present) if (!filter.except.includes(lang)) return true;
  return false;
}

/** The language of the pages of every language not stemmed, in a set of languages present (see filterMeetsPages). */
export const UNSTEMMED = '*';

function sameTokens(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((token, i) => token === b[i]);
}
