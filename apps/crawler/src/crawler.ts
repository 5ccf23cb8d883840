import { type HostBackoff, type QuarryConfig, QuarryError, urlMatchesSite } from '@quarry/core';
import { DOCUMENT_LIMIT_DEFAULTS } from '@quarry/documents';
import {
  type AddressPolicy,
  createAddressPolicy,
  createFetcher,
  createGuardedLookup,
  type Fetcher,
  type FetcherOptions,
  RobotsCache,
  type RobotsStore,
  refusedAddress,
} from '@quarry/fetcher';
import { type CrawlHandler, type CrawlWorker, FINISHED_STATES, type Queues, type UrlStanding } from '@quarry/queue';
import { BrowserPool, findChromium } from '@quarry/render';
import type { Logger } from 'pino';
import { BackoffWatch, SharedBackoffs } from './backoffs.js';
import { browserRequestGuard } from './browser-guard.js';
import { createExtractPool, type ExtractPool } from './extract-pool.js';
import { type LlmsStore, LlmsTxtCache } from './llms-cache.js';
import { createPageHandler } from './page-handler.js';
import { followUps, reachesFurther, type Seed, scopeOf, seedMeta } from './seeds.js';
import { SideRequests } from './side-requests.js';

/**
 * Where an explicitly given seed stood: `new` (added now) or its {@link UrlStanding}; `widened` when
 * it was crawled before with a smaller budget, depth or scope and its pages (`pages` of them) are
 * queued again under the new settings; `scopeUrls` when it is `unknown`, not added because its
 * scope's page budget is spent: the URLs its scope holds, which a larger budget must exceed.
 */
export type SeedStanding =
  | (UrlStanding & { readonly widened?: { readonly pages: number }; readonly scopeUrls?: number })
  | { readonly url: string; readonly state: 'new'; readonly requeued: false }
  /** Within a site `quarry forget` took out of the crawl: not queued. */
  | { readonly url: string; readonly state: 'forgotten'; readonly requeued: false; readonly site: string };

export interface CrawlerOptions {
  readonly config: QuarryConfig;
  readonly queues: Queues;
  readonly logger: Logger;
  /** Extraction worker threads. @defaultValue one per core */
  readonly extractThreads?: number;
  /** Fetch limits (timeouts, body size) beyond the fetcher's defaults. */
  readonly fetch?: Omit<FetcherOptions, 'userAgent' | 'allowHosts'>;
  /**
   * Stores through which robots.txt and llms.txt results are shared with other crawler processes
   * (see createRedisCrawlCaches); the caller closes them after the crawler.
   * @defaultValue none: each cache keeps to this process's memory
   */
  readonly caches?: { readonly robots?: RobotsStore; readonly llms?: LlmsStore };
  /**
   * Told how each crawl of a page ended (for metrics): `done`, `skipped` or `failed` with its reason,
   * or `retry` with the code of a retryable error (the queue tries again up to its limit).
   */
  readonly onOutcome?: (state: 'done' | 'skipped' | 'failed' | 'retry', reason: string | undefined) => void;
  /**
   * Longest wait for a host's delay before the browser asks a page fetched just before; a host
   * asking for more has the page's static text kept, unrendered (a worker would be held that long).
   * @defaultValue 10,000 ms
   */
  readonly maxRenderWaitMs?: number;
  /** How long an unreachable robots.txt is held before it is asked again. @defaultValue 60,000 ms */
  readonly robotsErrorTtlMs?: number;
}

/**
 * The crawler of one process: fetcher, robots.txt and llms.txt caches, the extraction thread pool
 * and (on first need) a Chromium pool, driving the crawl queue's politeness-aware workers.
 */
export class Crawler {
  readonly #options: CrawlerOptions;
  readonly #fetcher: Fetcher;
  readonly #extractor: ExtractPool;
  readonly #allowRequest: (url: string) => Promise<boolean>;
  readonly #policy: AddressPolicy;
  readonly #robots: RobotsCache;
  readonly #llms: LlmsTxtCache;
  /** The robots.txt and llms.txt requests the caches send, which the pages after them wait for. */
  readonly #sideRequests = new SideRequests();
  readonly #backoffs = new BackoffWatch();
  #browser: Promise<BrowserPool | null> | undefined;
  #workers: CrawlWorker[] = [];

  constructor(options: CrawlerOptions) {
    const { config } = options;
    this.#options = options;
    this.#fetcher = createFetcher({
      // A PDF or Office file may be as large as the document reader reads (a page's HTML is read
      // to its first 5 M characters, whatever its size); the fetcher's own 10 MiB refused larger ones.
      maxBodyBytes: DOCUMENT_LIMIT_DEFAULTS.maxBytes,
      ...options.fetch,
      userAgent: config.userAgent,
      allowHosts: config.allowHosts,
    });
    this.#extractor = createExtractPool(
      options.extractThreads === undefined ? {} : { threads: options.extractThreads },
    );
    this.#policy = createAddressPolicy(config.allowHosts);
    this.#allowRequest = browserRequestGuard(this.#policy);
    // One pair per process, shared by every start(): each origin is asked once, whatever the worker.
    const { robots, llms } = options.caches ?? {};
    const noted = this.#sideRequests.noting(this.#fetcher);
    this.#robots = new RobotsCache({
      fetcher: noted,
      userAgent: config.userAgent,
      store: robots,
      ...(options.robotsErrorTtlMs === undefined ? {} : { errorTtlMs: options.robotsErrorTtlMs }),
    });
    this.#llms = new LlmsTxtCache({
      fetcher: noted,
      store: llms,
      allowed: async (url) => (await this.#robots.check(url)).allowed,
    });
  }

  /** Queues seeds (depth 0); resolves to how many were new. */
  async addSeeds(seeds: readonly Seed[]): Promise<number> {
    let added = 0;
    for (const seed of seeds) added += await this.#options.queues.crawl.add(followUps([seed.url], seed, 0));
    return added;
  }

  /**
   * Queues seeds given explicitly: new ones are added, and known ones that ended skipped or failed
   * are queued again (budgets and robots.txt still apply when they are crawled); done ones are left
   * alone (a recrawl is what takes them again). A known seed given with a larger page budget or
   * depth, or a wider scope, than it was crawled with (see reachesFurther) has its pages queued
   * again under the new settings, fetched whole (no conditional request: an unchanged page would
   * not be read for its links), so that the crawl goes on where the old settings stopped it. A
   * seed within a forgotten site (`CrawlQueue.forget`) is not queued.
   * Resolves to where each seed stood, in order.
   */
  async reseed(seeds: readonly Seed[]): Promise<SeedStanding[]> {
    const { crawl } = this.#options.queues;
    const forgottenSites = await crawl.forgotten();
    const forgotten = new Map<Seed, string>();
    for (const seed of seeds) {
      const site = forgottenSites.find((s) => urlMatchesSite(seed.url, s));
      if (site !== undefined) forgotten.set(seed, site);
    }
    // Where each known seed stands and what it finished with, nothing queued yet.
    const known = new Map<Seed, UrlStanding>();
    const wider = new Map<string, Record<string, string>>();
    const added = new Set<Seed>();
    for (const seed of seeds) {
      if (forgotten.has(seed)) continue;
      if ((await crawl.add(followUps([seed.url], seed, 0))) > 0) {
        added.add(seed);
        continue;
      }
      const [standing] = await crawl.requeue([seed.url], []);
      if (standing === undefined) continue;
      known.set(seed, standing);
      const finished = FINISHED_STATES.some((state) => state === standing.state);
      if (finished && reachesFurther(standing.meta, seed)) {
        wider.set(seed.url, { ...seedMeta(seed), etag: '', lastModified: '' });
      }
    }
    // Their pages found in one pass over the frontier, however many seeds reach further.
    const widened = wider.size > 0 ? await crawl.requeueSeeds(wider) : new Map<string, number>();
    const standings: SeedStanding[] = [];
    for (const seed of seeds) {
      const pages = widened.get(seed.url) ?? 0;
      const standing = known.get(seed);
      const site = forgotten.get(seed);
      if (site !== undefined) {
        standings.push({ url: seed.url, state: 'forgotten', requeued: false, site });
      } else if (added.has(seed)) {
        standings.push({ url: seed.url, state: 'new', requeued: false });
      } else if (pages > 0 && standing !== undefined) {
        standings.push({ ...standing, requeued: true, widened: { pages } });
      } else if (standing?.state === 'skipped' || standing?.state === 'failed') {
        const [again] = await crawl.requeue([seed.url], ['skipped', 'failed']);
        standings.push(again ?? standing);
      } else if (standing === undefined || standing.state === 'unknown') {
        // `unknown` after a refused add: the seed's scope budget is spent, by this many URLs.
        const scopeUrls = await crawl.admittedInScope(scopeOf(seed).key);
        standings.push({ ...(standing ?? { url: seed.url, state: 'unknown', requeued: false }), scopeUrls });
      } else {
        // Done or pending: where it stands already.
        standings.push(standing);
      }
    }
    return standings;
  }

  /**
   * The seeds whose every address the address policy refuses (private or reserved, not listed in
   * QUARRY_ALLOW_HOSTS), with the refused address: what the crawl would record as `blocked_address`.
   */
  async refusedSeeds(seeds: readonly Seed[]): Promise<{ seed: Seed; address: string }[]> {
    const checked = await Promise.all(
      seeds.map(async (seed) => ({ seed, address: await refusedAddress(seed.url, this.#policy) })),
    );
    return checked.filter((c): c is { seed: Seed; address: string } => c.address !== null);
  }

  /**
   * The hosts this process's workers are backing off from (a 429, a 503, a timeout: a retryable
   * failure, until a task of the host ends otherwise or its Retry-After passes), the most recent first.
   */
  backingOff(): HostBackoff[] {
    return this.#backoffs.current();
  }

  /**
   * Notes an ending in this process's back-off watch and, in distributed mode, on the queues'
   * shared board (`Queues.backoffs`), so a dashboard of another process shows it (see
   * SharedBackoffs); the board's errors are logged.
   */
  #shareBackoffs(): (url: string, error: unknown) => void {
    const shared = new SharedBackoffs(this.#backoffs, this.#options.queues.backoffs, (err: unknown) =>
      this.#options.logger.warn({ err }, 'could not share a host back-off'),
    );
    return (url, error) => shared.note(url, error);
  }

  /** Starts crawl workers on the queue (config.crawlConcurrency tasks in flight). */
  start(): CrawlWorker {
    const { config, queues, logger } = this.#options;
    const handler = createPageHandler({
      fetcher: this.#fetcher,
      robots: this.#robots,
      llms: this.#llms,
      sideRequests: this.#sideRequests,
      extractor: this.#extractor,
      browser: () => this.#launchBrowser(),
      allowRequest: this.#allowRequest,
      browserLookup: createGuardedLookup(this.#policy),
      crawl: queues.crawl,
      index: queues.index,
      fingerprints: queues.fingerprints,
      logger,
      hostDelayMs: config.hostDelayMs,
      ...(this.#options.maxRenderWaitMs !== undefined ? { maxRenderWaitMs: this.#options.maxRenderWaitMs } : {}),
    });
    const outcomes = counted(handler, this.#options.onOutcome, this.#shareBackoffs(), queues.crawl.maxAttempts);
    const worker = queues.crawl.work(outcomes, {
      concurrency: config.crawlConcurrency,
      // A URL its site's robots.txt (read already) disallows is skipped without a request: it
      // takes no politeness slot, or each of a site's disallowed links would cost the host's delay.
      needsNoRequest: (task) => this.#robots.disallowsNow(task.url),
    });
    this.#workers.push(worker);
    return worker;
  }

  #launchBrowser(): Promise<BrowserPool | null> {
    this.#browser ??= (async () => {
      const { config, logger } = this.#options;
      const executablePath = findChromium(config.chromiumPath);
      if (!executablePath) {
        logger.warn('Chromium not found (set CHROMIUM_PATH): JavaScript pages are crawled from their static HTML');
        return null;
      }
      try {
        return await BrowserPool.launch({ executablePath, userAgent: config.userAgent });
      } catch (error) {
        logger.warn({ err: (error as Error).message }, 'Chromium failed to start: crawling static HTML only');
        return null;
      }
    })();
    return this.#browser;
  }

  /** Stops the workers (in-flight pages finish or are aborted), then the browser and threads. */
  async close(): Promise<void> {
    await Promise.all(this.#workers.map((w) => w.close()));
    this.#workers = [];
    const browser = await this.#browser;
    await Promise.allSettled([browser?.close(), this.#extractor.close(), this.#fetcher.close()]);
  }
}

/**
 * The handler, telling `onOutcome` and `note` (the back-off watch) how each call ended: a
 * retryable error on a task's last try (of `maxAttempts`) is its failure, as the queue records it.
 */
function counted(
  handler: CrawlHandler,
  onOutcome: CrawlerOptions['onOutcome'],
  note: (url: string, error: unknown) => void,
  maxAttempts: number,
): CrawlHandler {
  return async (task, signal) => {
    try {
      const outcome = await handler(task, signal);
      // A postponed task has not been crawled yet: its outcome comes when it is.
      if (outcome.status !== 'postponed') {
        note(task.url, undefined);
        onOutcome?.(outcome.status, outcome.reason);
      }
      return outcome;
    } catch (error) {
      note(task.url, error);
      const retried = error instanceof QuarryError && error.retryable && task.attempt < maxAttempts;
      onOutcome?.(retried ? 'retry' : 'failed', error instanceof QuarryError ? error.code : 'internal');
      throw error;
    }
  };
}
