import type { FallbackRequest, SearchResult } from '@quarry/core';
import { normalizeLang, RetryableError } from '@quarry/core';
import { z } from 'zod';
import { fetchJson } from './http.js';
import { FALLBACK_DEFAULTS, type FallbackProvider, wantedCount } from './provider.js';
import { toSearchResults } from './results.js';
import { renderQuery } from './translate.js';

/** Options of {@link SearxngProvider}. */
export interface SearxngProviderOptions {
  /** Base URL of the instance (its `json` format must be enabled in settings.yml). */
  readonly baseUrl: string;
  /** @defaultValue 2 MiB */
  readonly maxBodyBytes?: number;
  /** @defaultValue 50 */
  readonly maxResults?: number;
}

const TIME_RANGE: Readonly<Record<string, string>> = { '1d': 'day', '7d': 'week', '30d': 'month', '1y': 'year' };

/** The parts of SearXNG's JSON answer we use; unknown fields are ignored. */
const answerSchema = z.object({ results: z.array(z.unknown()) });
const hitSchema = z.object({
  url: z.string(),
  title: z.string().default(''),
  content: z.string().nullish(),
  publishedDate: z.string().nullish(),
});

/**
 * SearXNG's Search API (`GET /search?format=json`). Its engines understand the common operators;
 * SearXNG itself reads a leading `!` (engine bang) or `:` (language) as its own syntax, so words are
 * stripped of those. `language` and `time_range` (day/week/month/year) are passed as parameters.
 */
export class SearxngProvider implements FallbackProvider {
  readonly name = 'searxng';
  readonly #base: URL;
  readonly #maxBodyBytes: number;
  readonly #maxResults: number;

  constructor(options: SearxngProviderOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError('SearXNG URL must be http(s)');
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    this.#base = base;
    this.#maxBodyBytes = options.maxBodyBytes ?? FALLBACK_DEFAULTS.maxBodyBytes;
    this.#maxResults = options.maxResults ?? FALLBACK_DEFAULTS.maxResults;
  }

  /** The request URL, which holds everything that shapes the answer. */
  cacheKey(request: FallbackRequest): string | null {
    return this.#url(request)?.href ?? null;
  }

  /** Queries the instance; throws on any failure. */
  async search(request: FallbackRequest, signal: AbortSignal): Promise<SearchResult[]> {
    const url = this.#url(request);
    if (url === null) return [];
    const body = await fetchJson(url, { signal, maxBodyBytes: this.#maxBodyBytes, redirect: 'follow' });
    const answer = answerSchema.safeParse(body);
    if (!answer.success) throw new RetryableError('unexpected response shape', 'fallback_bad_response');
    const hits = answer.data.results.slice(0, this.#maxResults).flatMap((raw) => {
      const hit = hitSchema.safeParse(raw);
      if (!hit.success) return [];
      const { url: hitUrl, title, content, publishedDate } = hit.data;
      return [{ url: hitUrl, title, description: content ?? '', date: publishedDate ?? null }];
    });
    return toSearchResults(hits, { ...request, count: wantedCount(request, this.#maxResults) });
  }

  #url(request: FallbackRequest): URL | null {
    const q = renderQuery(request, { word: searxngWord, maxQueryChars: 1000 });
    if (q === null) return null;
    const url = new URL('search', this.#base);
    url.searchParams.set('q', q);
    url.searchParams.set('format', 'json');
    url.searchParams.set('categories', 'general');
    url.searchParams.set('pageno', '1');
    const lang = normalizeLang(request.lang);
    if (lang) url.searchParams.set('language', lang);
    const range = request.timeRange === undefined ? undefined : TIME_RANGE[request.timeRange];
    if (range) url.searchParams.set('time_range', range);
    return url;
  }
}

/** A bare word as SearXNG should pass it on: no leading bang or language selector. */
export function searxngWord(text: string): string {
  return text.replace(/^[!:]+/, '');
}
