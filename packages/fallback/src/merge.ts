import type { SearchResult } from '@quarry/core';
import { normalizeUrl } from '@quarry/core';

/** Share of the lowest local score that the best external result gets. */
const EXTERNAL_CEILING_SHARE = 0.9;

/**
 * Appends external results to local ones for one page: externals whose normalized URL is already
 * among the local results (or earlier externals) are dropped, the rest follow the local results in
 * descending order of their own score (stable, so provider rank order is kept), the page is capped
 * at `limit`, and external scores are rescaled by rank to stay positive and strictly below the
 * lowest local score, so ordering the page by score keeps local results first.
 */
export function mergeExternal(local: SearchResult[], external: SearchResult[], limit: number): SearchResult[] {
  const cap = Math.max(0, Math.trunc(limit));
  const page = local.slice(0, cap);
  if (page.length >= cap) return page;
  const seen = new Set<string>();
  for (const result of local) {
    const key = urlKey(result.url);
    if (key !== null) seen.add(key);
  }
  const extra: SearchResult[] = [];
  for (const result of [...external].sort((a, b) => finite(b.score) - finite(a.score))) {
    if (page.length + extra.length >= cap) break;
    const key = urlKey(result.url);
    if (key === null || seen.has(key)) continue;
    seen.add(key);
    extra.push(result);
  }
  const lowestLocal = page.reduce((min, r) => (r.score > 0 && r.score < min ? r.score : min), Number.POSITIVE_INFINITY);
  // Without local results the ceiling is 1, the bound external scores keep anyway.
  const ceiling = (Number.isFinite(lowestLocal) ? lowestLocal : 1) * EXTERNAL_CEILING_SHARE;
  return [...page, ...extra.map((result, rank) => ({ ...result, score: ceiling / (rank + 1) }))];
}

function finite(score: number): number {
  return Number.isFinite(score) ? score : 0;
}

function urlKey(url: string): string | null {
  try {
    return normalizeUrl(url);
  } catch {
    return null;
  }
}
