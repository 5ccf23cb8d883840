/**
 * One conjunction as Meilisearch parameters: the `q` string, the attributes to search on, and the
 * filter conditions that enforce `intitle:` clauses.
 *
 * Operators in `q` (Meilisearch 1.8+): words are ANDed under matchingStrategy `all`; `"..."` is a
 * phrase (no typos, words adjacent); `-word` and `-"phrase"` exclude. User text is cleaned so it is
 * never read as an operator it was not meant as: quotes inside a clause become spaces, and a `-` at
 * the start of a word of a positive clause is dropped.
 *
 * `intitle:` (decision): when every positive clause of a conjunction is a title clause and it has no
 * exclusion that must hold in every field, the query runs with `attributesToSearchOn` = the title
 * attributes (exact: phrases must be adjacent in the title). Otherwise Meilisearch would apply the
 * restriction to every clause, so instead all clauses search every field and each title clause
 * adds a filter requiring its words (tokenized by `@quarry/text`, as the stored `title_words` are)
 * in the title. Limit: in that mixed case a title phrase needs its words in the title and the
 * phrase somewhere, but not necessarily adjacent in the title. A title exclusion is always a filter:
 * `NOT (all its words in the title)`.
 */
import { ENGLISH_STOP_WORDS, hasCjk, tokenize } from '@quarry/text';
import type { Clause, Conjunction } from './dnf.js';
import { TITLE_FIELDS } from './fields.js';
import { titleWordsCondition } from './filter.js';

/** What one conjunction asks of Meilisearch. */
export interface ConjunctionQuery {
  /** The `q` string; '' for a placeholder search (filters only). */
  readonly q: string;
  /** Title attributes only, or undefined for every searchable attribute. */
  readonly attributesToSearchOn: readonly string[] | undefined;
  /** Conditions ANDed into the query's filter (title words). */
  readonly conditions: readonly string[];
}

const SPACES = /\s+/gu;
// `-` negates exactly one Meilisearch token, so anything its tokenizer might split (`e-mail`,
// `re:invent`, camelCase, CJK runs it segments) is excluded as a one-phrase `-"..."` instead.
const SINGLE_TOKEN = /^[\p{Ll}\p{N}]+$/u;

/** Clause text as phrase content: no quote can end the phrase early. */
export function phraseText(text: string): string {
  return text.replace(/"/g, ' ').replace(SPACES, ' ').trim();
}

/** A positive term's text with no quote and no word-initial `-` that Meilisearch would read as operators. */
export function termText(text: string): string {
  return phraseText(text)
    .replace(/(^|\s)-+/gu, '$1')
    .replace(SPACES, ' ')
    .trim();
}

/** Whether any search engine could match the clause: it has a letter or digit (`🎉` has none). */
function searchable(clause: Clause): boolean {
  return tokenize(clause.text).length > 0;
}

/**
 * Whether every word of the clause is one of the index's stop words (`the`, `"to be or not to be"`),
 * which Meilisearch does not index: such a phrase is ignored and such a `q` is a placeholder search
 * (every page), and a stop word ending `q` is looked up as a word no page has (`dogs the` found
 * nothing).
 */
function onlyStopWords(clause: Clause): boolean {
  return tokenize(clause.text).every((token) => ENGLISH_STOP_WORDS.has(token));
}

/**
 * Characters Meilisearch's tokenizer reads as hard separators (charabia's context separators): one
 * inside an excluded phrase starts another phrase with the exclusion's `-` kept, so
 * `-"re:invent"` excluded every page saying `re` or `invent`. Read as spaces, the phrase excludes
 * the words in a row (a page writing `re:invent` keeps them 8 positions apart and is not excluded).
 */
const HARD_SEPARATORS = /[:;!?。，、；：！？]|[,.](?=\s)/gu;

function positive(clause: Clause): string | null {
  if (clause.type === 'phrase') {
    const text = phraseText(clause.text);
    return text === '' ? null : `"${text}"`;
  }
  const text = termText(clause.text);
  return text === '' ? null : text;
}

function negative(clause: Clause): string | null {
  const text = phraseText(clause.text.replace(HARD_SEPARATORS, ' ')).replace(/^-+/, '');
  if (text === '') return null;
  return clause.type === 'term' && SINGLE_TOKEN.test(text) && !hasCjk(text) ? `-${text}` : `-"${text}"`;
}

/**
 * Translates one conjunction (see the module comment for the `intitle:` rules). Clauses without a
 * letter or digit are dropped, as the SQLite backend drops them, and so are clauses of stop words
 * alone beside others (they only score there, as in the SQLite backend's AND, and Meilisearch has
 * not indexed them); a conjunction whose every positive clause was dropped can match nothing here
 * and translates to null.
 */
export function translateConjunction(conjunction: Conjunction): ConjunctionQuery | null {
  const positives = conjunction.positives.filter((clause) => searchable(clause) && !onlyStopWords(clause));
  const negatives = conjunction.negatives.filter((clause) => searchable(clause) && !onlyStopWords(clause));
  if (positives.length === 0 && conjunction.positives.length > 0) return null;
  const anyNegatives = negatives.filter((c) => c.field === 'any');
  const titleNegatives = negatives.filter((c) => c.field === 'title');
  const titleOnly = positives.length > 0 && positives.every((c) => c.field === 'title') && anyNegatives.length === 0;

  const conditions: string[] = [];
  if (!titleOnly) {
    for (const clause of positives) {
      if (clause.field !== 'title') continue;
      const condition = titleWordsCondition(tokenize(clause.text), false);
      if (condition !== undefined) conditions.push(condition);
    }
  }
  for (const clause of titleNegatives) {
    const condition = titleWordsCondition(tokenize(clause.text), true);
    if (condition !== undefined) conditions.push(condition);
  }

  // Exclusions go first: Meilisearch stops reading `q` after its word limit (10 terms), and a
  // dropped exclusion would let excluded pages through, while a dropped term only widens the match.
  const parts = [...anyNegatives.map(negative), ...positives.map(positive)].filter((p) => p !== null);
  return {
    q: parts.join(' '),
    attributesToSearchOn: titleOnly ? TITLE_FIELDS : undefined,
    conditions,
  };
}
