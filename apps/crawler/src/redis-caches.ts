import { decodeRobotsRecord, type RobotsStore, type TtlEntry, type TtlStore } from '@quarry/fetcher';
import type { Redis } from 'ioredis';
import type { LlmsStore } from './llms-cache.js';

/** Options of {@link RedisTtlStore}. */
export interface RedisTtlStoreOptions<T> {
  /** The client; its owner closes it. */
  readonly redis: Redis;
  /** Put before every key, e.g. `quarry:robots:`. */
  readonly keyPrefix: string;
  /** Turns stored JSON back into a value, or null when it is none (then it counts as missing). */
  readonly decode: (raw: unknown) => T | null;
  /** Longest JSON value written or read; a longer one is not shared. @defaultValue 1_048_576 */
  readonly maxValueBytes?: number;
  /** Called with every Redis error, after which the store behaves as empty. @defaultValue errors are ignored */
  readonly onError?: (error: unknown) => void;
}

const DEFAULT_MAX_VALUE_BYTES = 1_048_576;

/**
 * A {@link TtlStore} in Redis: one JSON string per key with a `PX` expiry, so that every process
 * on the same Redis sees the same entries and Redis drops them when they expire. Never rejects:
 * Redis errors go to `onError` and read as "missing" (the caller fetches for itself).
 */
export class RedisTtlStore<T> implements TtlStore<T> {
  readonly #redis: Redis;
  readonly #keyPrefix: string;
  readonly #decode: (raw: unknown) => T | null;
  readonly #maxValueBytes: number;
  readonly #onError: (error: unknown) => void;

  constructor(options: RedisTtlStoreOptions<T>) {
    this.#redis = options.redis;
    this.#keyPrefix = options.keyPrefix;
    this.#decode = options.decode;
    this.#maxValueBytes = options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
    this.#onError = options.onError ?? (() => {});
  }

  async get(key: string): Promise<TtlEntry<T> | null> {
    const redisKey = this.#keyPrefix + key;
    let replies: [error: Error | null, result: unknown][] | null;
    try {
      // One transaction, so that the value and its remaining time belong together.
      replies = await this.#redis.multi().get(redisKey).pttl(redisKey).exec();
    } catch (error) {
      this.#onError(error);
      return null;
    }
    const [[getError, json] = [null, null], [pttlError, ttlMs] = [null, null]] = replies ?? [];
    if (getError || pttlError) {
      this.#onError(getError ?? pttlError);
      return null;
    }
    // PTTL is -1 for a key without expiry (not ours) and -2 for one gone meanwhile.
    if (typeof json !== 'string' || typeof ttlMs !== 'number' || ttlMs <= 0) return null;
    if (Buffer.byteLength(json) > this.#maxValueBytes) return null;
    let raw: unknown;
    try {
      raw = JSON.parse(json);
    } catch {
      return null;
    }
    const value = this.#decode(raw);
    return value === null ? null : { value, ttlMs };
  }

  async set(key: string, value: T, ttlMs: number): Promise<void> {
    const expiryMs = Math.ceil(ttlMs);
    if (!Number.isSafeInteger(expiryMs) || expiryMs <= 0) return;
    const json = JSON.stringify(value);
    if (Buffer.byteLength(json) > this.#maxValueBytes) return;
    try {
      await this.#redis.set(this.#keyPrefix + key, json, 'PX', expiryMs);
    } catch (error) {
      this.#onError(error);
    }
  }
}

/** Options of {@link createRedisCrawlCaches}. */
export interface RedisCrawlCachesOptions {
  /** Prefix of every key (`<prefix>:robots:<origin>`, `<prefix>:llms:<origin>`), as the queues use. @defaultValue 'quarry' */
  readonly prefix?: string;
  /** How long a Redis command may take before it counts as failed and the cache fetches instead. @defaultValue 1_000 */
  readonly commandTimeoutMs?: number;
  /** Called with Redis errors (lost connection, timeouts); crawling goes on without sharing meanwhile. */
  readonly onError?: (error: unknown) => void;
  /** Called each time the connection is ready (at the start, and once Redis answers again after errors). */
  readonly onReady?: () => void;
}

/** The shared robots.txt and llms.txt stores of distributed crawling, on their own Redis connection. */
export interface RedisCrawlCaches {
  readonly robots: RobotsStore;
  readonly llms: LlmsStore;
  /** Closes the connection (idempotent). */
  close(): Promise<void>;
}

const PREFIX = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Opens the stores through which every crawler process on one Redis shares robots.txt and
 * llms.txt results: one fetch per origin per TTL serves them all. Pass them to
 * `new Crawler({ ..., caches: { robots, llms } })` and close them after the crawler. ioredis
 * loads with the first call: a crawler on the embedded queues never loads it.
 *
 * @example const caches = await createRedisCrawlCaches(config.redisUrl, { onError: (err) => logger.warn({ err }, 'cache') });
 */
export async function createRedisCrawlCaches(
  redisUrl: string,
  options: RedisCrawlCachesOptions = {},
): Promise<RedisCrawlCaches> {
  const prefix = options.prefix ?? 'quarry';
  if (!PREFIX.test(prefix)) throw new TypeError('prefix must be 1-64 letters, digits, _ . -');
  const onError = options.onError ?? (() => {});
  const commandTimeoutMs = options.commandTimeoutMs ?? 1_000;
  // Commands wait at most commandTimeoutMs (offline queue included) and are retried once: a cache
  // lookup is worth less than a fetch delayed for long. Closing after Redis died leaves a timer of
  // disconnectTimeout behind (ioredis), which would hold the process open: keep it as short.
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, {
    maxRetriesPerRequest: 1,
    commandTimeout: commandTimeoutMs,
    disconnectTimeout: commandTimeoutMs,
  });
  // ioredis reconnects by itself; without a listener its errors would be printed as unhandled.
  redis.on('error', onError);
  if (options.onReady) redis.on('ready', options.onReady);
  let closed: Promise<void> | undefined;
  return {
    robots: new RedisTtlStore({ redis, keyPrefix: `${prefix}:robots:`, decode: decodeRobotsRecord, onError }),
    llms: new RedisTtlStore({
      redis,
      keyPrefix: `${prefix}:llms:`,
      decode: (raw) => (typeof raw === 'boolean' ? raw : null),
      onError,
    }),
    close() {
      closed ??= redis.quit().then(
        () => undefined,
        () => redis.disconnect(),
      );
      return closed;
    },
  };
}
