import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FileBlobStore } from '@quarry/blobstore';
import { type BlobStore, ConfigError, type KeyStore, type QuarryConfig, type SearchIndex } from '@quarry/core';
import { SqliteKeyStore } from '@quarry/keys';
import type { Queues } from '@quarry/queue';
import { destination, type Logger, pino } from 'pino';
import { DATA_LAYOUT } from './data-dir.js';
import { describeUsers, liveIndexUsers, registerIndexUser } from './index-users.js';
import { type OutageLog, outageLog, watchRedis } from './outage-log.js';
import { UsageError } from './usage.js';

export { DATA_LAYOUT } from './data-dir.js';

/** The stores a command works on, opened from configuration (backends chosen by REDIS_URL / MEILI_URL). */
export interface Stores {
  readonly config: QuarryConfig;
  readonly index: SearchIndex;
  readonly blobs: BlobStore;
  close(): Promise<void>;
}

/** The stores of a process that serves the API: the pages and the API keys. */
export interface Services extends Stores {
  readonly keys: KeyStore;
}

/** How a command uses the index. */
export interface OpenIndexOptions {
  /**
   * A bulk writer (`quarry import`, `quarry reindex`): no background folds while it writes; it calls
   * `flush()` once at the end.
   */
  readonly bulk?: boolean;
  /**
   * A short reader (`quarry status`): no background folds or version cleanup, which a command that
   * exits at once would only start and tear down again. @defaultValue true
   */
  readonly maintain?: boolean;
  /** Open this folder instead of the data dir's index (a rebuild writes a new one beside it). */
  readonly path?: string;
  /**
   * Write the index's notices (an index whose older pages need `quarry reindex`) to stderr once it
   * is open; `quarry status` lists them itself. @defaultValue true
   */
  readonly reportNotices?: boolean;
}

/** Opens the search index for a configuration: Meilisearch when MEILI_URL is set, else LanceDB in the data dir. */
export async function openIndex(config: QuarryConfig, options: OpenIndexOptions = {}): Promise<SearchIndex> {
  const index = await openIndexOnly(config, options);
  if (options.reportNotices !== false) {
    for (const notice of index.notices?.() ?? []) process.stderr.write(`quarry: ${notice}\n`);
  }
  return index;
}

async function openIndexOnly(config: QuarryConfig, options: OpenIndexOptions): Promise<SearchIndex> {
  if (config.meiliUrl) {
    const { MeiliSearchIndex } = await import('@quarry/index-meili');
    return MeiliSearchIndex.open({
      url: config.meiliUrl,
      apiKey: config.meiliMasterKey,
      indexName: config.meiliIndex,
    });
  }
  const path = options.path ?? join(config.dataDir, DATA_LAYOUT.index);
  if (options.path === undefined) {
    refuseLegacyIndex(config.dataDir);
    refuseWhileRebuilt(config.dataDir);
  }
  mkdirSync(config.dataDir, { recursive: true });
  // Loaded on use, like the queues: commands that need neither start faster.
  const { LanceSearchIndex } = await import('@quarry/index-lance');
  const index = await LanceSearchIndex.open({
    path,
    autoMaintain: options.bulk !== true && options.maintain !== false,
  });
  if (options.path !== undefined) return index;
  // Registered while open, so that `quarry reindex` does not swap the index under this process.
  const unregister = registerIndexUser(config.dataDir, commandName());
  const close = index.close.bind(index);
  index.close = async () => {
    try {
      await close();
    } finally {
      unregister();
    }
  };
  return index;
}

/** The running command's name (`start`, `mcp`), for other processes' messages. */
function commandName(): string {
  const name = process.argv[2] ?? '';
  return /^[a-z]{2,16}$/.test(name) ? name : 'process';
}

/** The index is not opened while `quarry reindex` rebuilds it: the swap would pull it away. */
function refuseWhileRebuilt(dataDir: string): void {
  const rebuilding = liveIndexUsers(dataDir).filter((user) => user.command === 'reindex');
  if (rebuilding.length > 0) {
    throw new UsageError(`${describeUsers(rebuilding)} is rebuilding the index in ${dataDir}; run this when it ends`);
  }
}

/**
 * A data dir written by a release before the LanceDB index holds `index.db` and no `index/`: its
 * pages are all in the blob store, and `quarry reindex` rebuilds the index from them.
 */
function refuseLegacyIndex(dataDir: string): void {
  if (existsSync(join(dataDir, DATA_LAYOUT.legacyIndex)) && !existsSync(join(dataDir, DATA_LAYOUT.index))) {
    throw new ConfigError([
      `QUARRY_DATA_DIR (or --data) "${dataDir}" holds the search index of an earlier release ` +
        `(${DATA_LAYOUT.legacyIndex}); rebuild it once from the stored pages with: quarry reindex --data ${dataDir}`,
    ]);
  }
}

/** Longest wait for a Redis command of an API request (a rate-limit count, an API key's check). */
export const REDIS_COMMAND_TIMEOUT_MS = 2_000;

/**
 * Opens the API key store: Redis when REDIS_URL is set, else SQLite in the data dir. A Redis
 * connection's errors go to `outages` (a long-running API); without, they are left to the commands,
 * which fail with them.
 */
export async function openKeyStore(config: QuarryConfig, outages?: OutageLog): Promise<KeyStore> {
  if (config.redisUrl) {
    const [{ Redis }, { RedisKeyStore }, { assertRedisDatabase }] = await Promise.all([
      import('ioredis'),
      import('@quarry/keys'),
      import('@quarry/queue'),
    ]);
    const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
    if (outages) watchRedis(redis, outages);
    // Without a listener ioredis prints every reconnection attempt with its stack trace.
    else redis.on('error', () => {});
    try {
      await assertRedisDatabase(redis);
    } catch (err) {
      redis.disconnect();
      throw err;
    }
    const store = new RedisKeyStore({ redis });
    // The store leaves the connection to its creator.
    return {
      create: (name, limitPerMin) => store.create(name, limitPerMin),
      list: () => store.list(),
      revoke: (id) => store.revoke(id),
      verify: (key) => store.verify(key),
      close: async () => {
        await store.close();
        redis.disconnect();
      },
    };
  }
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteKeyStore({ path: join(config.dataDir, DATA_LAYOUT.keys) });
}

/**
 * `ApiDeps.crawledInsteadOf` over the crawl's record (`crawledInstead` of `@quarry/queue`, whose
 * module loads at the first URL asked): where the crawl took the page of a URL it skipped as a copy.
 */
export function crawledInsteadOf(queues: Queues): (url: string) => Promise<string | null> {
  return async (url) => (await import('@quarry/queue')).crawledInstead(queues.crawl, url);
}

/**
 * Opens the queues for a configuration: BullMQ when REDIS_URL is set, else SQLite in the data dir.
 * Errors the workers survive (a lost Redis connection, a busy database) go to `logger`, a line a
 * minute at most for the same error (see outageLog), and a line when Redis answers again.
 */
export async function openQueues(
  config: QuarryConfig,
  logger?: Logger,
  options: { readonly closeTimeoutMs?: number } = {},
): Promise<Queues> {
  const outages = logger && outageLog(logger, config.redisUrl ? 'Redis (queues)' : 'queue database');
  const onError = {
    ...(outages ? { onError: (err: unknown) => outages.error(err) } : {}),
    ...(options.closeTimeoutMs === undefined ? {} : { closeTimeoutMs: options.closeTimeoutMs }),
  };
  if (config.redisUrl) {
    const { openBullmqQueues } = await import('@quarry/queue');
    return openBullmqQueues({
      redisUrl: config.redisUrl,
      prefix: 'quarry',
      hostDelayMs: config.hostDelayMs,
      lockMs: config.jobLockMs,
      stalledIntervalMs: config.jobLockMs,
      ...onError,
      ...(outages ? { onReady: () => outages.recovered() } : {}),
    });
  }
  mkdirSync(config.dataDir, { recursive: true });
  const { openSqliteQueues } = await import('@quarry/queue');
  return openSqliteQueues({
    path: join(config.dataDir, DATA_LAYOUT.queue),
    hostDelayMs: config.hostDelayMs,
    ...onError,
  });
}

/** Opens the index and the blob store. */
export async function openStores(config: QuarryConfig, options: OpenIndexOptions = {}): Promise<Stores> {
  const index = await openIndex(config, options);
  const blobs = new FileBlobStore({ dir: join(config.dataDir, DATA_LAYOUT.blobs) });
  // Best effort: a leftover temp file costs only disk, and the next start tries again.
  await blobs.removeStaleTemp().catch(() => 0);
  return { config, index, blobs, close: () => index.close() };
}

/** Opens index, blob store and key store; the key store's Redis errors go to `logger` (see outageLog). */
export async function openServices(config: QuarryConfig, logger?: Logger): Promise<Services> {
  const stores = await openStores(config);
  let keys: KeyStore;
  try {
    keys = await openKeyStore(config, logger && outageLog(logger, 'Redis (API keys)'));
  } catch (err) {
    await stores.close();
    throw err;
  }
  return {
    ...stores,
    keys,
    async close() {
      await Promise.allSettled([stores.close(), keys.close()]);
    },
  };
}

/** File descriptor of standard error. */
const STDERR_FD = 2;

/**
 * The JSON logger (pino): on stdout for the long-running commands (`start`, `serve`, `worker`),
 * whose output is their log; on stderr with `toStderr`, for a command whose stdout is its answer
 * (`crawl --wait` ends with its counts there: a warning logged on the way was read as one of them).
 */
export function createLogger(config: QuarryConfig, options: { toStderr?: boolean } = {}): Logger {
  const settings = { level: config.logLevel, base: { service: 'quarry' } };
  return options.toStderr ? pino(settings, destination(STDERR_FD)) : pino(settings);
}
