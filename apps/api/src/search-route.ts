import type { FallbackSearcher, IndexQuery, SearchResponse, SearchResult } from '@quarry/core';
import type { Request, RequestHandler, Response } from 'express';
import { withFallback } from './answered.js';
import type { ApiDeps } from './deps.js';
import { fallbackRequest, type ToppedUpPage, toLocalResult } from './fallback-merge.js';
import { parseSearchParams, type SearchParams } from './params.js';
import { RELAXED_MATCH_HEADER, searchExplicit, searchRelaxing } from './relax.js';
import { CORRECTED_WORDS_HEADER, correctionsHeader, spelledSearch } from './spelling.js';

/** Says `estimate` when the response's `total` is an estimate; absent when it is exact. */
export const TOTAL_HEADER = 'Quarry-Total';
/** Grace on top of the provider's own timeout before the API stops waiting for it. */
const FALLBACK_GRACE_MS = 250;

/** `GET /api/v1/search` (spec 4.1): local results, topped up from the fallback when short. */
export function searchRoute(deps: ApiDeps): RequestHandler {
  return async (req, res) => {
    const startedMs = performance.now();
    const now = new Date();
    let params = parseSearchParams(req.query as Record<string, unknown>, now);
    const gone = clientGone(res);
    // Near-copies collapsed, long pages' snippets cut from their whole text. A question typed
    // whole, whose words no page (or only a few) hold together: its words made optional, unless
    // the client gave `match` itself; either way a few pages holding the words in a row, or all
    // of them, first (see relax.ts).
    const search = (query: IndexQuery) =>
      query.match === undefined
        ? searchRelaxing(deps, query, () => gone.aborted)
        : searchExplicit(deps, query, () => gone.aborted);
    // A word no page holds, searched again in the spelling one letter away that pages hold.
    const spelled = await spelledSearch(deps.index, params.indexQuery, await search(params.indexQuery), search);
    const found = spelled.found;
    if (spelled.corrections.length > 0) {
      params = { ...params, indexQuery: spelled.query };
      res.setHeader(CORRECTED_WORDS_HEADER, correctionsHeader(spelled.corrections));
    }
    const local = found.result;
    if (found.relaxed) {
      params = { ...params, indexQuery: { ...params.indexQuery, match: 'any' } };
      res.setHeader(RELAXED_MATCH_HEADER, 'any');
    }
    let page: ToppedUpPage = { results: local.hits.map(toLocalResult), total: local.total, added: [] };
    const { fallback } = deps;
    // Topped up when the local results run short, or follow the best of them when (words optional)
    // they do not answer the question: see answered.ts.
    if (fallback && !gone.aborted) {
      const topped = await withFallback(
        deps,
        params.indexQuery,
        local,
        (count) => {
          deps.metrics?.fallbackRequest(deps.config.fallback.provider);
          return askFallback(fallback, params, count, gone, deps.config.fallback.timeoutMs);
        },
        now,
        found.before,
      );
      if (topped !== null) {
        page = topped;
        if (page.added.length > 0) submitForCrawl(deps, req, page.added);
      }
    }
    if (gone.aborted) return;
    // Past what the index counts exactly (the embedded one: 1,091 matches), `total` is estimated.
    if (local.totalIsEstimate) res.setHeader(TOTAL_HEADER, 'estimate');
    const body: SearchResponse = {
      total: page.total,
      took_ms: Math.round(performance.now() - startedMs),
      results: page.results,
    };
    res.json(body);
  };
}

/** Aborts when the client goes away before the response is written. */
function clientGone(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

async function askFallback(
  fallback: FallbackSearcher,
  params: SearchParams,
  count: number,
  gone: AbortSignal,
  timeoutMs: number,
): Promise<SearchResult[]> {
  const request = fallbackRequest(params, count);
  const signal = AbortSignal.any([gone, AbortSignal.timeout(timeoutMs)]);
  let timer: NodeJS.Timeout | undefined;
  // The provider promises to honour the signal and never reject; the race bounds the wait anyway.
  const deadline = new Promise<SearchResult[]>((resolve) => {
    timer = setTimeout(() => resolve([]), timeoutMs + FALLBACK_GRACE_MS);
  });
  try {
    const results = await Promise.race([fallback.search(request, signal), deadline]);
    return Array.isArray(results) ? results : [];
  } catch {
    return [];
  } finally {
    clearTimeout(timer);
  }
}

function submitForCrawl(deps: ApiDeps, req: Request, external: readonly SearchResult[]): void {
  const submitter = deps.urlSubmitter;
  if (!submitter || !deps.config.fallback.crawlResults) return;
  const urls = external.map((r) => r.url);
  Promise.resolve()
    .then(() => submitter.submit(urls))
    .catch((err: unknown) => req.log.warn({ err, count: urls.length }, 'could not queue fallback URLs for crawling'));
}
