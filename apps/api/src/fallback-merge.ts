import type { FallbackRequest, IndexHit, SearchResult } from '@quarry/core';
import { hostOf, normalizeLang, normalizeUrl, parseTimestamp, toIsoUtc, UNKNOWN_LANG } from '@quarry/core';
import type { SearchParams } from './params.js';

/** A local index hit as a spec search result: `source: "local"`, `site_name` omitted when null. */
export function toLocalResult(hit: IndexHit): SearchResult {
  return {
    id: hit.id,
    url: hit.url,
    title: hit.title,
    snippet: hit.snippet,
    domain: hit.domain,
    ...(hit.site_name ? { site_name: hit.site_name } : {}),
    lang: hit.lang,
    score: hit.score,
    source: 'local',
    has_llms_txt: hit.has_llms_txt,
    published_at: hit.published_at,
    crawled_at: hit.crawled_at,
  };
}

/**
 * Appends external results after local ones: only http(s) URLs, deduplicated by normalized URL
 * against the local results and among themselves, at most `max` of them, each rebuilt field by
 * field (a provider cannot add fields or break types) with `source: "external"`, `id: ""`, and a
 * score below the lowest local score so ranking stays local-first.
 */
export function mergeExternal(
  local: readonly SearchResult[],
  external: readonly SearchResult[],
  max: number,
  now: Date,
): SearchResult[] {
  const seen = new Set<string>();
  for (const result of local) {
    const key = urlKey(result.url);
    if (key) seen.add(key);
  }
  const added: SearchResult[] = [];
  for (const result of external) {
    if (added.length >= max) break;
    const key = typeof result?.url === 'string' ? urlKey(result.url) : null;
    if (!key || seen.has(key)) continue;
    seen.add(key);
    added.push(sanitize(result, now));
  }
  const ceiling = local.length > 0 ? Math.min(...local.map((r) => r.score)) : 1;
  // Evenly spaced below the ceiling, keeping the provider's order; always positive.
  const scored = added.map((r, i) => ({ ...r, score: (ceiling * (added.length - i)) / (added.length + 1) }));
  return [...local, ...scored];
}

function urlKey(url: string): string | null {
  try {
    return normalizeUrl(url);
  } catch {
    return null;
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function sanitize(result: SearchResult, now: Date): SearchResult {
  const siteName = text(result.site_name);
  return {
    id: '',
    url: result.url,
    title: text(result.title),
    snippet: text(result.snippet),
    domain: text(result.domain) || hostOf(result.url),
    ...(siteName ? { site_name: siteName } : {}),
    lang: normalizeLang(text(result.lang)) ?? UNKNOWN_LANG,
    score: 0,
    source: 'external',
    has_llms_txt: result.has_llms_txt === true,
    published_at: parseTimestamp(result.published_at, now),
    crawled_at: parseTimestamp(result.crawled_at, now) ?? toIsoUtc(now),
  };
}

/** What the fallback provider is asked for a search (REST and MCP alike): `count` results. */
export function fallbackRequest(params: SearchParams, count: number): FallbackRequest {
  const { indexQuery } = params;
  return {
    q: params.q,
    query: params.query,
    count,
    ...(indexQuery.lang ? { lang: indexQuery.lang } : {}),
    ...(indexQuery.site ? { site: indexQuery.site } : {}),
    ...(params.timeRange ? { timeRange: params.timeRange } : {}),
  };
}
