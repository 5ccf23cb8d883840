import { join } from 'node:path';
import { createAdminRouter } from '@quarry/admin';
import { type ApiDeps, createApp, type QuarryMetrics, startServer } from '@quarry/api';
import type { HostBackoff, QuarryConfig, UrlSubmitter } from '@quarry/core';
import { createFallbackSearcher, fallbackOptionsFromConfig } from '@quarry/fallback';
import type { Queues } from '@quarry/queue';
import type { Logger } from 'pino';
import { DATA_LAYOUT } from '../data-dir.js';
import { outageLog, watchRedis } from '../outage-log.js';
import { crawledInsteadOf, REDIS_COMMAND_TIMEOUT_MS, type Services } from '../runtime.js';
import { adminTokenSource } from './admin-token.js';
import { createSiteCrawler } from './site-crawler.js';

export interface RunningApi {
  /** Base URL from this machine (`http://127.0.0.1:8080`). */
  readonly url: string;
  /** What it really listens on (`0.0.0.0:8080`). */
  readonly address: string;
  close(): Promise<void>;
}

/** Starts the HTTP API on opened services. */
export async function startApi(
  services: Services,
  logger: Logger,
  extras: {
    urlSubmitter?: UrlSubmitter;
    queues?: Queues;
    metrics?: QuarryMetrics;
    /** The hosts the crawler of this process backs off from, for the dashboard (`quarry start`). */
    backingOff?: () => readonly HostBackoff[];
  } = {},
): Promise<RunningApi> {
  const { config } = services;
  // The dashboard exists only behind a token (QUARRY_ADMIN_TOKEN, or the one `quarry start` generated).
  // Its wrong tokens are counted with those of /metrics and /mcp: one lockout for them all.
  const queues = extras.queues;
  const adminToken = config.adminToken;
  const adminRouter: ApiDeps['adminRouter'] =
    adminToken && queues
      ? ({ adminGuesses }) =>
          createAdminRouter({
            token: adminToken,
            crawl: queues.crawl,
            index: queues.index,
            searchIndex: services.index,
            blobs: services.blobs,
            guessLimiter: adminGuesses,
            revokedSessionsFile: join(config.dataDir, DATA_LAYOUT.adminLogouts),
            ...(queues.bullQueues ? { bullQueues: queues.bullQueues } : {}),
            ...(queues.notices ? { queueNotices: () => queues.notices?.() ?? Promise.resolve([]) } : {}),
            ...backingOffSource(queues, extras.backingOff),
            onError: (err: unknown) => logger.warn({ err }, 'admin dashboard error'),
          })
      : undefined;
  const fallback = createFallbackSearcher({
    ...fallbackOptionsFromConfig(config),
    onError: (reason: string) => {
      extras.metrics?.fallbackError(config.fallback.provider);
      logger.warn({ provider: config.fallback.provider, reason }, 'fallback failed');
    },
  });
  const stores = config.redisUrl ? await redisRateLimitStores(config.redisUrl, logger) : null;
  const app = createApp({
    config,
    ...(stores
      ? { rateLimitStore: stores.publicTier, keyRateLimitStore: stores.keyTier, healthChecks: [stores.health] }
      : {}),
    index: services.index,
    blobs: services.blobs,
    keys: services.keys,
    logger,
    ...(fallback ? { fallback } : {}),
    ...(extras.urlSubmitter ? { urlSubmitter: extras.urlSubmitter } : {}),
    // A copy's URL finds the page crawled in its place (a URL query, MCP's get_content by URL).
    ...(queues ? { crawledInsteadOf: crawledInsteadOf(queues) } : {}),
    ...(adminRouter ? { adminRouter } : {}),
    ...(extras.metrics ? { metrics: extras.metrics } : {}),
    // The MCP crawl_site tool, for clients presenting the admin token on /mcp.
    ...(config.adminToken && extras.queues ? { siteCrawler: createSiteCrawler(config, extras.queues, logger) } : {}),
  });
  const server = await startServer(app, { port: config.port, host: config.host });
  const close = server.close.bind(server);
  logger.info({ url: server.url, dataDir: config.dataDir, fallback: config.fallback.provider }, 'quarry API listening');
  return {
    url: server.url,
    address: server.address,
    async close() {
      await close();
      await stores?.disconnect();
    },
  };
}

/**
 * Rate-limit counters in Redis, shared by every API replica (one store per tier: a store instance
 * cannot serve two limiters).
 */
/**
 * Where the dashboard reads the hosts backed off from: in distributed mode the queues' shared board
 * (every worker's, whichever process serves it), else this process's crawler, if it runs one.
 */
function backingOffSource(
  queues: Queues | undefined,
  own: (() => readonly HostBackoff[]) | undefined,
): { backingOff?: () => readonly HostBackoff[] | Promise<readonly HostBackoff[]> } {
  const board = queues?.backoffs;
  if (board) return { backingOff: () => board.current() };
  return own ? { backingOff: own } : {};
}

async function redisRateLimitStores(redisUrl: string, logger: Logger) {
  const [{ Redis }, { RedisStore }, { probeRedisWrites }] = await Promise.all([
    import('ioredis'),
    import('rate-limit-redis'),
    import('@quarry/queue'),
  ]);
  // A request waits at most 2 s for its count while Redis is away (then 503), not the 10-15 s of
  // ioredis's reconnection attempts.
  const client = new Redis(redisUrl, {
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
  watchRedis(client, outageLog(logger, 'Redis (rate limits)'));
  // rate-limit-redis passes the command and its arguments as one list.
  const sendCommand = (...args: string[]) =>
    client.call(args[0] ?? '', ...args.slice(1)) as Promise<number | string | (number | string)[]>;
  return {
    publicTier: new RedisStore({ sendCommand, prefix: 'quarry:rl:ip:' }),
    keyTier: new RedisStore({ sendCommand, prefix: 'quarry:rl:key:' }),
    // Every search counts here first (a write): while this Redis is away or refuses writes at its
    // maxmemory, /healthz says so. A PING would not tell the second: such a Redis answers it.
    health: { name: 'Redis (rate limits and keys)', ping: () => probeRedisWrites(client, 'quarry:health-probe') },
    disconnect: async () => {
      client.disconnect();
    },
  };
}

/**
 * Prints, on every start, where everything is, for people (logs go to stdout as JSON): the address
 * really listened on, the search URL, the admin page and where its token is, the metrics, the data.
 */
export function announce(config: QuarryConfig, api: RunningApi, metricsListening?: string): void {
  const wildcard = /^(0\.0\.0\.0|\[::\]):/.test(api.address);
  const lines = [
    `Quarry is listening on ${api.address}${wildcard ? ` (every interface; from this machine: ${api.url})` : ''}`,
    `  search:  ${api.url}/api/v1/search?q=...`,
    config.adminToken
      ? `  admin:   ${api.url}/admin/  (token: ${adminTokenSource(config)})`
      : '  admin:   off (set QUARRY_ADMIN_TOKEN, or let `quarry start` generate one)',
    `  metrics: ${config.adminToken ? `${api.url}/metrics (admin token)` : 'not on this port (needs an admin token)'}${
      metricsListening ? `; without a token on ${metricsListening}/metrics` : ''
    }`,
    `  data:    ${config.dataDir}`,
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
}
