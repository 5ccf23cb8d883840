import { type IndexQuery, isPageId, type SearchResult } from '@quarry/core';
import type { QuarryBackend, SearchToolArgs, SiteCrawler, ToolSearchResponse } from '@quarry/mcp';
import { formatQuery } from '@quarry/query';
import { withFallback } from './answered.js';
import type { ApiDeps } from './deps.js';
import { fallbackRequest, toLocalResult } from './fallback-merge.js';
import { parseSearchParams, type SearchParams } from './params.js';
import { searchExplicit } from './relax.js';
import { spelledSearch } from './spelling.js';
import { indexedPageFor } from './url-query.js';

/** What the MCP tools need of the API's services. */
export type McpBackendDeps = Pick<ApiDeps, 'config' | 'index' | 'blobs' | 'fallback' | 'crawledInsteadOf'>;

/**
 * The MCP tools' view of Quarry: searches validated exactly as `GET /api/v1/search` (the same
 * parser, so the same 400 messages become tool errors), local results topped up from the fallback
 * like the REST API does, and pages from the blob store. `crawlSite` is offered only when given.
 */
export function createMcpBackend(deps: McpBackendDeps, crawlSite?: SiteCrawler): QuarryBackend {
  return {
    search: (args) => search(deps, args),
    page: async (id) => (isPageId(id) ? deps.blobs.get(id) : null),
    pageAt: (url) => indexedPageFor(deps, url),
    ...(crawlSite ? { crawlSite } : {}),
  };
}

async function search(deps: McpBackendDeps, args: SearchToolArgs): Promise<ToolSearchResponse> {
  const startedMs = performance.now();
  const now = new Date();
  const raw: Record<string, string> = { q: args.q, limit: String(args.limit), offset: String(args.offset) };
  for (const name of ['lang', 'lang_priority', 'site', 'time_range'] as const) {
    const value = args[name];
    if (value !== undefined) raw[name] = value;
  }
  const params = parseSearchParams(raw, now);
  // As the REST search with `match` given: a few pages holding the words in a row (or, optional,
  // all of them) first, words no page holds searched in another spelling; topped up when short,
  // or after the best local results that do not answer.
  const asked = { ...params.indexQuery, match: args.match };
  const search = (query: IndexQuery) => searchExplicit(deps, query, () => false);
  const spelled = await spelledSearch(deps.index, asked, await search(asked), search);
  const { found, query: indexQuery } = spelled;
  const local = found.result;
  const topped = deps.fallback
    ? await withFallback(deps, indexQuery, local, (count) => askFallback(deps, params, count), now, found.before)
    : null;
  const page = topped ?? { results: local.hits.map(toLocalResult), total: local.total };
  return {
    total: page.total,
    // As the REST search's Quarry-Total: the index's count, whatever the fallback added.
    total_is_estimate: local.totalIsEstimate,
    took_ms: Math.round(performance.now() - startedMs),
    results: page.results,
    ...(spelled.corrections.length > 0 ? { corrected_query: formatQuery(indexQuery.query) } : {}),
  };
}

async function askFallback(deps: McpBackendDeps, params: SearchParams, count: number): Promise<SearchResult[]> {
  const request = fallbackRequest(params, count);
  try {
    // The provider honours the signal and never rejects; the catch is for a broken one.
    const results = await deps.fallback?.search(request, AbortSignal.timeout(deps.config.fallback.timeoutMs));
    return Array.isArray(results) ? results : [];
  } catch {
    return [];
  }
}
