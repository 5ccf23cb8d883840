import type { FallbackRequest, IndexHit, IndexQuery, IndexSearchResult, SearchIndex, SearchResult } from '@quarry/core';
import {
  hostOf,
  normalizeLang,
  normalizeUrl,
  pageIdsForUrl,
  parseTimestamp,
  toIsoUtc,
  UNKNOWN_LANG,
} from '@quarry/core';
import { SEARCH_BOUNDS, type SearchParams } from './params.js';

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
 * How many results the fallback provider is asked for: one fixed request per query (so every page of
 * it is served from one cached answer), as many as a page may hold; providers cap it (Brave at 20).
 */
export const EXTERNAL_POOL = SEARCH_BOUNDS.limit.max;

/** A page of local results topped up from the fallback: see {@link withExternal}. */
export interface ToppedUpPage {
  readonly results: SearchResult[];
  readonly total: number;
  /** The external results on this page. */
  readonly added: SearchResult[];
}

/**
 * A page of results as a slice of one list: every local result, then the fallback's. The
 * fallback's part is its answer to one fixed request ({@link EXTERNAL_POOL} results), kept to
 * http(s) URLs, deduplicated by normalized URL against every local result (not only this page's)
 * and among themselves, each rebuilt field by field (a provider cannot add fields or break types)
 * with `source: "external"`, `id: ""`, and a score below the lowest local one, decreasing with its
 * place. So a page never repeats a result of another page, and `total` (local matches plus the
 * fallback's part) is the same on every page.
 *
 * `local` is this page's local results; when they run short of `query.limit`, the provider is asked
 * (`ask`) and, past the first page, the local results before this page are read again
 * (`localBefore`) to deduplicate against them and to find where the local list ends.
 */
export async function withExternal(
  query: IndexQuery,
  local: IndexSearchResult,
  ask: (count: number) => Promise<readonly SearchResult[]>,
  localBefore: (count: number) => Promise<readonly IndexHit[]>,
  now: Date,
): Promise<ToppedUpPage> {
  const page = local.hits.map(toLocalResult);
  const missing = query.limit - page.length;
  if (missing <= 0) return { results: page, total: local.total, added: [] };
  const [answer, before] = await Promise.all([
    ask(EXTERNAL_POOL),
    query.offset > 0 && local.total > 0 ? localBefore(query.offset) : Promise.resolve([]),
  ]);
  // This page holds the local list's end, or the list ended on an earlier page.
  const localEnd = page.length > 0 ? query.offset + page.length : before.length;
  const all = [...before, ...page];
  const external = externalResults(all, answer, now);
  const start = Math.max(0, query.offset - localEnd);
  const added = external.slice(start, start + missing);
  return { results: [...page, ...added], total: local.total + external.length, added };
}

/**
 * The fallback's part of the list (see {@link withExternal}): `answer` without URLs of `local` or
 * repeated ones, rebuilt, scored evenly below the lowest local score in the provider's order.
 */
export function externalResults(
  local: readonly Pick<SearchResult, 'url' | 'score'>[],
  answer: readonly SearchResult[],
  now: Date,
): SearchResult[] {
  const seen = new Set<string>();
  for (const result of local) {
    const key = urlKey(result.url);
    if (key) seen.add(key);
  }
  const kept: SearchResult[] = [];
  for (const result of answer) {
    const key = typeof result?.url === 'string' ? urlKey(result.url) : null;
    if (!key || seen.has(key)) continue;
    seen.add(key);
    kept.push(sanitize(result, now));
  }
  const ceiling = local.length > 0 ? Math.min(...local.map((r) => r.score)) : 1;
  // Evenly spaced below the ceiling, keeping the provider's order; always positive.
  return kept.map((r, i) => ({ ...r, score: (ceiling * (kept.length - i)) / (kept.length + 1) }));
}

/**
 * `answer` (the fallback's results) without the pages the index holds: a page the local search
 * left out was left out for a reason (an excluded word, the `lang` asked, words it lacks), and
 * served as an external result it lost its id and came back past the filters. Kept when the index
 * cannot say (the fallback is what answers while it is away).
 */
export async function withoutIndexed(index: SearchIndex, answer: readonly SearchResult[]): Promise<SearchResult[]> {
  const indexed = await Promise.all(
    answer.map(async (result) => {
      const ids = typeof result?.url === 'string' ? pageIdsForUrl(result.url) : [];
      const held = await Promise.all(ids.map((id) => index.has(id).catch(() => false)));
      return held.some(Boolean);
    }),
  );
  return answer.filter((_, i) => !indexed[i]);
}

/** A URL as pages are told apart: normalized, and either scheme (a page's http and https are one, as a URL lookup finds them). */
function urlKey(url: string): string | null {
  try {
    return normalizeUrl(url).replace(/^https?:\/\//, '');
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
