import { afterEach, describe, expect, it } from '@jest/globals';
import { NonRetryableError } from '@quarry/core';
import type { CommonQueueOptions } from '../options.js';
import type { CrawlHandler, CrawlStats, CrawlTask, CrawlWorker, Queues } from '../types.js';
import { type OpenQueues, task, waitIdle } from './helpers.js';

/** The contract of explicit re-seeds (`requeue`) and of the reasons `stats` reports. */
export function describeRequeueContract(open: OpenQueues): void {
  let queues: Queues | undefined;
  let workers: CrawlWorker[] = [];
  const start = async (options: CommonQueueOptions = {}): Promise<Queues> => {
    queues = await open({ retryBaseDelayMs: 20, closeTimeoutMs: 2000, hostDelayMs: 0, ...options });
    return queues;
  };

  afterEach(async () => {
    await Promise.all(workers.map((w) => w.close()));
    workers = [];
    await queues?.close();
    queues = undefined;
  });

  /** Skips /blocked*, fails /broken, finishes the rest; records every task it sees. */
  const handler =
    (seen: CrawlTask[]): CrawlHandler =>
    async (t) => {
      seen.push(t);
      if (t.url.includes('/blocked')) return { status: 'skipped', reason: 'blocked_address' };
      if (t.url.endsWith('/broken')) throw new NonRetryableError('gone', 'http_404');
      return { status: 'done' };
    };

  it('reports skip and failure reasons with example URLs', async () => {
    const { crawl } = await start();
    const urls = ['http://a.test/blocked1', 'http://a.test/blocked2', 'http://a.test/broken', 'http://a.test/ok'];
    await crawl.add(urls.map((u) => task(u)));
    workers.push(crawl.work(handler([]), { concurrency: 2 }));
    await waitIdle(crawl);
    const { reasons } = await crawl.stats();
    const byKey = new Map(reasons.map((r) => [`${r.state}:${r.reason}`, r]));
    expect(byKey.get('skipped:blocked_address')).toMatchObject({ count: 2 });
    expect([...(byKey.get('skipped:blocked_address')?.examples ?? [])].sort()).toEqual([
      'http://a.test/blocked1',
      'http://a.test/blocked2',
    ]);
    expect(byKey.get('failed:http_404')).toEqual({
      state: 'failed',
      reason: 'http_404',
      count: 1,
      examples: ['http://a.test/broken'],
    });
    expect(reasons).toHaveLength(2);
  });

  it('counts the reasons of the URLs in each state now: one queued again leaves its reason', async () => {
    const { crawl } = await start();
    const urls = ['a.test/blocked1', 'a.test/blocked2', 'a.test/broken', 'b.test/broken', 'a.test/ok'].map(
      (u) => `http://${u}`,
    );
    await crawl.add(urls.map((u) => task(u)));
    const first = crawl.work(handler([]), { concurrency: 2 });
    await waitIdle(crawl);
    await first.close();
    // Each state's reasons add up to its count, and list only URLs in that state.
    const byState = (stats: CrawlStats) =>
      (['skipped', 'failed'] as const).map((state) => {
        const rows = stats.reasons.filter((r) => r.state === state);
        expect(rows.reduce((total, r) => total + r.count, 0)).toBe(stats[state]);
        return rows.map((r) => [r.reason, r.count, [...r.examples].sort()]);
      });
    expect(byState(await crawl.stats())).toEqual([
      [['blocked_address', 2, ['http://a.test/blocked1', 'http://a.test/blocked2']]],
      [['http_404', 2, ['http://a.test/broken', 'http://b.test/broken']]],
    ]);

    // Both skipped URLs by a recrawl, one failed URL by a re-seed.
    expect(await crawl.recrawl({ olderThanMs: 0, states: ['skipped'] })).toBe(2);
    const [again] = await crawl.requeue(['http://a.test/broken'], ['failed']);
    expect(again).toMatchObject({ state: 'failed', reason: 'http_404', requeued: true });
    const queued = await crawl.stats();
    expect(queued).toMatchObject({ queued: 3, skipped: 0, failed: 1 });
    expect(byState(queued)).toEqual([[], [['http_404', 1, ['http://b.test/broken']]]]);
    expect(queued.topFailures).toEqual([{ reason: 'http_404', count: 1 }]);

    // Now one ends done, one skipped for another reason, and one failed for the same reason again.
    const second = crawl.work(
      async (t) => {
        if (t.url.endsWith('/blocked1')) return { status: 'skipped', reason: 'robots_disallowed' };
        if (t.url === 'http://a.test/broken') throw new NonRetryableError('gone', 'http_404');
        return { status: 'done' };
      },
      { concurrency: 2 },
    );
    workers.push(second);
    await waitIdle(crawl);
    const after = await crawl.stats();
    expect(after).toMatchObject({ queued: 0, done: 2, skipped: 1, failed: 2 });
    expect(byState(after)).toEqual([
      [['robots_disallowed', 1, ['http://a.test/blocked1']]],
      [['http_404', 2, ['http://a.test/broken', 'http://b.test/broken']]],
    ]);
    expect(after.topFailures).toEqual([{ reason: 'http_404', count: 2 }]);
  });

  it('requeues named URLs that ended in the asked states, and leaves the rest alone', async () => {
    const { crawl } = await start();
    const urls = ['http://a.test/blocked', 'http://a.test/broken', 'http://a.test/ok'];
    await crawl.add(urls.map((u) => task(u, { meta: { etag: '"e"' } })));
    const seen: CrawlTask[] = [];
    const worker = crawl.work(handler(seen), { concurrency: 2 });
    workers.push(worker);
    await waitIdle(crawl);
    await worker.close();
    const before = await crawl.stats();
    expect(before).toMatchObject({ done: 1, skipped: 1, failed: 1 });

    const standings = await crawl.requeue([...urls, 'http://a.test/never'], ['skipped', 'failed']);
    expect(standings.map(({ url, state, requeued }) => ({ url, state, requeued }))).toEqual([
      { url: 'http://a.test/blocked', state: 'skipped', requeued: true },
      { url: 'http://a.test/broken', state: 'failed', requeued: true },
      { url: 'http://a.test/ok', state: 'done', requeued: false },
      { url: 'http://a.test/never', state: 'unknown', requeued: false },
    ]);
    expect(await crawl.stats()).toMatchObject({ queued: 2, done: 1, skipped: 0, failed: 0 });
    // Asked again while queued: pending, not queued twice.
    expect((await crawl.requeue(['http://a.test/blocked'], ['skipped']))[0]).toMatchObject({
      state: 'pending',
      requeued: false,
    });

    seen.length = 0;
    workers.push(crawl.work(handler(seen), { concurrency: 2 }));
    await waitIdle(crawl);
    expect(seen.map((t) => [t.url, t.attempt, t.meta?.etag]).sort()).toEqual([
      ['http://a.test/blocked', 1, '"e"'],
      ['http://a.test/broken', 1, '"e"'],
    ]);
    expect(await crawl.stats()).toMatchObject({ queued: 0, done: 1, skipped: 1, failed: 1 });
  });

  it("queues a seed's finished URLs again with new settings laid over their meta, and says what each finished with", async () => {
    const { crawl } = await start();
    const seed = 'http://a.test/';
    const settings = { maxPages: '2', maxDepth: '1', etag: '"e"' };
    await crawl.add([
      task(seed, { meta: settings, render: 'auto' }),
      task('http://a.test/blocked', { seed, meta: settings, render: 'auto' }),
      task('http://b.test/other', { meta: settings }),
    ]);
    const worker = crawl.work(handler([]), { concurrency: 2 });
    await waitIdle(crawl);
    await worker.close();
    // Queued, not finished: left as it is.
    await crawl.add([task('http://a.test/queued', { seed, meta: settings })]);
    // What the seed finished with, asked without queueing it.
    const [standing] = await crawl.requeue([seed], []);
    expect(standing).toMatchObject({ state: 'done', requeued: false, meta: settings });

    // Its two finished URLs, not the queued one nor another seed's.
    const wider = new Map<string, Record<string, string>>([
      [seed, { maxPages: '50', etag: '', render: 'always' }],
      ['http://never.test/', { maxPages: '50' }],
    ]);
    expect(await crawl.requeueSeeds(wider)).toEqual(
      new Map([
        [seed, 2],
        ['http://never.test/', 0],
      ]),
    );
    expect(await crawl.stats()).toMatchObject({ queued: 3, done: 1, skipped: 0 });
    const seen: CrawlTask[] = [];
    workers.push(crawl.work(handler(seen), { concurrency: 2 }));
    await waitIdle(crawl);
    expect(seen.map((t) => [t.url, t.attempt, t.render ?? null, t.meta]).sort()).toEqual([
      ['http://a.test/', 1, 'always', { maxPages: '50', maxDepth: '1', render: 'always' }],
      ['http://a.test/blocked', 1, 'always', { maxPages: '50', maxDepth: '1', render: 'always' }],
      ['http://a.test/queued', 1, null, settings],
    ]);
  });

  it('does not charge the scope budget again for a requeued URL', async () => {
    const { crawl } = await start();
    await crawl.add([task('http://a.test/blocked', { scope: 's', maxPagesInScope: 1 })]);
    const worker = crawl.work(handler([]), { concurrency: 1 });
    workers.push(worker);
    await waitIdle(crawl);
    expect((await crawl.requeue(['http://a.test/blocked'], ['skipped']))[0]?.requeued).toBe(true);
    expect(await crawl.add([task('http://a.test/other', { scope: 's', maxPagesInScope: 1 })])).toBe(0);
    await waitIdle(crawl);
    expect(await crawl.stats()).toMatchObject({ skipped: 1, queued: 0 });
  });
}

/** Registers the requeue contract under its own heading. */
export function describeRequeue(open: OpenQueues): void {
  describe('requeue and reasons', () => describeRequeueContract(open));
}
