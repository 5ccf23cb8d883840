import { randomUUID } from 'node:crypto';
import { BackendUnavailableError } from '@quarry/core';
import type { Redis } from 'ioredis';

/** How often a process looks whether Redis still holds the crawl state it opened. */
const CHECK_INTERVAL_MS = 30_000;
/** How long a noticed loss is shown (`quarry status`): long enough to be read after a weekend. */
const NOTE_TTL_MS = 7 * 86_400_000;

const REMEDY =
  'the URLs queued before are gone and will not be crawled (the pages indexed stay): queue the seeds again ' +
  '(quarry crawl --seeds FILE) and issue the API keys again, and run Redis with persistence (see "Distributed mode" ' +
  'in docs/operations.md)';

/** Redis came back without the crawl state a process had opened (restarted empty, or flushed). */
export class RedisDataLostError extends BackendUnavailableError {
  constructor() {
    super(`Redis lost the crawl state (restarted without persistence, or flushed): ${REMEDY}`);
    this.name = 'RedisDataLostError';
  }
}

/**
 * Notices that Redis lost its data under running processes, which otherwise reconnected as if
 * nothing had happened: the frontier silently emptied, and a worker only logged BullMQ's "Missing
 * key for job …". The first process to open a Redis writes a marker (a random id) under the
 * prefix; each process remembers the one it found and looks again whenever its connection is ready
 * again and every 30 s. A marker gone or replaced means the data went: the process reports a
 * {@link RedisDataLostError}, writes a new marker, and leaves a note (kept 7 days) that `quarry
 * status` shows. A Redis emptied while no process had it open cannot be told from a new one.
 */
export class DataLossWatch {
  readonly #redis: Redis;
  readonly #marker: string;
  readonly #note: string;
  readonly #onError: (err: unknown) => void;
  #known: string | null = null;
  #timer: NodeJS.Timeout | undefined;
  #checking: Promise<void> | undefined;

  constructor(redis: Redis, prefix: string, onError: (err: unknown) => void) {
    this.#redis = redis;
    this.#marker = `${prefix}:crawl-state:marker`;
    this.#note = `${prefix}:crawl-state:data-lost`;
    this.#onError = onError;
  }

  /**
   * Writes the marker unless there is one, remembers it, and starts looking. Never rejects: a Redis
   * that refuses the write (at its maxmemory) is looked at again at the next check.
   */
  async start(): Promise<void> {
    this.#known = await this.#mark().catch(() => null);
    this.#timer = setInterval(() => void this.check(), CHECK_INTERVAL_MS);
    this.#timer.unref();
  }

  /** Looks whether the marker is still the one remembered (at most one look at a time). */
  check(): Promise<void> {
    this.#checking ??= this.#check()
      .catch(() => {}) // Redis away: the next ready or tick looks again.
      .finally(() => {
        this.#checking = undefined;
      });
    return this.#checking;
  }

  /** The noted loss, in words with the remedy, if one was noticed in the last 7 days. */
  async notices(): Promise<string[]> {
    const noticed = await this.#redis.get(this.#note);
    return noticed === null ? [] : [`Redis lost the crawl state (noticed ${noticed}): ${REMEDY}`];
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async #check(): Promise<void> {
    if (this.#known === null) {
      this.#known = await this.#mark();
      return;
    }
    const found = await this.#redis.get(this.#marker);
    if (found === this.#known) return;
    await this.#redis.set(this.#note, new Date().toISOString().replace(/\.\d+Z$/, 'Z'), 'PX', NOTE_TTL_MS);
    this.#known = await this.#mark();
    this.#onError(new RedisDataLostError());
  }

  /** The marker, written first when there is none (a read only, when there is). */
  async #mark(): Promise<string | null> {
    const found = await this.#redis.get(this.#marker);
    if (found !== null) return found;
    await this.#redis.set(this.#marker, randomUUID(), 'NX');
    return this.#redis.get(this.#marker);
  }
}
