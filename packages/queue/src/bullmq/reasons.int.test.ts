import { expect, it } from '@jest/globals';
import { NonRetryableError } from '@quarry/core';
import { describeWithServer } from '@quarry/testkit';
import { task, waitIdle } from '../contract/helpers.js';
import { useTestRedis } from '../testing/test-redis.js';
import type { CrawlHandler, Queues } from '../types.js';

describeWithServer('redis', 'bullmq: reasons of the URLs in each state', () => {
  const redis = useTestRedis();

  /** Skips /blocked*, fails /broken*, finishes the rest. */
  const handler: CrawlHandler = async (t) => {
    if (t.url.includes('/blocked')) return { status: 'skipped', reason: 'blocked_address' };
    if (t.url.includes('/broken')) throw new NonRetryableError('gone', 'http_404');
    return { status: 'done' };
  };

  /** Adds the URLs and crawls them with `crawl` until idle. */
  const crawlAll = async (queues: Queues, urls: readonly string[], crawl: CrawlHandler = handler) => {
    await queues.crawl.add(urls.map((u) => task(u)));
    const worker = queues.crawl.work(crawl, { concurrency: 2 });
    await waitIdle(queues.crawl);
    await worker.close();
  };

  it('remembers the reason of each URL while it stays skipped or failed, and empties what it takes back', async () => {
    const queues = await redis.open('r1');
    try {
      await crawlAll(queues, ['http://a.test/blocked1', 'http://a.test/blocked2', 'http://a.test/broken']);
      expect(Object.values(await redis.client.hgetall('r1:crawl-state:url-reasons')).sort()).toEqual([
        'failed:http_404',
        'skipped:blocked_address',
        'skipped:blocked_address',
      ]);

      // One of two: the count goes down and the URL leaves the examples.
      await queues.crawl.requeue(['http://a.test/blocked1'], ['skipped']);
      expect(await redis.client.hget('r1:crawl-state:skip-reasons', 'blocked_address')).toBe('1');
      expect(await redis.client.lrange('r1:crawl-state:examples:skipped:blocked_address', 0, -1)).toEqual([
        'http://a.test/blocked2',
      ]);
      // The last of a reason: its count and examples go.
      expect(await queues.crawl.recrawl({ olderThanMs: 0, states: ['failed'] })).toBe(1);
      expect(await redis.client.hexists('r1:crawl-state:failure-reasons', 'http_404')).toBe(0);
      expect(await redis.client.exists('r1:crawl-state:examples:failed:http_404')).toBe(0);

      // Done this time: no reason is remembered for them.
      const worker = queues.crawl.work(async () => ({ status: 'done' }), { concurrency: 2 });
      await waitIdle(queues.crawl);
      await worker.close();
      expect(Object.values(await redis.client.hgetall('r1:crawl-state:url-reasons'))).toEqual([
        'skipped:blocked_address',
      ]);
      expect((await queues.crawl.stats()).reasons).toEqual([
        { state: 'skipped', reason: 'blocked_address', count: 1, examples: ['http://a.test/blocked2'] },
      ]);
    } finally {
      await queues.close();
    }
  });

  it('takes nothing back for URLs that ended before their reasons were remembered', async () => {
    const queues = await redis.open('r2');
    try {
      await crawlAll(queues, ['http://a.test/blocked', 'http://a.test/broken', 'http://a.test/ok']);
      // As a Redis an earlier release filled: reasons counted, none remembered per URL.
      await redis.client.del('r2:crawl-state:url-reasons');
      expect(await queues.crawl.recrawl({ olderThanMs: 0, states: ['skipped', 'done'] })).toBe(2);
      const [standing] = await queues.crawl.requeue(['http://a.test/broken'], ['failed']);
      expect(standing).toEqual({ url: 'http://a.test/broken', state: 'failed', requeued: true, meta: {} });

      const worker = queues.crawl.work(async () => ({ status: 'done' }), { concurrency: 2 });
      await waitIdle(queues.crawl);
      await worker.close();
      const stats = await queues.crawl.stats();
      expect(stats).toMatchObject({ done: 3, skipped: 0, failed: 0 });
      // Counted before and never taken back: left as they were, for the readers' guards to bound.
      expect(stats.reasons.map((r) => [r.state, r.reason, r.count])).toEqual([
        ['skipped', 'blocked_address', 1],
        ['failed', 'http_404', 1],
      ]);
    } finally {
      await queues.close();
    }
  });
});
