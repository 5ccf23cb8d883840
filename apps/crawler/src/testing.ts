import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from '@jest/globals';
import { FileBlobStore } from '@quarry/blobstore';
import { type BlobStore, loadConfig, type QuarryConfig, type SearchIndex } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import { type CommonQueueOptions, openBullmqQueues, openSqliteQueues, type Queues } from '@quarry/queue';
import { describeWithServer, type RedisServer, startRedis } from '@quarry/testkit';
import { pino } from 'pino';
import { Crawler, type CrawlerOptions } from './crawler.js';
import { waitUntilCrawlIdle } from './idle.js';
import { startIndexer } from './indexer.js';

/** What {@link crawlUntilIdle} runs: the crawler's options (its logger silent), the index and blobs. */
export interface CrawlRun extends Omit<CrawlerOptions, 'logger'> {
  readonly index: SearchIndex;
  readonly blobs: BlobStore;
  /** Queues the crawl's seeds (or anything else) once the crawler and the indexer exist. */
  readonly queue: (crawler: Crawler) => Promise<unknown>;
  /** How often the queues are polled for idleness. @defaultValue 200 */
  readonly pollMs?: number;
}

/**
 * A new temporary data dir (`quarry-<prefix>-…`) and the config of a crawl of local sites in it:
 * the comma-separated `allowHosts` allowed, no delay of the crawler's own between requests to a
 * host (robots.txt's Crawl-delay still counts), logs silent.
 */
export function localCrawlConfig(prefix: string, allowHosts: string): { dir: string; config: QuarryConfig } {
  const dir = mkdtempSync(join(tmpdir(), `quarry-${prefix}-`));
  const config = loadConfig({
    QUARRY_DATA_DIR: dir,
    QUARRY_ALLOW_HOSTS: allowHosts,
    QUARRY_HOST_DELAY_MS: '0',
    LOG_LEVEL: 'silent',
  });
  return { dir, config };
}

/**
 * For integration tests: a real crawler (extraction on the calling thread unless `extractThreads`
 * says otherwise) and a real indexer, run from what `queue` adds until both queues are idle (at
 * most a minute), then closed. Returns the crawler, closed, for what a test reads of it afterwards.
 */
export async function crawlUntilIdle(run: CrawlRun): Promise<Crawler> {
  const { index, blobs, queue, pollMs = 200, ...options } = run;
  const logger = pino({ level: 'silent' });
  const crawler = new Crawler({ extractThreads: 0, ...options, logger });
  const indexer = startIndexer({ queue: options.queues.index, index, blobs, logger });
  try {
    await queue(crawler);
    crawler.start();
    await waitUntilCrawlIdle(options.queues, { timeoutMs: 60_000, pollMs });
  } finally {
    await crawler.close();
    await indexer.close();
  }
  return crawler;
}

/** A crawl of `hosts` run until idle in a data dir of its own; its queues and index stay open for the checks. */
export async function crawlHosts(
  name: string,
  hosts: string,
  run: Omit<CrawlRun, 'config' | 'queues' | 'index' | 'blobs'>,
  open: (dir: string) => Promise<Queues> = async (dir) =>
    openSqliteQueues({ path: join(dir, 'queue.db'), hostDelayMs: 0 }),
): Promise<{ dir: string; queues: Queues; index: LanceSearchIndex }> {
  const { dir, config } = localCrawlConfig(name, hosts);
  const queues = await open(dir);
  const index = await LanceSearchIndex.open({ path: join(dir, 'index') });
  try {
    await crawlUntilIdle({ config, queues, index, blobs: new FileBlobStore({ dir: join(dir, 'blobs') }), ...run });
  } catch (err) {
    await Promise.allSettled([queues.close(), index.close()]);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return { dir, queues, index };
}

/**
 * Runs a suite on each crawl-state backend: `describeOn('sqlite', …)` on the embedded queues in the
 * test's dir, and `describeOn('bullmq', …)` on Redis (a real redis-server, started for the suite;
 * skipped with a message, or failed in CI, without one). `prefix` keeps each suite's keys apart;
 * `options` go to both backends (a shorter retry backoff, say).
 */
export function describeOnEachQueue(
  prefix: string,
  describeOn: (backend: string, open: (dir: string) => Promise<Queues>) => void,
  options: Omit<CommonQueueOptions, 'hostDelayMs'> = {},
): void {
  describeOn('sqlite', async (dir) => openSqliteQueues({ path: join(dir, 'queue.db'), hostDelayMs: 0, ...options }));
  describeWithServer('redis', 'with the crawl state in Redis', () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.stop();
    });
    describeOn('bullmq', (dir) =>
      openBullmqQueues({
        redisUrl: redis.url,
        prefix: `${prefix}${dir.slice(-6)}`,
        hostDelayMs: 0,
        pollIntervalMs: 20,
        ...options,
      }),
    );
  });
}
