import { afterEach, describe, expect, it } from '@jest/globals';
import { NonRetryableError } from '@quarry/core';
import type { HostCounts, HostQuery } from '../hosts.js';
import type { CrawlHandler, CrawlQueue, Queues } from '../types.js';
import { type OpenQueues, task, waitIdle } from './helpers.js';

/** Skips /robots*, fails /gone* (404) and /broken* (500), finishes the rest. */
const handler: CrawlHandler = async (t) => {
  if (t.url.includes('/robots')) return { status: 'skipped', reason: 'robots_disallowed' };
  if (t.url.includes('/gone')) throw new NonRetryableError('gone', 'http_404');
  if (t.url.includes('/broken')) throw new NonRetryableError('broken', 'http_500');
  return { status: 'done' };
};

const page = (crawl: CrawlQueue, query: Partial<HostQuery> = {}) =>
  crawl.hosts({ sort: 'queued', limit: 10, offset: 0, ...query });
const names = (hosts: readonly HostCounts[]) => hosts.map((h) => h.host);

/** The contract of `CrawlQueue.hosts`: per-host counts, ordering, paging and filtering. */
export function describeHostsContract(open: OpenQueues): void {
  let queues: Queues | undefined;
  afterEach(async () => {
    await queues?.close();
    queues = undefined;
  });

  /**
   * a.test: 2 done, 1 skipped, then 1 queued; b.test: 1 done, 2 failed (404), 1 failed (500);
   * c.test: 5 queued, never crawled.
   */
  async function crawled(): Promise<CrawlQueue> {
    queues = await open({ hostDelayMs: 0, retryBaseDelayMs: 20, closeTimeoutMs: 2000 });
    const { crawl } = queues;
    const first = [
      'a.test/1',
      'a.test/2',
      'a.test/robots',
      'b.test/1',
      'b.test/gone1',
      'b.test/gone2',
      'b.test/broken',
    ];
    await crawl.add(first.map((u) => task(`http://${u}`)));
    const worker = crawl.work(handler, { concurrency: 4 });
    await waitIdle(crawl);
    await worker.close();
    await crawl.add([1, 2, 3, 4, 5].map((n) => task(`http://c.test/${n}`)));
    await crawl.add([task('http://a.test/later')]);
    // Added again: already admitted, so counted once.
    await crawl.add(first.map((u) => task(`http://${u}`)));
    return crawl;
  }

  it('counts each host’s URLs by state, with its reasons and when one last finished', async () => {
    const crawl = await crawled();
    const { total, hosts, counting } = await page(crawl, { sort: 'done' });
    expect(total).toBe(3);
    expect(['urls', 'outcomes']).toContain(counting);
    expect(hosts.map(({ lastFinishedMs: _, ...rest }) => rest)).toEqual([
      {
        host: 'a.test',
        queued: 1,
        inFlight: 0,
        done: 2,
        skipped: 1,
        failed: 0,
        reasons: [{ state: 'skipped', reason: 'robots_disallowed', count: 1 }],
      },
      {
        host: 'b.test',
        queued: 0,
        inFlight: 0,
        done: 1,
        skipped: 0,
        failed: 3,
        reasons: [
          { state: 'failed', reason: 'http_404', count: 2 },
          { state: 'failed', reason: 'http_500', count: 1 },
        ],
      },
      { host: 'c.test', queued: 5, inFlight: 0, done: 0, skipped: 0, failed: 0, reasons: [] },
    ]);
    const [a, b, c] = hosts;
    expect(a?.lastFinishedMs).toEqual(expect.any(Number));
    expect(b?.lastFinishedMs).toEqual(expect.any(Number));
    expect(c?.lastFinishedMs).toBeNull();
  });

  it('orders by the asked count, most first, ties by host name, and never-finished hosts last by time', async () => {
    const crawl = await crawled();
    expect(names((await page(crawl, { sort: 'queued' })).hosts)).toEqual(['c.test', 'a.test', 'b.test']);
    expect(names((await page(crawl, { sort: 'failed' })).hosts)).toEqual(['b.test', 'a.test', 'c.test']);
    expect(names((await page(crawl, { sort: 'skipped' })).hosts)).toEqual(['a.test', 'b.test', 'c.test']);
    expect(names((await page(crawl, { sort: 'last' })).hosts).at(-1)).toBe('c.test');
  });

  it('pages through the hosts and filters them by a part of their name', async () => {
    const crawl = await crawled();
    const pages = await Promise.all([0, 2, 3, 50].map((offset) => page(crawl, { limit: 2, offset })));
    expect(pages.map((p) => [p.total, names(p.hosts)])).toEqual([
      [3, ['c.test', 'a.test']],
      [3, ['b.test']],
      [3, []],
      [3, []],
    ]);
    const b = await page(crawl, { q: 'b.te' });
    expect([b.total, names(b.hosts)]).toEqual([1, ['b.test']]);
    const all = await page(crawl, { q: '.test', sort: 'failed', limit: 1, offset: 1 });
    expect([all.total, names(all.hosts)]).toEqual([3, ['a.test']]);
    expect(await page(crawl, { q: 'nowhere' })).toMatchObject({ total: 0, hosts: [] });
  });

  it('counts URLs queued again as queued; what they had ended as, by how the backend counts', async () => {
    const crawl = await crawled();
    const standings = await crawl.requeue(['http://b.test/gone1', 'http://b.test/gone2'], ['failed']);
    expect(standings.every((s) => s.requeued)).toBe(true);
    const { hosts, counting } = await page(crawl, { q: 'b.test' });
    // The embedded queue counts URLs as they stand; the distributed one counts outcomes.
    expect(hosts[0]).toMatchObject({ host: 'b.test', queued: 2, done: 1, failed: counting === 'urls' ? 1 : 3 });
  });

  it('refuses a query out of bounds with a RangeError', async () => {
    queues = await open({});
    const { crawl } = queues;
    for (const bad of [
      { limit: 0 },
      { limit: 101 },
      { limit: 1.5 },
      { offset: -1 },
      { offset: 100_001 },
      { sort: 'host' as HostQuery['sort'] },
      { q: '' },
      { q: 'a*' },
      { q: 'A.test' },
      { q: 'x'.repeat(254) },
    ]) {
      await expect(page(crawl, bad)).rejects.toThrow(RangeError);
    }
  });
}

/** The hosts contract under its describe. */
export function describeHosts(open: OpenQueues): void {
  describe('hosts', () => describeHostsContract(open));
}
