import type { PageDocument, SearchResponse } from '@quarry/core';

/** Arguments of the `search` tool, validated against its schema. */
export interface SearchToolArgs {
  readonly q: string;
  readonly limit: number;
  readonly offset: number;
  readonly lang?: string;
  readonly lang_priority?: string;
  readonly site?: string;
  readonly time_range?: string;
  readonly match: 'all' | 'any';
}

/** What `crawl_site` asks for. */
export interface CrawlSiteRequest {
  readonly url: string;
  /** Links followed from the seed (0: the seed page only). */
  readonly maxDepth: number;
  /** Most pages crawled from this site for this seed. */
  readonly maxPages: number;
}

/** What `crawl_site` reports. */
export interface CrawlSiteResult {
  /** The seed as queued (normalized). */
  readonly url: string;
  /** URLs newly queued (0 when the seed was queued before). */
  readonly queued: number;
  readonly maxDepth: number;
  readonly maxPages: number;
}

/**
 * Where the MCP tools get their answers: the same services as the HTTP API. A method throws a
 * `ValidationError` for bad input (its message is shown to the model as a tool error), a
 * `BackendUnavailableError` when a store is down; anything else is reported as an internal error.
 */
export interface QuarryBackend {
  /** Searches as `GET /api/v1/search` does (same validation, same results). */
  search(args: SearchToolArgs): Promise<SearchResponse>;
  /** The stored page, or null for an unknown id. */
  page(id: string): Promise<PageDocument | null>;
  /** Queues a site for crawling; absent when the caller may not crawl (no admin token presented). */
  crawlSite?(request: CrawlSiteRequest): Promise<CrawlSiteResult>;
}

/** Queues a site for crawling on behalf of an admin (what `crawl_site` runs). */
export type SiteCrawler = (request: CrawlSiteRequest) => Promise<CrawlSiteResult>;
