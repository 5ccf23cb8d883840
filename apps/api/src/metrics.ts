import type { SearchIndex } from '@quarry/core';
import type { Request, RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Where the scrape-time gauges read from; each is optional (an API alone has no queues). */
export interface MetricsSources {
  readonly index?: Pick<SearchIndex, 'count'>;
  /** Crawl queue counts (`quarry_crawl_urls`, `quarry_queue_depth{queue="crawl"}`). */
  readonly crawlStats?: () => Promise<{
    queued: number;
    inFlight: number;
    done: number;
    skipped: number;
    failed: number;
  }>;
  /** Index queue counts (`quarry_queue_depth{queue="index"}`). */
  readonly indexStats?: () => Promise<{ waiting: number; active: number; failed: number }>;
}

/** Upper bounds (seconds) of the HTTP latency buckets: 5 ms to 10 s. */
const HTTP_BUCKETS_SECS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Route label of a request no route matched: raw paths would make a label per scanner probe. */
const UNMATCHED = 'unmatched';

/**
 * Quarry's Prometheus metrics (prom-client), one registry per process:
 * - `quarry_http_requests_total` and `quarry_http_request_duration_seconds`, by route, method, status;
 * - `quarry_crawl_outcomes_total` by state and reason (pages this process crawled);
 * - `quarry_crawl_urls` by state and `quarry_queue_depth` by queue and state (read at scrape time);
 * - `quarry_index_documents`;
 * - `quarry_fallback_requests_total` and `quarry_fallback_errors_total` by provider.
 */
export class QuarryMetrics {
  readonly registry = new Registry();
  readonly #httpRequests: Counter<'route' | 'method' | 'status'>;
  readonly #httpDuration: Histogram<'route' | 'method' | 'status'>;
  readonly #crawlOutcomes: Counter<'state' | 'reason'>;
  readonly #fallbackRequests: Counter<'provider'>;
  readonly #fallbackErrors: Counter<'provider'>;

  constructor(sources: MetricsSources = {}) {
    const registers = [this.registry];
    this.#httpRequests = new Counter({
      name: 'quarry_http_requests_total',
      help: 'HTTP requests answered, by route, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.#httpDuration = new Histogram({
      name: 'quarry_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route, method and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: HTTP_BUCKETS_SECS,
      registers,
    });
    this.#crawlOutcomes = new Counter({
      name: 'quarry_crawl_outcomes_total',
      help: 'Page crawls by this process, by how they ended (done, skipped, failed, retry) and reason.',
      labelNames: ['state', 'reason'],
      registers,
    });
    this.#fallbackRequests = new Counter({
      name: 'quarry_fallback_requests_total',
      help: 'Searches that asked the external fallback provider.',
      labelNames: ['provider'],
      registers,
    });
    this.#fallbackErrors = new Counter({
      name: 'quarry_fallback_errors_total',
      help: 'Fallback requests that failed (timeout, HTTP error, bad answer).',
      labelNames: ['provider'],
      registers,
    });
    const { crawlStats, indexStats, index } = sources;
    if (crawlStats) {
      new Gauge({
        name: 'quarry_crawl_urls',
        help: 'URLs in the crawl frontier, by state.',
        labelNames: ['state'],
        registers,
        async collect() {
          const s = await soon(crawlStats());
          this.reset();
          if (s === undefined) return;
          for (const [state, n] of Object.entries({
            queued: s.queued,
            in_flight: s.inFlight,
            done: s.done,
            skipped: s.skipped,
            failed: s.failed,
          })) {
            this.set({ state }, n);
          }
        },
      });
    }
    if (crawlStats || indexStats) {
      new Gauge({
        name: 'quarry_queue_depth',
        help: 'Work waiting or running, by queue (crawl, index) and state.',
        labelNames: ['queue', 'state'],
        registers,
        async collect() {
          const [crawl, idx] = await Promise.all([soon(crawlStats?.()), soon(indexStats?.())]);
          this.reset();
          if (crawl) {
            this.set({ queue: 'crawl', state: 'queued' }, crawl.queued);
            this.set({ queue: 'crawl', state: 'in_flight' }, crawl.inFlight);
          }
          if (idx) {
            this.set({ queue: 'index', state: 'waiting' }, idx.waiting);
            this.set({ queue: 'index', state: 'active' }, idx.active);
            this.set({ queue: 'index', state: 'failed' }, idx.failed);
          }
        },
      });
    }
    if (index) {
      new Gauge({
        name: 'quarry_index_documents',
        help: 'Documents in the search index.',
        registers,
        async collect() {
          const count = await soon(index.count());
          this.reset();
          // Unknown, not zero, while the index does not answer.
          this.set(count ?? Number.NaN);
        },
      });
    }
  }

  /**
   * Counts one crawl of a page by how it ended (`done`, `skipped`, `failed`, or `retry` for a
   * retryable error) and its reason (`none` for a plain `done`).
   */
  crawlOutcome(state: 'done' | 'skipped' | 'failed' | 'retry', reason: string | undefined): void {
    this.#crawlOutcomes.inc({ state, reason: reason ?? 'none' });
  }

  /** Counts one request to the fallback provider. */
  fallbackRequest(provider: string): void {
    this.#fallbackRequests.inc({ provider });
  }

  /** Counts one failed fallback request. */
  fallbackError(provider: string): void {
    this.#fallbackErrors.inc({ provider });
  }

  /** Express middleware timing every response under its route pattern (never the raw path). */
  readonly middleware: RequestHandler = (req, res, next) => {
    const end = this.#httpDuration.startTimer();
    const matched = watchRoute(req);
    res.once('finish', () => {
      const labels = { route: matched.pattern ?? UNMATCHED, method: req.method, status: String(res.statusCode) };
      end(labels);
      this.#httpRequests.inc(labels);
    });
    next();
  };

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/**
 * Records the route pattern (`/api/v1/content/:id`) when Express matches one. Read at `finish`, it
 * would be too late: a router restores `req.baseUrl` when an error leaves it, so the mount path of
 * a failed request would be lost. Express assigns `req.route` on the match, so a setter sees it.
 */
function watchRoute(req: Request): { pattern: string | undefined } {
  const matched: { pattern: string | undefined } = { pattern: undefined };
  let route: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: unknown) => {
      route = value;
      const path = (value as { path?: unknown } | undefined)?.path;
      if (typeof path === 'string') matched.pattern = `${req.baseUrl}${path}`;
    },
  });
  return matched;
}

/**
 * How long a scrape waits for the queues' and the index's counts. A backend that is down (Redis
 * reconnecting) would otherwise hold the scrape until the scraper gives up; its series are left out
 * of that scrape instead, and the rest answer.
 */
export const METRICS_SOURCE_TIMEOUT_MS = 3_000;

/** What `value` resolves to within {@link METRICS_SOURCE_TIMEOUT_MS}; undefined when it fails or takes longer. */
async function soon<T>(value: Promise<T> | undefined): Promise<T | undefined> {
  if (value === undefined) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), METRICS_SOURCE_TIMEOUT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([value.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
