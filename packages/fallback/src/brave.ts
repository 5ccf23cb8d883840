import type { FallbackRequest, SearchResult } from '@quarry/core';
import { normalizeLang, RetryableError } from '@quarry/core';
import { z } from 'zod';
import { fetchJson } from './http.js';
import { FALLBACK_DEFAULTS, type FallbackProvider, wantedCount } from './provider.js';
import { toSearchResults } from './results.js';
import { renderQuery } from './translate.js';

/** Options of {@link BraveProvider}. */
export interface BraveProviderOptions {
  /** Subscription token, sent as `X-Subscription-Token` only; never logged. */
  readonly apiKey: string;
  /** API base URL. @defaultValue https://api.search.brave.com */
  readonly baseUrl?: string;
  /** @defaultValue 2 MiB */
  readonly maxBodyBytes?: number;
  /** @defaultValue 50 (Brave itself returns at most 20) */
  readonly maxResults?: number;
}

/** Brave's `count` maximum. */
const MAX_COUNT = 20;
/** Brave rejects longer queries. */
const MAX_QUERY_CHARS = 400;
const FRESHNESS: Readonly<Record<string, string>> = { '1d': 'pd', '7d': 'pw', '30d': 'pm', '1y': 'py' };
/** Brave's `search_lang` codes where they differ from the primary subtag; other codes it rejects. */
const SEARCH_LANG_ALIASES: Readonly<Record<string, string>> = { zh: 'zh-hans', ja: 'jp', pt: 'pt-pt', no: 'nb' };
const SEARCH_LANGS = new Set(
  'ar eu bn bg ca zh-hans zh-hant hr cs da nl en et fi fr gl de gu he hi hu is it jp kn ko lv lt ms ml mr nb pl pt-br pt-pt pa ro ru sr sk sl es sv ta te th tr uk vi'.split(
    ' ',
  ),
);

/** The parts of Brave's web search answer we use; unknown fields are ignored. */
const answerSchema = z.object({
  type: z.literal('search'),
  web: z.object({ results: z.array(z.unknown()) }).optional(),
});
const hitSchema = z.object({
  url: z.string(),
  title: z.string().default(''),
  description: z.string().nullish(),
  page_age: z.string().nullish(),
  age: z.string().nullish(),
  language: z.string().nullish(),
  profile: z.object({ name: z.string().nullish() }).nullish(),
});

/**
 * Brave Search API, web search (`GET /res/v1/web/search`). Brave reads the common operators
 * natively; `search_lang`, `freshness` (pd/pw/pm/py) and `count` (≤ 20) are parameters.
 */
export class BraveProvider implements FallbackProvider {
  readonly name = 'brave';
  readonly #apiKey: string;
  readonly #endpoint: URL;
  readonly #maxBodyBytes: number;
  readonly #maxResults: number;

  constructor(options: BraveProviderOptions) {
    if (!options.apiKey) throw new TypeError('Brave API key is required');
    this.#apiKey = options.apiKey;
    const endpoint = new URL('/res/v1/web/search', options.baseUrl ?? FALLBACK_DEFAULTS.braveUrl);
    if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:')
      throw new TypeError('Brave URL must be http(s)');
    this.#endpoint = endpoint;
    this.#maxBodyBytes = options.maxBodyBytes ?? FALLBACK_DEFAULTS.maxBodyBytes;
    this.#maxResults = options.maxResults ?? FALLBACK_DEFAULTS.maxResults;
  }

  /** The request URL, which holds everything that shapes the answer (the key is a header). */
  cacheKey(request: FallbackRequest): string | null {
    return this.#url(request)?.href ?? null;
  }

  /** Queries Brave; throws on any failure. */
  async search(request: FallbackRequest, signal: AbortSignal): Promise<SearchResult[]> {
    const url = this.#url(request);
    if (url === null) return [];
    const body = await fetchJson(url, {
      signal,
      maxBodyBytes: this.#maxBodyBytes,
      // The token is a custom header, which fetch would carry along a redirect to another host.
      redirect: 'error',
      headers: { 'x-subscription-token': this.#apiKey },
    });
    const answer = answerSchema.safeParse(body);
    if (!answer.success) throw new RetryableError('unexpected response shape', 'fallback_bad_response');
    const raw = answer.data.web?.results ?? [];
    const hits = raw.slice(0, this.#maxResults).flatMap((item) => {
      const hit = hitSchema.safeParse(item);
      if (!hit.success) return [];
      const h = hit.data;
      return [
        {
          url: h.url,
          title: h.title,
          description: h.description ?? '',
          siteName: h.profile?.name ?? undefined,
          lang: h.language ?? undefined,
          date: h.page_age ?? h.age ?? null,
        },
      ];
    });
    return toSearchResults(hits, { ...request, count: wantedCount(request, this.#maxResults) });
  }

  #url(request: FallbackRequest): URL | null {
    const q = renderQuery(request, { word: (w) => w, maxQueryChars: MAX_QUERY_CHARS });
    if (q === null) return null;
    const url = new URL(this.#endpoint);
    url.searchParams.set('q', q);
    url.searchParams.set('count', String(Math.min(wantedCount(request, this.#maxResults), MAX_COUNT)));
    url.searchParams.set('result_filter', 'web');
    url.searchParams.set('spellcheck', 'false');
    const lang = braveSearchLang(request.lang);
    if (lang) url.searchParams.set('search_lang', lang);
    const freshness = request.timeRange === undefined ? undefined : FRESHNESS[request.timeRange];
    if (freshness) url.searchParams.set('freshness', freshness);
    return url;
  }
}

/** Brave's `search_lang` for a language code, or undefined when Brave has none (it would answer 422). */
export function braveSearchLang(lang: string | undefined): string | undefined {
  const primary = normalizeLang(lang);
  if (primary === null) return undefined;
  const code = SEARCH_LANG_ALIASES[primary] ?? primary;
  return SEARCH_LANGS.has(code) ? code : undefined;
}
