import { constants } from 'node:os';
import type { QuarryConfig, UrlSubmitter } from '@quarry/core';
import {
  Crawler,
  type CrawlerOptions,
  createRedisCrawlCaches,
  parseSeed,
  type RecrawlSchedule,
  recrawlOlderThan,
  type Seed,
  scheduleRecrawls,
  startIndexer,
} from '@quarry/crawler';
import type { IndexWorker, Queues } from '@quarry/queue';
import type { Logger } from 'pino';
import { outageLog } from '../outage-log.js';
import { createLogger, openQueues, openStores, type Stores } from '../runtime.js';
import { finishedCounts } from './crawl-counts.js';
import { backoffNote, crawlRate, type DoneAt, diskNote } from './progress.js';
import { seedReport, warnRefusedSeeds } from './seed-report.js';
import { loadSeeds } from './seeds-input.js';
import { shutDown, untilSignal } from './signals.js';

/** A command stopped by a signal exits with this plus the signal's number, as the shell reports. */
const SIGNAL_EXIT_BASE = 128;

/** How often `crawl --wait` reports progress on a terminal, and off one. */
const PROGRESS_TTY_MS = 1000;
/** How long a signal gives `crawl --wait`'s pages in flight before they are stopped and queued again. */
const INTERRUPT_GRACE_MS = 2_000;
const PROGRESS_LOG_MS = 10_000;
/** The span a `crawl --wait` line's rate is read over. */
const RATE_SPAN_MS = 10_000;

/**
 * A crawler for this process; in distributed mode its robots.txt and llms.txt caches are shared
 * through Redis, so each origin is asked once per TTL for every worker process. `close` stops both.
 */
export async function openCrawler(
  config: QuarryConfig,
  queues: Queues,
  logger: Logger,
  onOutcome?: CrawlerOptions['onOutcome'],
): Promise<{ crawler: Crawler; close(): Promise<void> }> {
  // A cache that does not answer is fetched past (robots.txt, llms.txt asked of the site again).
  const cacheOutages = outageLog(logger, 'Redis (robots/llms cache)');
  const caches = config.redisUrl
    ? await createRedisCrawlCaches(config.redisUrl, {
        onError: (err) => cacheOutages.error(err),
        onReady: () => cacheOutages.recovered(),
      })
    : undefined;
  const crawler = new Crawler({
    config,
    queues,
    logger,
    ...(caches ? { caches: { robots: caches.robots, llms: caches.llms } } : {}),
    ...(onOutcome ? { onOutcome } : {}),
  });
  return {
    crawler,
    async close() {
      await crawler.close();
      await caches?.close();
    },
  };
}

/** Fallback URLs are crawled as single pages: depth 0, one page per URL, robots and budgets respected. */
export function submitterFor(crawler: Crawler, logger: Logger): UrlSubmitter {
  return {
    async submit(urls) {
      const seeds: Seed[] = [];
      for (const url of urls) {
        try {
          seeds.push(parseSeed(url, { maxDepth: 0, maxPages: 1 }));
        } catch {
          // Not a crawlable URL: nothing to queue.
        }
      }
      const added = await crawler.addSeeds(seeds);
      if (added > 0) logger.info({ added }, 'queued fallback URLs for crawling');
    },
  };
}

/** The settings `--max-pages` and `--max-depth` give every seed that does not set its own. */
export function seedDefaults(flags: { maxPages?: number | undefined; maxDepth?: number | undefined }): Partial<Seed> {
  const defaults: { -readonly [K in keyof Seed]?: Seed[K] } = {};
  if (flags.maxPages !== undefined) defaults.maxPages = flags.maxPages;
  if (flags.maxDepth !== undefined) defaults.maxDepth = flags.maxDepth;
  return defaults;
}

/** The indexer of this process, over its queues and stores; documents of forgotten sites left out. */
export function indexerFor(queues: Queues, stores: Stores, logger: Logger): IndexWorker {
  return startIndexer({
    queue: queues.index,
    index: stores.index,
    blobs: stores.blobs,
    logger,
    forgotten: () => queues.crawl.forgotten(),
  });
}

/** The periodic recrawl of QUARRY_RECRAWL_AFTER, or null when recrawling is off. */
export function recrawlScheduleFor(config: QuarryConfig, queues: Queues, logger: Logger): RecrawlSchedule | null {
  if (config.recrawlAfterMs === null) return null;
  logger.info({ afterMs: config.recrawlAfterMs }, 'recrawling pages after QUARRY_RECRAWL_AFTER');
  return scheduleRecrawls(queues.crawl, config.recrawlAfterMs, logger);
}

/** `at least 7d ago` for `--recrawl 7d` (in the largest unit that divides it), `at any time` for 0. */
export function ageText(ms: number): string {
  if (ms <= 0) return 'at any time';
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'm'],
    [1_000, 's'],
  ];
  const [size, unit] = units.find(([size]) => ms % size === 0) ?? [1, 'ms'];
  return `at least ${ms / size}${unit} ago`;
}

/**
 * `quarry crawl`: queue seeds; with --wait, crawl and index in this process until the frontier is
 * empty (with nothing else given, what is already queued: how an interrupted crawl resumes).
 * Resolves to 128 + the signal's number (130 for SIGINT) when a signal stops the wait, so that
 * `quarry crawl --wait && next-step` stops after a crawl left half done.
 */
export async function runCrawl(
  config: QuarryConfig,
  options: {
    seeds: readonly string[];
    /** `--seeds` files, read in order. */
    seedsFiles: readonly string[];
    maxPages: number | undefined;
    maxDepth: number | undefined;
    /** Queue pages last crawled at least this long ago again (conditional requests). */
    recrawlOlderThanMs: number | undefined;
    wait: boolean;
  },
): Promise<number> {
  const seeds = await loadSeeds(options.seeds, options.seedsFiles, seedDefaults(options));
  const logger = createLogger(config, { toStderr: true });
  // Ctrl-C on a crawl someone watches: pages in flight get a moment, then go back to the queue
  // (the next `crawl --wait` takes them up), where a service's stop gives them 10 s.
  const queues = await openQueues(config, logger, options.wait ? { closeTimeoutMs: INTERRUPT_GRACE_MS } : {});
  const { crawler, close: closeCrawler } = await openCrawler(config, queues, logger);
  const standings = seeds.length > 0 ? await crawler.reseed(seeds) : [];
  const refused = await warnRefusedSeeds(crawler, seeds, standings, options.wait);
  const report = seedReport(standings);
  if (report !== '') process.stderr.write(`${report}\n`);
  // A seed this process's crawl refuses is a configuration problem (QUARRY_ALLOW_HOSTS): exit 2 once
  // the rest is done. Without --wait it is queued for another process, which may allow the host
  // (`quarry crawl --seed … && next-step` beside a running `quarry start`): warned of, exit 0.
  const exitCode = refused > 0 && options.wait ? 2 : 0;
  if (options.recrawlOlderThanMs !== undefined) {
    const queued = await recrawlOlderThan(queues.crawl, options.recrawlOlderThanMs);
    process.stderr.write(
      `queued ${queued} URL${queued === 1 ? '' : 's'} again that finished ${ageText(options.recrawlOlderThanMs)}: pages crawled, and URLs that ended skipped or failed (conditional requests where the site gave validators)\n`,
    );
  }
  if (!options.wait) {
    await closeCrawler();
    await queues.close();
    return exitCode;
  }
  const services = await openStores(config);
  const indexer = indexerFor(queues, services, logger);
  crawler.start();
  const interrupted = untilSignal();
  const started = Date.now();
  const tty = process.stderr.isTTY === true;
  let lastLog = 0;
  let lastRead: DoneAt | null = null;
  let rate = 0;
  let idleRounds = 0;
  let stopped: NodeJS.Signals | undefined;
  void interrupted.then((signal) => {
    stopped = signal;
  });
  while (stopped === undefined) {
    await Promise.race([sleep(tty ? PROGRESS_TTY_MS : 1000), interrupted]);
    const [stats, indexStats] = await Promise.all([queues.crawl.stats(), queues.index.stats()]);
    const finished = finishedCounts(stats);
    const read = { done: finished.done, atMs: Date.now() };
    // Over the last ten seconds or so: a rate from one second to the next jumps about.
    if (lastRead === null || read.atMs - lastRead.atMs >= RATE_SPAN_MS) {
      rate = crawlRate(lastRead, read);
      lastRead = read;
    }
    // Built only when written (off a terminal, every ten seconds): it reads the disk's free space.
    const line = () =>
      `crawled ${finished.done} done, ${finished.skipped} skipped, ${finished.failed} failed${finished.lists} | ${rate.toFixed(1)} pages/s | ${stats.queued} queued, ${stats.inFlight} in flight | index: ${indexStats.waiting + indexStats.active} waiting${backoffNote(crawler.backingOff())}${diskNote(config.dataDir)}`;
    if (tty) process.stderr.write(`\r\x1b[K${line()}`);
    else if (Date.now() - lastLog >= PROGRESS_LOG_MS) {
      process.stderr.write(`${line()}\n`);
      lastLog = Date.now();
    }
    const idle = (await queues.crawl.isIdle()) && indexStats.waiting === 0 && indexStats.active === 0;
    idleRounds = idle ? idleRounds + 1 : 0;
    if (idleRounds >= 2) break;
  }
  if (tty) process.stderr.write('\n');
  await closeCrawler();
  await indexer.close();
  const stats = await queues.crawl.stats();
  await queues.close();
  await services.close();
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const finished = finishedCounts(stats);
  process.stdout.write(
    `${stopped ? 'interrupted' : 'crawl finished'}: ${finished.done} done, ${finished.skipped} skipped, ${finished.failed} failed${finished.lists} in ${secs} s\n`,
  );
  if (finished.skipped + finished.failed > 0) process.stdout.write('(quarry status shows why, with example URLs)\n');
  if (stopped === undefined) return exitCode;
  const left = stats.queued + stats.inFlight;
  if (left > 0) {
    process.stdout.write(
      `(${left} URL${left === 1 ? '' : 's'} still queued: \`quarry crawl --wait\` crawls ${left === 1 ? 'it' : 'them'})\n`,
    );
  }
  return SIGNAL_EXIT_BASE + (constants.signals[stopped] ?? 0);
}

/** `quarry worker`: crawl and index workers on Redis/BullMQ until SIGTERM/SIGINT. */
export async function runWorker(config: QuarryConfig, roles: { crawl: boolean; index: boolean }): Promise<number> {
  if (!config.redisUrl) {
    process.stderr.write('quarry worker: needs REDIS_URL (embedded mode runs workers inside `quarry start`)\n');
    return 2;
  }
  const logger = createLogger(config);
  const queues = await openQueues(config, logger);
  const services = roles.index ? await openStores(config) : null;
  // Loaded here: `quarry crawl`, which shares this module, serves no metrics.
  const { openMetrics } = await import('./metrics.js');
  const metrics = await openMetrics(config, queues, services?.index);
  const opened = roles.crawl
    ? await openCrawler(config, queues, logger, (state, reason) => metrics.metrics.crawlOutcome(state, reason))
    : null;
  opened?.crawler.start();
  const recrawls = opened ? recrawlScheduleFor(config, queues, logger) : null;
  const indexer = services ? indexerFor(queues, services, logger) : null;
  logger.info({ crawl: roles.crawl, index: roles.index, metrics: metrics.listening }, 'quarry worker running');
  if (metrics.listening) process.stderr.write(`Quarry worker metrics: http://${metrics.listening}/metrics\n`);
  const signal = await untilSignal();
  logger.info({ signal }, 'shutting down');
  await shutDown(logger, [
    ['the recrawl schedule', () => recrawls?.close()],
    ['the crawler', () => opened?.close()],
    ['the indexer', () => indexer?.close()],
    ['the metrics', () => metrics.close()],
    ['the queues', () => queues.close()],
    ['the index and stores', () => services?.close()],
  ]);
  return 0;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
