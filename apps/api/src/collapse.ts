import type { IndexHit, IndexQuery, IndexSearchResult, SearchIndex } from '@quarry/core';
import { SIMHASH_NEAR_BITS, simhashDistance } from '@quarry/text';
import { SEARCH_BOUNDS } from './params.js';

/**
 * Near-copy collapse: results whose SimHashes (`IndexHit.simhash`) differ in at most
 * `SIMHASH_NEAR_BITS` (4) bits are one page under several URLs (a print view, a copy with another
 * date line or footer), so only the best-ranked of them is shown. Hits without a SimHash are never
 * collapsed.
 *
 * Pagination stays consistent because the collapsed list is always built from the top of the
 * ranking: a request for `offset`/`limit` reads the index's hits from rank 0 until `offset + limit`
 * distinct results are known (or the index has no more, or the index's own bounds are reached),
 * then returns that slice. Every page is thus a slice of one list, and a result never appears on
 * two pages. The first page costs one index call with a few more hits than asked; deep pages read
 * everything above them, in calls of at most 100 hits. `total` stays the index's count.
 */
export async function searchCollapsed(index: SearchIndex, query: IndexQuery): Promise<IndexSearchResult> {
  const wanted = query.offset + query.limit;
  const kept: IndexHit[] = [];
  let first: IndexSearchResult | undefined;
  let rawOffset = 0;
  while (kept.length < wanted && rawOffset <= SEARCH_BOUNDS.offset.max) {
    const missing = wanted - kept.length;
    const limit = Math.min(SEARCH_BOUNDS.limit.max, missing + overFetch(missing));
    const page = await index.search({ ...query, offset: rawOffset, limit });
    first ??= page;
    for (const hit of page.hits) keepUnlessNearCopy(kept, hit);
    rawOffset += page.hits.length;
    if (page.hits.length < limit) break;
  }
  return {
    total: first?.total ?? 0,
    totalIsEstimate: first?.totalIsEstimate ?? false,
    hits: kept.slice(query.offset, wanted),
  };
}

/**
 * The best-ranked hit of each group of near-copies, in rank order (greedy: a hit is dropped when
 * it is a near-copy of a hit already kept).
 */
export function collapseNearCopies(hits: readonly IndexHit[]): IndexHit[] {
  const kept: IndexHit[] = [];
  for (const hit of hits) keepUnlessNearCopy(kept, hit);
  return kept;
}

/**
 * Extra hits asked for beyond those missing, for the near-copies among them: a fifth, at least 2
 * (a default page reads 12 hits). Near-copies are rare in a ranking; when more of them turn up, the
 * next call reads on from where this one stopped.
 */
function overFetch(missing: number): number {
  return Math.max(2, Math.ceil(missing / 5));
}

/** Adds `hit` unless it is a near-copy of a kept hit (or the same page, met again in a later call). */
function keepUnlessNearCopy(kept: IndexHit[], hit: IndexHit): void {
  for (const other of kept) {
    if (other.id === hit.id) return;
    if (!hit.simhash || !other.simhash) continue;
    const distance = simhashDistance(hit.simhash, other.simhash);
    if (distance !== null && distance <= SIMHASH_NEAR_BITS) return;
  }
  kept.push(hit);
}
