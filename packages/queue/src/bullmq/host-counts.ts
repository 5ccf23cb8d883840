import type { Redis } from 'ioredis';
import {
  checkHostQuery,
  type HostCounts,
  type HostPage,
  type HostQuery,
  type HostSort,
  topHostReasons,
} from '../hosts.js';

/** Members read per ZSCAN when a filter is given. */
const FILTER_SCAN_COUNT = 1_000;

/**
 * Per-host counters of the distributed crawl, for the admin hosts view. BullMQ keeps no index of
 * jobs by host (counting a host's jobs would read every job), so the counts are kept on the way,
 * in the same atomic steps that record the crawl:
 *
 * - `<prefix>:crawl-hosts:<queued|done|skipped|failed|last>`: one ZSET each, every host a member
 *   of all five, its score the count NEGATED (last: minus the epoch ms it last finished, 0 for
 *   never), so that ZRANGE in ascending order lists the most first and ties by host name: pages come
 *   from ZRANGE alone. A URL admitted counts +1 queued in the ADMIT script; an outcome counts -1
 *   queued and +1 in its state (ZINCRBY) in the script that records it (finish.ts), once per URL; a recrawl or a re-seed +1
 *   queued per URL queued again, after its jobs are added.
 * - `<prefix>:crawl-host-reasons:<host>`: HASH `<state>:<reason>` -> count (HINCRBY).
 *
 * Counts of outcomes, not of URLs in a state (pages say so: `counting: 'outcomes'`): a page crawled
 * again counts again, in its state and under its reason alike, so a host's reasons still add up to
 * its counts (the queue's totals and reasons follow the URLs in each state now). Hosts crawled
 * before these counters existed (2026-12-05) are counted from then on: their queued count may go
 * below 0 and is shown as 0. A job BullMQ fails on its own (stalled too often) is counted as failed
 * `crashed` by the worker that sees it fail, or by the next to look (see crashed.ts).
 */
export class HostCounters {
  readonly #prefix: string;
  readonly #slots: (host: string) => string;

  constructor(prefix: string, slots: (host: string) => string) {
    this.#prefix = prefix;
    this.#slots = slots;
  }

  /** The ZSET of one sort (and count). */
  key(field: HostSort): string {
    return `${this.#prefix}:crawl-hosts:${field}`;
  }

  /** The keys ADMIT takes after its own three: queued, done, skipped, failed, last. */
  admitKeys(): string[] {
    return (['queued', 'done', 'skipped', 'failed', 'last'] as const).map((f) => this.key(f));
  }

  /** The HASH of `host`'s reasons. */
  reasonsKey(host: string): string {
    return `${this.#prefix}:crawl-host-reasons:${host}`;
  }

  /** Counts URLs queued again (a recrawl, a re-seed) in their hosts' queued counts. */
  async requeued(redis: Redis, hosts: readonly string[]): Promise<void> {
    if (hosts.length === 0) return;
    const perHost = new Map<string, number>();
    for (const host of hosts) perHost.set(host, (perHost.get(host) ?? 0) + 1);
    const pipeline = redis.pipeline();
    for (const [host, n] of perHost) pipeline.zincrby(this.key('queued'), -n, host);
    await pipeline.exec();
  }

  /** One page of hosts (see `CrawlQueue.hosts`). */
  async page(redis: Redis, query: HostQuery): Promise<HostPage> {
    const { sort, limit, offset, q } = checkHostQuery(query);
    const key = this.key(sort);
    let total: number;
    let names: string[];
    if (q === undefined) {
      [total, names] = await Promise.all([
        redis.zcard(key),
        redis.zrange(key, String(offset), String(offset + limit - 1)),
      ]);
    } else {
      // The filter's characters hold no glob pattern (HOST_FILTER_PATTERN); one pass over the hosts.
      const matches: { host: string; score: number }[] = [];
      let cursor = '0';
      do {
        const [next, flat] = await redis.zscan(key, cursor, 'MATCH', `*${q}*`, 'COUNT', String(FILTER_SCAN_COUNT));
        cursor = next;
        for (let i = 0; i + 1 < flat.length; i += 2) matches.push({ host: flat[i] ?? '', score: Number(flat[i + 1]) });
      } while (cursor !== '0');
      // ZSCAN may return a member twice; the order is the ZSET's own (score, then host name).
      const unique = [...new Map(matches.map((m) => [m.host, m])).values()];
      unique.sort((a, b) => a.score - b.score || (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
      total = unique.length;
      names = unique.slice(offset, offset + limit).map((m) => m.host);
    }
    return { total, hosts: await this.#read(redis, names), counting: 'outcomes' };
  }

  async #read(redis: Redis, hosts: readonly string[]): Promise<HostCounts[]> {
    if (hosts.length === 0) return [];
    const fields = ['queued', 'done', 'skipped', 'failed', 'last'] as const;
    const pipeline = redis.pipeline();
    for (const field of fields) pipeline.zmscore(this.key(field), ...hosts);
    const now = Date.now();
    for (const host of hosts) pipeline.hgetall(this.reasonsKey(host)).zcount(this.#slots(host), now, '+inf');
    const replies = (await pipeline.exec()) ?? [];
    for (const [err] of replies) if (err) throw err;
    const scores = fields.map((_, i) => (replies[i]?.[1] ?? []) as (string | null)[]);
    const count = (field: number, i: number) => Math.max(0, -Number(scores[field]?.[i] ?? 0));
    return hosts.map((host, i) => {
      const reasons = (replies[fields.length + 2 * i]?.[1] ?? {}) as Record<string, string>;
      const inFlight = Number(replies[fields.length + 2 * i + 1]?.[1] ?? 0);
      const last = count(4, i);
      return {
        host,
        queued: count(0, i),
        inFlight,
        done: count(1, i),
        skipped: count(2, i),
        failed: count(3, i),
        reasons: topHostReasons(
          Object.entries(reasons).flatMap(([field, n]) => {
            const [state, ...rest] = field.split(':');
            return state === 'skipped' || state === 'failed'
              ? [{ state, reason: rest.join(':'), count: Number(n) }]
              : [];
          }),
        ),
        lastFinishedMs: last > 0 ? last : null,
      };
    });
  }
}
