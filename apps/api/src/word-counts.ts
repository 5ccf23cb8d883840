import type { ParsedQuery, SearchIndex } from '@quarry/core';
import { LRUCache } from 'lru-cache';

/**
 * Page counts asked lately, per index and word (and the index's size under `''`): a word's count
 * moves slowly as pages come, and queries share words, so each is asked of the index once a minute.
 */
const COUNTS_TTL_MS = 60_000;
const COUNTS_KEPT = 20_000;
const counts = new WeakMap<SearchIndex, LRUCache<string, number>>();

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

/** Counts being asked of each index, by key: requests wanting one at once share its query. */
const asking = new WeakMap<SearchIndex, Map<string, Promise<number>>>();

/**
 * A count of {@link counts}, asked of the index (`ask`) when it has none, once however many
 * requests want it meanwhile: 32 clients asking the same question at once each asked every word's
 * count of a cold cache, dozens of engine queries where a few would do.
 */
function remembered(index: SearchIndex, key: string, ask: () => Promise<number>): Promise<number> {
  let cache = counts.get(index);
  let pending = asking.get(index);
  if (cache === undefined || pending === undefined) {
    cache ??= new LRUCache<string, number>({ max: COUNTS_KEPT, ttl: COUNTS_TTL_MS });
    pending ??= new Map();
    counts.set(index, cache);
    asking.set(index, pending);
  }
  const known = cache.get(key);
  if (known !== undefined) return Promise.resolve(known);
  const shared = pending.get(key);
  if (shared !== undefined) return shared;
  const kept = cache;
  const waiting = pending;
  const count = ask().then(
    (value) => {
      waiting.delete(key);
      kept.set(key, value);
      return value;
    },
    (error: unknown) => {
      waiting.delete(key);
      throw error;
    },
  );
  waiting.set(key, count);
  return count;
}
