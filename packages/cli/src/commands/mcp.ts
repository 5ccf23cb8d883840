import { createMcpBackend } from '@quarry/api';
import type { QuarryConfig } from '@quarry/core';
import { createFallbackSearcher, fallbackOptionsFromConfig } from '@quarry/fallback';
import { createQuarryMcpServer, type SiteCrawler, serveStdio } from '@quarry/mcp';
import type { Queues } from '@quarry/queue';
import { destination, pino } from 'pino';
import { crawledInsteadOf, openQueues, openStores } from '../runtime.js';
import { createSiteCrawler } from './site-crawler.js';

/** File descriptor of stderr: on stdio, stdout carries the protocol and nothing else. */
const STDERR_FD = 2;

/**
 * `quarry mcp`: Quarry's MCP tools on stdin/stdout for desktop agents and IDEs, over the data dir's
 * index and pages (or Meilisearch/Redis when configured). Logs go to stderr. `crawl_site` is
 * offered when `QUARRY_ADMIN_TOKEN` is set in the environment the client starts it with. Resolves
 * to the exit code once the client closes the connection (or on SIGTERM/SIGINT).
 */
export async function runMcp(config: QuarryConfig): Promise<number> {
  const logger = pino({ level: config.logLevel, base: { service: 'quarry-mcp' } }, destination(STDERR_FD));
  const services = await openStores(config);
  let queues: Queues | undefined;
  try {
    let siteCrawler: SiteCrawler | undefined;
    if (config.adminToken) {
      queues = await openQueues(config);
      siteCrawler = createSiteCrawler(config, queues, logger);
    }
    const fallback = createFallbackSearcher({
      ...fallbackOptionsFromConfig(config),
      onError: (reason: string) => logger.warn({ provider: config.fallback.provider, reason }, 'fallback failed'),
    });
    const backend = createMcpBackend(
      {
        config,
        index: services.index,
        blobs: services.blobs,
        ...(fallback ? { fallback } : {}),
        ...(queues ? { crawledInsteadOf: crawledInsteadOf(queues) } : {}),
      },
      siteCrawler,
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
