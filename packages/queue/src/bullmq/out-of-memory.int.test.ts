import { expect, it } from '@jest/globals';
import { describeWithServer } from '@quarry/testkit';
import { ReplyError } from 'ioredis';
import { doc, task, waitFor, waitIdle } from '../contract/helpers.js';
import { isRedisOutOfMemoryError } from '../redis-memory.js';
import { useTestRedis } from '../testing/test-redis.js';
import { openBullmqQueues } from './open.js';

/** Commands the server ran so far, from INFO commandstats. */
async function commandsRun(info: string): Promise<number> {
  return [...info.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

describeWithServer('redis', 'bullmq: a Redis at its maxmemory', () => {
  const redis = useTestRedis();

  /** Sets maxmemory well below what Redis uses now: every write is refused (policy noeviction). */
  const fillUp = async () => {
    const used = Number(/^used_memory:(\d+)/m.exec(await redis.client.info('memory'))?.[1]);
    await redis.client.config('SET', 'maxmemory', String(Math.floor(used / 2)));
  };

  it('crawls nothing it cannot record, waits without spinning, and uses no try', async () => {
    const errors: unknown[] = [];
    let ready = 0;
    const queues = await openBullmqQueues({
      redisUrl: redis.url,
      prefix: 'oom1',
      hostDelayMs: 0,
      lockMs: 5000,
      stalledIntervalMs: 500,
      onError: (err) => errors.push(err),
      onReady: () => ready++,
    });
    const fetched: { url: string; attempt: number }[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const urls = ['a', 'b', 'c', 'd'].map((h) => `http://${h}.test/`);
    await queues.crawl.add(urls.map((u) => task(u)));
    // Two in flight, two waiting: the waiting ones are what BullMQ's worker kept asking for.
    const worker = queues.crawl.work(
      async (t) => {
        fetched.push({ url: t.url, attempt: t.attempt });
        await gate;
        // As the crawler's handler hands its document to the indexer: a write Redis refuses.
        await queues.index.push([doc(t.url)]);
        return { status: 'done' };
      },
      { concurrency: 2 },
    );
    try {
      await waitFor('two pages in flight', () => fetched.length === 2);
      await fillUp();
      release();
      // Their outcomes are refused; the worker says so in words, once, and waits.
      await waitFor('the refusal logged', () => errors.length > 0);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = await commandsRun(await redis.client.info('commandstats'));
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const ran = (await commandsRun(await redis.client.info('commandstats'))) - before;
      // A probe now and then, and the test's own INFO.
      expect(ran).toBeLessThan(40);
      expect(fetched).toHaveLength(2);
      const messages = errors.map((e) => (e instanceof Error ? e.message : String(e)));
      expect(messages[0]).toMatch(/^Redis is out of memory \(maxmemory [\d.]+[KMG]?, policy noeviction\)/);
      // Once, and no raw OOM or EXECABORT reply besides.
      expect(new Set(messages).size).toBe(1);
      expect(messages.some((m) => /^(OOM|EXECABORT) /.test(m))).toBe(false);

      const readyBefore = ready;
      await redis.client.config('SET', 'maxmemory', '0');
      await waitIdle(queues.crawl, 20_000);
      expect(ready).toBeGreaterThan(readyBefore);
      expect(await queues.crawl.stats()).toMatchObject({ done: 4, failed: 0, skipped: 0 });
      // The two pages refused were fetched once more, on their first try still; none failed.
      expect(fetched).toHaveLength(6);
      expect(fetched.every((f) => f.attempt === 1)).toBe(true);
    } finally {
      release();
      await redis.client.config('SET', 'maxmemory', '0');
      await worker.close();
      await queues.close();
    }
  }, 60_000);

  it('a worker that meets a full Redis takes no job and asks it nothing but a probe now and then', async () => {
    const errors: unknown[] = [];
    const queues = await openBullmqQueues({
      redisUrl: redis.url,
      prefix: 'oom2',
      hostDelayMs: 0,
      onError: (err) => errors.push(err),
    });
    await queues.crawl.add(['a', 'b', 'c', 'd'].map((h) => task(`http://${h}.test/`)));
    await fillUp();
    let fetched = 0;
    const worker = queues.crawl.work(
      async () => {
        fetched++;
        return { status: 'done' };
      },
      { concurrency: 4 },
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = await commandsRun(await redis.client.info('commandstats'));
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const ran = (await commandsRun(await redis.client.info('commandstats'))) - before;
      // Before, BullMQ's worker asked for a job again as soon as Redis refused: 2,944 scripts in 2 s.
      expect(ran).toBeLessThan(20);
      expect(fetched).toBe(0);
      expect(errors.length).toBeGreaterThan(0);
      await redis.client.config('SET', 'maxmemory', '0');
      await waitIdle(queues.crawl, 20_000);
      expect(fetched).toBe(4);
    } finally {
      await redis.client.config('SET', 'maxmemory', '0');
      await worker.close();
      await queues.close();
    }
  }, 60_000);

  it('an index worker that meets a full Redis says so once and waits, then indexes what waited', async () => {
    const errors: unknown[] = [];
    let ready = 0;
    const queues = await openBullmqQueues({
      redisUrl: redis.url,
      prefix: 'oom3',
      pollIntervalMs: 20,
      onError: (err) => errors.push(err),
      onReady: () => ready++,
    });
    await queues.index.push(['a', 'b', 'c'].map((h) => doc(`http://${h}.test/`)));
    await fillUp();
    const indexed: string[] = [];
    const worker = queues.index.work(async (items) => void indexed.push(...items.map((item) => item.id)), {
      maxWaitMs: 10,
    });
    try {
      await waitFor('the refusal logged', () => errors.length > 0);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = await commandsRun(await redis.client.info('commandstats'));
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const ran = (await commandsRun(await redis.client.info('commandstats'))) - before;
      // Before, the loop asked for a job every poll interval and logged each refusal: 100 in 2 s here.
      expect(ran).toBeLessThan(20);
      const messages = errors.map((e) => (e instanceof Error ? e.message : String(e)));
      expect(messages).toEqual([expect.stringMatching(/^Redis is out of memory \(maxmemory /)]);
      expect(indexed).toEqual([]);

      await redis.client.config('SET', 'maxmemory', '0');
      await waitFor('the documents indexed', () => indexed.length === 3, 20_000);
      expect(ready).toBeGreaterThan(0);
      expect((await queues.index.stats()).waiting).toBe(0);
    } finally {
      await redis.client.config('SET', 'maxmemory', '0');
      await worker.close();
      await queues.close();
    }
  }, 60_000);

  it('knows a refused write, also inside a MULTI or under another error', async () => {
    await fillUp();
    try {
      const multi = redis.client.multi().set('k', 'v').exec();
      await expect(multi).rejects.toThrow(/^EXECABORT/);
      expect(isRedisOutOfMemoryError(await multi.catch((e: unknown) => e))).toBe(true);
      const refused = await redis.client.set('k', 'v').catch((e: unknown) => e);
      expect(isRedisOutOfMemoryError(refused)).toBe(true);
      expect(isRedisOutOfMemoryError(new Error('indexing failed', { cause: refused }))).toBe(true);
      expect(
        isRedisOutOfMemoryError(new ReplyError('EXECABORT Transaction discarded because of previous errors.')),
      ).toBe(false);
    } finally {
      await redis.client.config('SET', 'maxmemory', '0');
    }
  });
});
