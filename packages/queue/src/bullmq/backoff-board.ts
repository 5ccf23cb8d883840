import type { HostBackoff } from '@quarry/core';
import type { Redis } from 'ioredis';
import type { BackoffBoard } from '../types.js';

/** Notes between two sweeps of the expired entries, when no dashboard reads the board. */
const SWEEP_EVERY_NOTES = 100;
/** Hosts read back at most; the board never holds many more for long (entries expire). */
const MAX_LISTED = 10_000;

interface Entry {
  readonly reason: string;
  readonly untilMs: number;
  /** When it was noted: the most recent first. */
  readonly atMs: number;
}

/**
 * The hosts every worker backs off from, in one Redis hash (`<prefix>:crawl-backoffs`, host ->
 * JSON), so that a dashboard served by another process (`quarry serve` beside `quarry worker`s)
 * shows them. An entry lasts until its time, or until the worker that noted it sees a task of the
 * host end otherwise; expired entries are swept by readers, and by writers every
 * {@link SWEEP_EVERY_NOTES} notes.
 */
export class RedisBackoffBoard implements BackoffBoard {
  readonly #redis: Redis;
  readonly #key: string;
  readonly #clock: () => number;
  #notes = 0;

  constructor(redis: Redis, prefix: string, clock: () => number = Date.now) {
    this.#redis = redis;
    this.#key = `${prefix}:crawl-backoffs`;
    this.#clock = clock;
  }

  async note(backoff: HostBackoff): Promise<void> {
    const entry: Entry = { reason: backoff.reason, untilMs: backoff.untilMs, atMs: this.#clock() };
    await this.#redis.hset(this.#key, backoff.host, JSON.stringify(entry));
    if (++this.#notes % SWEEP_EVERY_NOTES === 0) await this.#read();
  }

  async clear(host: string): Promise<void> {
    await this.#redis.hdel(this.#key, host);
  }

  async current(): Promise<HostBackoff[]> {
    return (await this.#read())
      .sort((a, b) => b.entry.atMs - a.entry.atMs || (a.host < b.host ? -1 : 1))
      .slice(0, MAX_LISTED)
      .map(({ host, entry }) => ({ host, reason: entry.reason, untilMs: entry.untilMs }));
  }

  /** The entries still in force; the expired (and unreadable) ones are deleted. */
  async #read(): Promise<{ host: string; entry: Entry }[]> {
    const now = this.#clock();
    const live: { host: string; entry: Entry }[] = [];
    const expired: string[] = [];
    for (const [host, json] of Object.entries(await this.#redis.hgetall(this.#key))) {
      let entry: Entry | null = null;
      try {
        entry = JSON.parse(json) as Entry;
      } catch {
        // Not ours to read: swept like an expired one.
      }
      if (entry && typeof entry.untilMs === 'number' && entry.untilMs > now) live.push({ host, entry });
      else expired.push(host);
    }
    if (expired.length > 0) await this.#redis.hdel(this.#key, ...expired);
    return live;
  }
}
