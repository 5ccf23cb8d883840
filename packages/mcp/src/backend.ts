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

/**
 * What `search` answers: the REST search's response, whether its total is an estimate (what the
 * REST search says in `Quarry-Total: estimate`), and the query as searched when words no page
 * holds were searched in another spelling (what it says in `Quarry-Corrected-Words`).
 */
export interface ToolSearchResponse extends SearchResponse {
  /** True when more pages match than the index counts exactly, so `total` is an estimate. */
  readonly total_is_estimate: boolean;
  readonly corrected_query?: string;
}

/** What `crawl_site` asks for. */
export interface CrawlSiteRequest {
  readonly url: string;
  /** Links followed from the seed (0: the seed page only). */
  readonly maxDepth: number;
  /** Most pages crawled from this site for this seed. */
  readonly maxPages: number;
}

/**
 * What `crawl_site` did with the start URL: `queued` (new to the frontier), `queued_again` (it had
 * ended skipped or failed), `already_queued` (waiting or in flight), `already_crawled` (done, left
 * alone), `budget_spent` (not queued: its site's page budget is used up) or `site_forgotten` (not
 * queued: the operator took its site out of the crawl, `quarry forget`).
 */
export type CrawlSiteOutcome =
  | 'queued'
  | 'queued_again'
  | 'recrawled'
  | 'already_queued'
  | 'already_crawled'
  | 'budget_spent'
  | 'site_forgotten';

/** What `crawl_site` reports. */
export type CrawlSiteResult =
  | {
      /** The seed (normalized). */
      readonly url: string;
      readonly outcome: CrawlSiteOutcome;
      /** For `queued_again`: how the URL had ended, and why when the queue kept the reason. */
      readonly previous?: { readonly state: 'skipped' | 'failed'; readonly reason?: string };
      /** For `recrawled`: how many of its pages are queued again under the new depth and budget. */
      readonly pages?: number;
      /**
       * For `budget_spent`: the URLs of its site already in the crawl (queued or finished), which
       * the page budget counts: a `maxPages` above it queues the URL.
       */
      readonly sitePages?: number;
      readonly maxDepth: number;
      readonly maxPages: number;
    }
  | {
      readonly url: string;
      /** Nothing queued: the address policy refuses every address of the URL's host. */
      readonly outcome: 'refused';
      /** The private or reserved address refused (QUARRY_ALLOW_HOSTS does not list the host). */
      readonly address: string;
    };

/**
 * Where the MCP tools get their answers: the same services as the HTTP API. A method throws a
 * `ValidationError` for bad input (its message is shown to the model as a tool error), a
 * `BackendUnavailableError` when a store is down; anything else is reported as an internal error.
 */
export interface QuarryBackend {
  /** Searches as `GET /api/v1/search` does (same validation, same results). */
  search(args: SearchToolArgs): Promise<ToolSearchResponse>;
  /** The stored page, or null for an unknown id. */
  page(id: string): Promise<PageDocument | null>;
  /**
   * The page indexed at a URL (either scheme), or in its place where the crawl took it from another
   * URL (a copy, a canonical or a redirect); null when there is none.
   */
  pageAt(url: string): Promise<PageDocument | null>;
  /** Queues a site for crawling; absent when the caller may not crawl (no admin token presented). */
  crawlSite?(request: CrawlSiteRequest): Promise<CrawlSiteResult>;
}

/** Queues a site for crawling on behalf of an admin (what `crawl_site` runs). */
export type SiteCrawler = (request: CrawlSiteRequest) => Promise<CrawlSiteResult>;
