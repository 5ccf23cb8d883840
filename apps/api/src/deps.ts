import type { BlobStore, FallbackSearcher, KeyStore, QuarryConfig, SearchIndex, UrlSubmitter } from '@quarry/core';
import type { SiteCrawler } from '@quarry/mcp';
import type { RequestHandler, Router } from 'express';
import type { Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import type { HealthCheck } from './health.js';
import type { QuarryMetrics } from './metrics.js';

/** Everything the HTTP API needs; built by the CLI (embedded or distributed) or by a test. */
export interface ApiDeps {
  readonly config: QuarryConfig;
  readonly index: SearchIndex;
  readonly blobs: BlobStore;
  readonly logger: Logger;
  /** External web-search fallback; without it, searches return local results only. */
  readonly fallback?: FallbackSearcher;
  /** Dedicated API keys; without it, any presented key is refused with 401. */
  readonly keys?: KeyStore;
  /**
   * Counter store of the public (per-IP) tier: Redis in distributed mode.
   * @defaultValue an in-memory store
   */
  readonly rateLimitStore?: Store;
  /**
   * Counter store of the dedicated-key tier. A store instance cannot serve two limiters, so the
   * key tier needs its own (in distributed mode: a second Redis store with another prefix).
   * @defaultValue an in-memory store
   */
  readonly keyRateLimitStore?: Store;
  /** Where URLs from the fallback are queued for crawling when `config.fallback.crawlResults`. */
  readonly urlSubmitter?: UrlSubmitter;
  /**
   * Builds the router mounted under `/admin` (which authenticates its own requests), given the
   * limiter of admin-token guesses that `/metrics` and `/mcp` count with, for it to count its own
   * with (`guessLimiter` of `@quarry/admin`): one lockout for every route taking the token.
   * @example adminRouter: ({ adminGuesses }) => createAdminRouter({ ...options, guessLimiter: adminGuesses })
   */
  readonly adminRouter?: (limiters: { readonly adminGuesses: RequestHandler }) => Router;
  /** Prometheus metrics: every request is timed, and `GET /metrics` serves them to the admin token. */
  readonly metrics?: QuarryMetrics;
  /**
   * Backends every search needs besides the index, pinged by `GET /healthz` (Redis in distributed
   * mode: without it every search is a 503).
   */
  readonly healthChecks?: readonly HealthCheck[];
  /**
   * Where the crawl took the page of a URL it skipped as a copy (the same text held by another URL,
   * a canonical or a redirect crawled instead): the URL of that page, or null. With it, a URL query
   * and MCP's `get_content` by URL find the page a copy's URL stands for; without it, only URLs
   * indexed as they are.
   */
  readonly crawledInsteadOf?: (url: string) => Promise<string | null>;
  /** The MCP `crawl_site` tool, offered on `/mcp` to requests presenting the admin token. */
  readonly siteCrawler?: SiteCrawler;
}
