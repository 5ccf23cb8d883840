import type { Redis } from 'ioredis';
import { probeRedisWrites, redisOutOfMemory } from '../redis-memory.js';

/** First wait before Redis is asked again whether it takes writes; doubles up to PROBE_MAX_MS. */
const PROBE_MIN_MS = 250;
const PROBE_MAX_MS = 5_000;

/** What a worker does as Redis starts and stops refusing writes for memory. */
export interface MemoryWaitHooks {
  /** Redis refused a write for memory (the error says so in words): once a spell. */
  refusing(err: unknown): void;
  /** Redis takes writes again (a probe went through). */
  writable(): void;
}

/**
 * Waits out a Redis at its maxmemory, one spell at a time for all of a worker's jobs: a Redis that
 * refuses writes answers reads (and PING), so BullMQ's worker kept taking jobs it could not record
 * (moveToActive about 700 times a second) and the handlers fetched pages for nothing. From the first
 * refusal the worker is told (`refusing`: it stops taking jobs), then a small write is tried after
 * 0.25 s, 0.5 s... up to every 5 s until it goes through (`writable`).
 */
export class MemoryWait {
  readonly #redis: Redis;
  readonly #probeKey: string;
  readonly #hooks: MemoryWaitHooks;
  #spell: Promise<void> | undefined;
  #stopped = false;
  #wake: (() => void) | undefined;

  constructor(redis: Redis, probeKey: string, hooks: MemoryWaitHooks) {
    this.#redis = redis;
    this.#probeKey = probeKey;
    this.#hooks = hooks;
  }

  /** Resolves once Redis takes writes again after refusing one with `cause` (or at stop). */
  untilWritable(cause: unknown): Promise<void> {
    this.#spell ??= this.#waitOut(cause).finally(() => {
      this.#spell = undefined;
    });
    return this.#spell;
  }

  /** Ends the wait under way and any later one at once (the worker is closing). */
  stop(): void {
    this.#stopped = true;
    this.#wake?.();
  }

  async #waitOut(cause: unknown): Promise<void> {
    if (this.#stopped) return;
    this.#hooks.refusing(await redisOutOfMemory(this.#redis, cause));
    for (let waitMs = PROBE_MIN_MS; !this.#stopped; waitMs = Math.min(2 * waitMs, PROBE_MAX_MS)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (this.#stopped) return;
      try {
        await probeRedisWrites(this.#redis, this.#probeKey);
      } catch {
        continue;
      }
      this.#hooks.writable();
      return;
    }
  }
}
