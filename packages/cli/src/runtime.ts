import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FileBlobStore } from '@quarry/blobstore';
import type { BlobStore, KeyStore, QuarryConfig, SearchIndex } from '@quarry/core';
import { SqliteSearchIndex } from '@quarry/index-sqlite';
import { SqliteKeyStore } from '@quarry/keys';
import { openBullmqQueues, openSqliteQueues, type Queues } from '@quarry/queue';
import { type Logger, pino } from 'pino';

/** Where each embedded store lives inside the data dir. */
export const DATA_LAYOUT = {
  index: 'index.db',
  queue: 'queue.db',
  keys: 'keys.db',
  blobs: 'blobs',
} as const;

/** The stores a command works on, opened from configuration (backends chosen by REDIS_URL / MEILI_URL). */
export interface Services {
  readonly config: QuarryConfig;
  readonly index: SearchIndex;
  readonly blobs: BlobStore;
  readonly keys: KeyStore;
  close(): Promise<void>;
}

/** Opens the search index for a configuration: Meilisearch when MEILI_URL is set, else SQLite in the data dir. */
export async function openIndex(config: QuarryConfig): Promise<SearchIndex> {
  if (config.meiliUrl) {
    const { MeiliSearchIndex } = await import('@quarry/index-meili');
    return MeiliSearchIndex.open({
      url: config.meiliUrl,
      apiKey: config.meiliMasterKey,
      indexName: config.meiliIndex,
    });
  }
  mkdirSync(config.dataDir, { recursive: true });
  return SqliteSearchIndex.open({ path: join(config.dataDir, DATA_LAYOUT.index) });
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
    return openBullmqQueues({ redisUrl: config.redisUrl, prefix: 'quarry', hostDelayMs: config.hostDelayMs });
  }
  mkdirSync(config.dataDir, { recursive: true });
  return openSqliteQueues({ path: join(config.dataDir, DATA_LAYOUT.queue), hostDelayMs: config.hostDelayMs });
}

/** Opens index, blob store and key store. */
export async function openServices(config: QuarryConfig): Promise<Services> {
  const index = await openIndex(config);
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

/** The JSON logger for long-running commands (stdout, pino). */
export function createLogger(config: QuarryConfig): Logger {
  return pino({ level: config.logLevel, base: { service: 'quarry' } });
}
