import { createMcpBackend } from '@quarry/api';
import type { QuarryConfig } from '@quarry/core';
import { Crawler, parseSeed, type SeedStanding } from '@quarry/crawler';
import { createFallbackSearcher, fallbackOptionsFromConfig } from '@quarry/fallback';
import { type CrawlSiteOutcome, createQuarryMcpServer, type SiteCrawler, serveStdio } from '@quarry/mcp';
import type { Queues } from '@quarry/queue';
import { destination, type Logger, pino } from 'pino';
import { openQueues, openServices } from '../runtime.js';

/** File descriptor of stderr: on stdio, stdout carries the protocol and nothing else. */
const STDERR_FD = 2;

/** The part of a {@link Crawler} that queues explicitly given seeds, as `quarry crawl` does. */
export type Seeder = Pick<Crawler, 'refusedSeeds' | 'reseed'>;

/**
 * A crawler that only queues seeds: never started, it runs no workers, threads or browser and
 * opens no connection, so it needs no closing. What `crawl_site` seeds through.
 */
export function seedingCrawler(config: QuarryConfig, queues: Queues, logger: Logger): Seeder {
  return new Crawler({ config, queues, logger, extractThreads: 0 });
}

/**
 * `crawl_site` through the seeding of `quarry crawl --seed`: a URL the address policy refuses
 * (QUARRY_ALLOW_HOSTS) is refused and not queued; a new one is queued with the requested depth and
 * page budget; one that ended skipped or failed is queued again; one queued or done is left alone;
 * one whose site's page budget is spent is not queued. A worker or `quarry start` then crawls it.
 */
export function createSiteCrawler(seeder: Seeder): SiteCrawler {
  return async ({ url, maxDepth, maxPages }) => {
    const seed = parseSeed(url, { maxDepth, maxPages });
    const [refused] = await seeder.refusedSeeds([seed]);
    if (refused) return { url: seed.url, outcome: 'refused', address: refused.address };
    const [standing] = await seeder.reseed([seed]);
    return { url: seed.url, ...outcomeOf(standing), maxDepth: seed.maxDepth, maxPages: seed.maxPages };
  };
}

/** What `crawl_site` says of a seed, from where `Crawler.reseed` found it. */
function outcomeOf(standing: SeedStanding | undefined): {
  outcome: CrawlSiteOutcome;
  previous?: { state: 'skipped' | 'failed'; reason?: string };
  pages?: number;
} {
  if (standing !== undefined && 'widened' in standing && standing.widened) {
    return { outcome: 'recrawled', pages: standing.widened.pages };
  }
  switch (standing?.state) {
    case 'new':
      return { outcome: 'queued' };
    case 'skipped':
    case 'failed': {
      // reseed queues every seed that ended skipped or failed again.
      const { state, reason } = standing;
      return { outcome: 'queued_again', previous: { state, ...(reason ? { reason } : {}) } };
    }
    case 'pending':
      return { outcome: 'already_queued' };
    case 'done':
      return { outcome: 'already_crawled' };
    default:
      // `unknown` after a refused add: the seed's scope budget is spent (see Crawler.reseed).
      return { outcome: 'budget_spent' };
  }
}

/**
 * `quarry mcp`: Quarry's MCP tools on stdin/stdout for desktop agents and IDEs, over the data dir's
 * index and pages (or Meilisearch/Redis when configured). Logs go to stderr. `crawl_site` is
 * offered when `QUARRY_ADMIN_TOKEN` is set in the environment the client starts it with. Resolves
 * to the exit code once the client closes the connection (or on SIGTERM/SIGINT).
 */
export async function runMcp(config: QuarryConfig): Promise<number> {
  const logger = pino({ level: config.logLevel, base: { service: 'quarry-mcp' } }, destination(STDERR_FD));
  const services = await openServices(config);
  let queues: Queues | undefined;
  try {
    if (config.adminToken) queues = await openQueues(config);
    const fallback = createFallbackSearcher({
      ...fallbackOptionsFromConfig(config),
      onError: (reason: string) => logger.warn({ provider: config.fallback.provider, reason }, 'fallback failed'),
    });
    const backend = createMcpBackend(
      { config, index: services.index, blobs: services.blobs, ...(fallback ? { fallback } : {}) },
      queues ? createSiteCrawler(seedingCrawler(config, queues, logger)) : undefined,
    );
    const server = createQuarryMcpServer(backend, {
      onError: (err, tool) => logger.error({ err, tool }, 'MCP tool failed'),
    });
    logger.info({ dataDir: config.dataDir, crawl: queues !== undefined }, 'quarry MCP server on stdio');
    // SIGTERM or SIGINT closes the stores cleanly, as the end of stdin does.
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGTERM', onSignal).once('SIGINT', onSignal);
    try {
      await serveStdio(server, stop.signal);
    } finally {
      process.off('SIGTERM', onSignal).off('SIGINT', onSignal);
    }
    return 0;
  } finally {
    await queues?.close();
    await services.close();
  }
}
