import type { QuarryConfig } from '@quarry/core';
import { createLogger, openQueues, openServices } from '../runtime.js';
import { adminTokenFor } from './admin-token.js';
import { indexerFor, openCrawler, recrawlScheduleFor, seedDefaults, submitterFor } from './crawl.js';
import { openMetrics } from './metrics.js';
import { reportProgress } from './progress.js';
import { seedReport, warnRefusedSeeds } from './seed-report.js';
import { loadSeeds } from './seeds-input.js';
import { announce, startApi } from './serve.js';
import { shutDown, untilSignal } from './signals.js';

/**
 * `quarry start`: API, crawler and indexer in one process until SIGTERM/SIGINT. Says on every start
 * where it listens, where the admin page and its token are, and reports crawl progress while there
 * is work.
 */
export async function runStart(
  baseConfig: QuarryConfig,
  options: {
    seeds: readonly string[];
    /** `--seeds` files, read in order. */
    seedsFiles: readonly string[];
    maxPages?: number | undefined;
    maxDepth?: number | undefined;
  },
): Promise<number> {
  const seeds = await loadSeeds(options.seeds, options.seedsFiles, seedDefaults(options));
  const adminToken = adminTokenFor(baseConfig);
  const config = { ...baseConfig, adminToken: adminToken.value };
  const logger = createLogger(config);
  const services = await openServices(config, logger);
  const queues = await openQueues(config, logger);
  const metrics = await openMetrics(config, queues, services.index);
  const { crawler, close: closeCrawler } = await openCrawler(config, queues, logger, (state, reason) =>
    metrics.metrics.crawlOutcome(state, reason),
  );
  const indexer = indexerFor(queues, services, logger);
  // The API binds before anything is crawled or stored: a port in use stops the start with nothing done.
  const api = await startApi(services, logger, {
    urlSubmitter: submitterFor(crawler, logger),
    queues,
    metrics: metrics.metrics,
    backingOff: () => crawler.backingOff(),
  });
  adminToken.keep();
  crawler.start();
  const recrawls = recrawlScheduleFor(config, queues, logger);
  const standings = seeds.length > 0 ? await crawler.reseed(seeds) : [];
  await warnRefusedSeeds(crawler, seeds, standings, true);
  const report = seedReport(standings);
  if (report !== '') process.stderr.write(`${report}\n`);
  announce(config, api, metrics.listening);
  const progress = reportProgress(
    queues,
    (line) => process.stderr.write(`${line}\n`),
    undefined,
    () => crawler.backingOff(),
    config.dataDir,
  );
  const signal = await untilSignal();
  logger.info({ signal }, 'shutting down');
  progress.stop();
  await shutDown(logger, [
    ['the API', () => api.close()],
    ['the metrics', () => metrics.close()],
    ['the recrawl schedule', () => recrawls?.close()],
    ['the crawler', () => closeCrawler()],
    ['the indexer', () => indexer.close()],
    ['the queues', () => queues.close()],
    ['the index and stores', () => services.close()],
  ]);
  return 0;
}
