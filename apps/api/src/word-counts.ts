import type { ParsedQuery, SearchIndex } from '@quarry/core';
import { LRUCache } from 'lru-cache';

/**
 * Page counts asked lately, per index and word (and the index's size under `''`): a word's count
 * moves slowly as pages come, and queries share words, so each is asked of the index once a minute.
 */
const COUNTS_TTL_MS = 60_000;
const COUNTS_KEPT = 20_000;
/** Per index: the counts known, and those being asked (requests wanting one at once share its query). */
const counts = new WeakMap<
  SearchIndex,
  { readonly known: LRUCache<string, number>; readonly asking: Map<string, Promise<number>> }
>();

/** How many pages hold `word` (as the index matches it, in any field), asked at most once a minute. */
export function pagesHolding(index: SearchIndex, word: string): Promise<number> {
  return remembered(index, word.toLowerCase(), async () => {
    const query: ParsedQuery = { root: { type: 'term', text: word, field: 'any' }, sites: [], filetypes: [] };
    return (await index.search({ query, limit: 1, offset: 0, snippets: false })).total;
  });
}

/** How many pages the index holds, asked at most once a minute. */
export function pagesIndexed(index: SearchIndex): Promise<number> {
  return remembered(index, '', () => index.count());
}

/**
 * A count of {@link counts}, asked of the index (`ask`) when it has none, once however many
 * requests want it meanwhile: 32 clients asking the same question at once each asked every word's
 * count of a cold cache, dozens of engine queries where a few would do.
 */
function remembered(index: SearchIndex, key: string, ask: () => Promise<number>): Promise<number> {
  let held = counts.get(index);
  if (held === undefined) {
    held = { known: new LRUCache({ max: COUNTS_KEPT, ttl: COUNTS_TTL_MS }), asking: new Map() };
    counts.set(index, held);
  }
  const { known, asking } = held;
  const count = known.get(key);
  if (count !== undefined) return Promise.resolve(count);
  const shared = asking.get(key);
  if (shared !== undefined) return shared;
  const asked = ask().then((value) => {
    known.set(key, value);
    return value;
  });
  // Asked again by the next request once this one is answered, or has failed.
  const forget = () => asking.delete(key);
  asked.then(forget, forget);
  asking.set(key, asked);
  return asked;
}
