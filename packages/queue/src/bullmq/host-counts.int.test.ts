import { expect, it } from '@jest/globals';
import { describeWithServer } from '@quarry/testkit';
import { task, waitIdle } from '../contract/helpers.js';
import { useTestRedis } from '../testing/test-redis.js';
import type { Queues } from '../types.js';

describeWithServer('redis', 'bullmq: per-host counters', () => {
  const redis = useTestRedis();

  it('counts a URL admitted by two processes at once once, in the keys documented', async () => {
    // Two queues, two Redis connections: as two `quarry crawl` processes queueing the same links.
    const [one, two] = await Promise.all([redis.open('hc1'), redis.open('hc1')]);
    try {
      const urls = Array.from({ length: 200 }, (_, i) => task(`https://a.example/${i}`));
      // A URL still pending (its job not known to exist yet) is handed to both calls; its job is one job.
      await Promise.all([one.crawl.add(urls), two.crawl.add(urls), one.crawl.add(urls.slice(0, 50))]);
      expect((await one.crawl.stats()).queued).toBe(200);
      expect(await redis.client.zscore('hc1:crawl-hosts:queued', 'a.example')).toBe('-200');
      for (const field of ['done', 'skipped', 'failed', 'last']) {
        expect(await redis.client.zscore(`hc1:crawl-hosts:${field}`, 'a.example')).toBe('0');
      }
      const { hosts } = await one.crawl.hosts({ sort: 'queued', limit: 1, offset: 0 });
      expect(hosts[0]).toMatchObject({ host: 'a.example', queued: 200, done: 0, lastFinishedMs: null });
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('counts outcomes where they are recorded: reasons per host, the latest finish kept', async () => {
    const queues: Queues = await redis.open('hc2');
    try {
      await queues.crawl.add(['https://b.example/1', 'https://b.example/2', 'https://b.example/x'].map((u) => task(u)));
      const before = Date.now();
      const worker = queues.crawl.work(
        async (t) => (t.url.endsWith('/x') ? { status: 'skipped', reason: 'soft_404' } : { status: 'done' }),
        { concurrency: 2 },
      );
      await waitIdle(queues.crawl);
      await worker.close();
      expect(await redis.client.hgetall('hc2:crawl-host-reasons:b.example')).toEqual({ 'skipped:soft_404': '1' });
      const { hosts } = await queues.crawl.hosts({ sort: 'last', limit: 5, offset: 0 });
      expect(hosts).toEqual([
        {
          host: 'b.example',
          queued: 0,
          inFlight: 0,
          done: 2,
          skipped: 1,
          failed: 0,
          reasons: [{ state: 'skipped', reason: 'soft_404', count: 1 }],
          lastFinishedMs: expect.any(Number),
        },
      ]);
      expect(hosts[0]?.lastFinishedMs).toBeGreaterThanOrEqual(before);
    } finally {
      await queues.close();
    }
  });

  it('shows a host crawled before the counters existed from then on, its queued count never below 0', async () => {
    const queues = await redis.open('hc3');
    try {
      await queues.crawl.add([task('https://old.example/1'), task('https://old.example/2')]);
      // As a Redis an earlier release filled: the URLs queued, no per-host counters.
      await redis.client.del(...['queued', 'done', 'skipped', 'failed', 'last'].map((f) => `hc3:crawl-hosts:${f}`));
      const worker = queues.crawl.work(async () => ({ status: 'done' }), { concurrency: 1 });
      await waitIdle(queues.crawl);
      await worker.close();
      const { total, hosts } = await queues.crawl.hosts({ sort: 'done', limit: 5, offset: 0, q: 'old' });
      expect(total).toBe(1);
      expect(hosts[0]).toMatchObject({ host: 'old.example', queued: 0, done: 2 });
    } finally {
      await queues.close();
    }
  });
});
