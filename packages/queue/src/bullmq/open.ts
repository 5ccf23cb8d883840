import { BackendUnavailableError } from '@quarry/core';
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { type CommonQueueOptions, DEFAULTS, resolveCommonOptions } from '../options.js';
import { assertRedisDatabase } from '../redis-database.js';
import type { Queues } from '../types.js';
import { settlesWithin } from '../util.js';
import { RedisBackoffBoard } from './backoff-board.js';
import { BullmqCrawlQueue } from './crawl-queue.js';
import { DataLossWatch } from './data-loss.js';
import { RedisFingerprintStore } from './fingerprints.js';
import { BullmqIndexQueue } from './index-queue.js';

/** Options of the distributed (BullMQ on Redis) queues; give `redisUrl` or `connection`. */
export interface BullmqQueueOptions extends CommonQueueOptions {
  /** `redis://[user:password@]host:port[/db]`; a connection is opened and closed with the queues. */
  readonly redisUrl?: string;
  /** An ioredis client to use instead (created with `maxRetriesPerRequest: null`); left open on close. */
  readonly connection?: Redis;
  /** Prefix of every Redis key, so several crawls can share one Redis. @defaultValue quarry */
  readonly prefix?: string;
  /**
   * Job lock, renewed every half of it, and the lease of the host slot the job holds. A worker that
   * stops renewing it (killed) loses the job to the queue once a stalled check has found the job
   * twice, the second time with its lock lapsed: 30 to 60 s after the last renewal with the defaults.
   * @defaultValue 30000
   */
  readonly lockMs?: number;
  /** How often stalled jobs (of dead workers) are looked for, by one live worker at a time. @defaultValue 30000 */
  readonly stalledIntervalMs?: number;
  /** Failed jobs kept, with their reason, per queue. @defaultValue 1000 */
  readonly keepFailedJobs?: number;
  /** Completed crawl jobs kept; index jobs are removed on completion. @defaultValue 100 */
  readonly keepCompletedJobs?: number;
  /** Longest sleep of an idle index worker between looks for documents. @defaultValue 250 */
  readonly pollIntervalMs?: number;
  /** How long to wait for Redis when opening. @defaultValue 10000 */
  readonly connectTimeoutMs?: number;
  /**
   * Called each time the connection opened from `redisUrl` is ready (at the start, and again once
   * Redis answers after it was lost), and when a crawl worker finds that Redis takes writes again
   * after refusing them for memory, so that a log of `onError`'s errors can say Redis is back.
   * @defaultValue ignore
   */
  readonly onReady?: () => void;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Opens the distributed crawl and index queues on Redis. Any number of processes may open the same
 * Redis and prefix: dedup, budgets and per-host politeness hold across all of them. Rejects with a
 * `BackendUnavailableError` when Redis cannot be reached, a `ConfigError` when it refuses the
 * URL's database number.
 *
 * @example const queues = await openBullmqQueues({ redisUrl: 'redis://127.0.0.1:6379', hostDelayMs: 1000 });
 */
export async function openBullmqQueues(options: BullmqQueueOptions): Promise<Queues> {
  const common = resolveCommonOptions(options);
  if ((options.redisUrl === undefined) === (options.connection === undefined)) {
    throw new TypeError('give exactly one of redisUrl and connection');
  }
  const prefix = options.prefix ?? DEFAULTS.prefix;
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(prefix)) throw new TypeError('prefix must be 1-64 letters, digits, _ . -');
  const owned = options.connection === undefined;
  // BullMQ workers block on Redis and need commands that never give up (maxRetriesPerRequest: null).
  const redis =
    options.connection ?? new Redis(options.redisUrl ?? '', { maxRetriesPerRequest: null, lazyConnect: true });
  // ioredis reconnects by itself; without a listener its errors would be printed as unhandled.
  if (owned) redis.on('error', (err: unknown) => common.onError(err));
  if (owned && options.onReady) redis.on('ready', options.onReady);
  try {
    await connect(redis, owned, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
  } catch (err) {
    if (owned) redis.disconnect();
    // The URL may hold a password: never put it into the message.
    throw new BackendUnavailableError('cannot reach Redis for the queues', err);
  }
  try {
    await assertRedisDatabase(redis);
  } catch (err) {
    if (owned) redis.disconnect();
    throw err;
  }
  const watch = new DataLossWatch(redis, prefix, common.onError);
  await watch.start();
  // A connection ready again may have found a Redis restarted empty.
  redis.on('ready', () => void watch.check());
  const settings = {
    ...common,
    prefix,
    lockMs: options.lockMs ?? DEFAULTS.lockMs,
    stalledIntervalMs: options.stalledIntervalMs ?? DEFAULTS.stalledIntervalMs,
    keepFailedJobs: options.keepFailedJobs ?? DEFAULTS.keepFailedJobs,
    keepCompletedJobs: options.keepCompletedJobs ?? DEFAULTS.keepCompletedJobs,
    pollIntervalMs: options.pollIntervalMs ?? DEFAULTS.pollIntervalMs,
    onReady: options.onReady ?? (() => {}),
  };
  const crawl = new BullmqCrawlQueue(redis, settings);
  const index = new BullmqIndexQueue(redis, settings);
  let closed: Promise<void> | undefined;
  return {
    crawl,
    index,
    fingerprints: new RedisFingerprintStore(redis, prefix),
    bullQueues: [crawl.bullQueue, index.bullQueue] as Queue[],
    backoffs: new RedisBackoffBoard(redis, prefix),
    notices: () => watch.notices(),
    close() {
      closed ??= (async () => {
        watch.stop();
        await Promise.all([crawl.close(), index.close()]);
        if (owned) await redis.quit().catch(() => redis.disconnect());
      })();
      return closed;
    },
  };
}

async function connect(redis: Redis, owned: boolean, timeoutMs: number): Promise<void> {
  const ready = (async () => {
    if (owned) await redis.connect();
    await redis.ping();
  })();
  if (!(await settlesWithin(ready, timeoutMs))) throw new Error(`no answer within ${timeoutMs} ms`);
  await ready;
}
