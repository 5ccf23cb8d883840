import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FileBlobStore } from '@quarry/blobstore';
import { type BlobStore, ConfigError, type KeyStore, type QuarryConfig, type SearchIndex } from '@quarry/core';
import { SqliteKeyStore } from '@quarry/keys';
import type { Queues } from '@quarry/queue';
import { destination, type Logger, pino } from 'pino';
import { DATA_LAYOUT } from './data-dir.js';

export { DATA_LAYOUT } from './data-dir.js';

/** The stores a command works on, opened from configuration (backends chosen by REDIS_URL / MEILI_URL). */
export interface Services {
  readonly config: QuarryConfig;
  readonly index: SearchIndex;
  readonly blobs: BlobStore;
  readonly keys: KeyStore;
  close(): Promise<void>;
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
  if (options.path === undefined) refuseLegacyIndex(config.dataDir);
  mkdirSync(config.dataDir, { recursive: true });
  // Loaded on use, like the queues: commands that need neither start faster.
  const { LanceSearchIndex } = await import('@quarry/index-lance');
  return LanceSearchIndex.open({ path, autoMaintain: options.bulk !== true && options.maintain !== false });
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

/** Opens the API key store: Redis when REDIS_URL is set, else SQLite in the data dir. */
export async function openKeyStore(config: QuarryConfig): Promise<KeyStore> {
  if (config.redisUrl) {
    const [{ Redis }, { RedisKeyStore }] = await Promise.all([import('ioredis'), import('@quarry/keys')]);
    const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2 });
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

/** Opens the queues for a configuration: BullMQ when REDIS_URL is set, else SQLite in the data dir. */
export async function openQueues(config: QuarryConfig): Promise<Queues> {
  if (config.redisUrl) {
    const { openBullmqQueues } = await import('@quarry/queue');
    return openBullmqQueues({ redisUrl: config.redisUrl, prefix: 'quarry', hostDelayMs: config.hostDelayMs });
  }
  mkdirSync(config.dataDir, { recursive: true });
  const { openSqliteQueues } = await import('@quarry/queue');
  return openSqliteQueues({ path: join(config.dataDir, DATA_LAYOUT.queue), hostDelayMs: config.hostDelayMs });
}

/** Opens index, blob store and key store. */
export async function openServices(config: QuarryConfig, options: OpenIndexOptions = {}): Promise<Services> {
  const index = await openIndex(config, options);
  const blobs = new FileBlobStore({ dir: join(config.dataDir, DATA_LAYOUT.blobs) });
  const keys = await openKeyStore(config);
  return {
    config,
    index,
    blobs,
    keys,
    async close() {
      await Promise.allSettled([index.close(), keys.close()]);
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
