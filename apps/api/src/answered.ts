import type { BlobStore, IndexHit, IndexQuery, IndexSearchResult, SearchIndex, SearchResult } from '@quarry/core';
import { foldText, hasUnspacedScript, indexTokens, isStopWord } from '@quarry/text';
import { type ToppedUpPage, withExternal, withoutIndexed } from './fallback-merge.js';
import { MIN_WORDS_NONE_FOUND, plainWords } from './relax.js';
import { pagesHolding, pagesIndexed } from './word-counts.js';

/**
 * With its words optional, a question always finds pages: on an index about cooking,
 * `best electric scooter for commuting` finds the pages that say `best`. Those are no answer, and a
 * configured fallback should be asked too. A question is unanswered here when the best local
 * page holds less than {@link MIN_WEIGHT_HELD} of its words' weight, each word weighted by its
 * inverse document frequency in the index (a word no page has weighs most).
 *
 * Measured with `npm run bench -- relevance` (its "Questions the index cannot answer" table): each
 * IR collection's own questions against the other's, questions of 3 to 12 words. See the
 * README's External fallback.
 */
export const MIN_WEIGHT_HELD = 0.3;
/**
 * The share of a page of results an unanswered question's local results keep, in front of the
 * fallback's (rounded up: the best local page always stays first, so the fallback adds to the local
 * results, as the spec says, and hides none of the first page's best).
 */
export const UNANSWERED_LOCAL_SHARE = 1 / 3;
/**
 * Longer queries are paragraphs pasted whole (CISI's), whose best page holds a small share of their
 * many words even when it answers them: they are not judged.
 */
export const MAX_JUDGED_WORDS = 12;
/** Characters of the best page's body looked through for the question's words. */
const MAX_SCANNED_CHARS = 200_000;
export interface AnsweredDeps {
  readonly index: SearchIndex;
  readonly blobs: BlobStore;
}

/**
 * Whether the local results of `query`, searched with its words optional, fail to answer it (see
 * the module's constants): false for a query of fewer than {@link MIN_WORDS_NONE_FOUND} or more than
 * {@link MAX_JUDGED_WORDS} plain words, and when nothing matches (the fallback is asked then anyway).
 * `first` is the best hit when the caller has it (a first page of results); otherwise it is read.
 */
export async function isUnanswered(deps: AnsweredDeps, query: IndexQuery, first?: IndexHit): Promise<boolean> {
  const words = plainWords(query.query);
  if (words.length < MIN_WORDS_NONE_FOUND || words.length > MAX_JUDGED_WORDS) return false;
  const best = first ?? (await deps.index.search({ ...query, offset: 0, limit: 1 })).hits[0];
  if (best === undefined) return false;
  const held = await heldWords(deps.blobs, best, words);
  if (held.every(Boolean)) return false;
  const [pages, ...frequencies] = await Promise.all([
    pagesIndexed(deps.index),
    ...words.map((word) => pagesHolding(deps.index, word)),
  ]);
  const weights = frequencies.map((df) => Math.log(1 + pages / (df + 1)));
  const all = weights.reduce((a, b) => a + b, 0);
  const kept = weights.reduce((a, weight, i) => (held[i] ? a + weight : a), 0);
  return all > 0 && kept / all < MIN_WEIGHT_HELD;
}

/**
 * Which of `words` the page of `hit` holds (its title and body, analysed as the index analyses the
 * page's language): a word of several tokens when it holds every one. The title and snippet are
 * read first; the body (from the blob store) only when they lack a word.
 */
async function heldWords(blobs: BlobStore, hit: IndexHit, words: readonly string[]): Promise<boolean[]> {
  const shown = wordsIn(`${hit.title}\n${hit.snippet}`, hit.lang, words);
  if (shown.every(Boolean)) return shown;
  const doc = await blobs.get(hit.id).catch(() => null);
  if (doc === null || typeof doc.body_text !== 'string') return shown;
  return wordsIn(`${hit.title}\n${doc.body_text.slice(0, MAX_SCANNED_CHARS)}`, hit.lang, words);
}

/** Which of `words` `text` holds, in language `lang` (see {@link heldWords}). */
function wordsIn(text: string, lang: string, words: readonly string[]): boolean[] {
  const tokens = new Set(indexTokens(text, lang));
  let folded: string | undefined;
  return words.map((word) => {
    // A Chinese or Japanese word is indexed as character pairs plus a run's last character: held
    // when the text shows it, wherever its run ends.
    if (hasUnspacedScript(word)) {
      folded ??= foldText(text).replace(/\s+/g, '');
      return folded.includes(foldText(word).replace(/\s+/g, ''));
    }
    const parts = indexTokens(word, lang).filter((token) => !isStopWord(token));
    return parts.every((token) => tokens.has(token));
  });
}

/**
 * The page a search served with a fallback shows: `local` (the collapsed local results of `query`)
 * topped up from the fallback (`ask`) when they run short of `query.limit`; or, when its words are
 * optional and they do not answer it (see {@link isUnanswered}), their best share (see
 * {@link UNANSWERED_LOCAL_SHARE}) followed by the fallback's answer. Null when the local results
 * are served alone: they fill the page and answer the query, or they do not answer it and the
 * fallback has nothing either. `listed` reads the first results of the list `local` is a page of
 * (RelaxedSearch.before in relax.ts).
 */
export async function withFallback(
  deps: AnsweredDeps,
  query: IndexQuery,
  local: IndexSearchResult,
  ask: (count: number) => Promise<readonly SearchResult[]>,
  now: Date,
  listed: (count: number) => Promise<readonly IndexHit[]>,
): Promise<ToppedUpPage | null> {
  const unanswered =
    query.match === 'any' &&
    local.total > 0 &&
    (await isUnanswered(deps, query, query.offset === 0 ? local.hits[0] : undefined));
  if (!unanswered && local.hits.length >= query.limit) return null;
  const kept = unanswered ? keptLocal(query, local, listed) : { local, before: listed };
  const external = async (count: number) => withoutIndexed(deps.index, await ask(count));
  const topped = await withExternal(query, kept.local, external, kept.before, now);
  return !unanswered || topped.total > kept.local.total ? topped : null;
}

/**
 * What an unanswered question keeps of its local results (see {@link UNANSWERED_LOCAL_SHARE}): the
 * list's first `ceil(limit / 3)`, of which `local` (the page at `query.offset`) holds those before
 * that bound; `before` reads the local list's first results.
 */
function keptLocal(
  query: IndexQuery,
  local: IndexSearchResult,
  before: (count: number) => Promise<readonly IndexHit[]>,
): { local: IndexSearchResult; before: (count: number) => Promise<readonly IndexHit[]> } {
  const kept = Math.ceil(query.limit * UNANSWERED_LOCAL_SHARE);
  return {
    local: {
      total: Math.min(local.total, kept),
      totalIsEstimate: false,
      hits: local.hits.slice(0, Math.max(0, kept - query.offset)),
    },
    before: (count) => before(Math.min(count, kept)),
  };
}
