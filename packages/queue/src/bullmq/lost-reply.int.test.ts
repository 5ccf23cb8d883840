import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals';
import { describeWithServer, type RedisServer, startRedis } from '@quarry/testkit';
import { doc, task, waitFor, waitIdle } from '../contract/helpers.js';
import { type CuttingProxy, startCuttingProxy } from '../testing/cutting-proxy.js';
import type { Queues } from '../types.js';
import { openBullmqQueues } from './open.js';

/**
 * What a Redis restart or a killed worker does between two round trips, made deterministic by a
 * proxy that loses one reply: a command that ran in Redis, but whose caller never heard back.
 */
describeWithServer('redis', 'bullmq: lost replies and broken connections lose no URL', () => {
  let redis: RedisServer;
  let proxy: CuttingProxy;
  let n = 0;
  const opened: Queues[] = [];

  const open = async (url: string, prefix: string): Promise<Queues> => {
    const queues = await openBullmqQueues({
      redisUrl: url,
      prefix,
      hostDelayMs: 0,
      retryBaseDelayMs: 10,
      lockMs: 1000,
      stalledIntervalMs: 500,
    });
    opened.push(queues);
    return queues;
  };

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    proxy?.release();
    await Promise.all(opened.splice(0).map((q) => q.close()));
    await proxy?.close();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('queues a URL whose admission ran in Redis but whose reply was lost (resent after reconnecting)', async () => {
    proxy = await startCuttingProxy(redis.port);
    const prefix = `lost${++n}`;
    const queues = await open(proxy.url, prefix);
    // Loads the script, so the next EVALSHA runs (a fresh Redis would answer NOSCRIPT first).
    await queues.crawl.add([task('http://a.test/0')]);
    const cut = proxy.cutAfter(`${prefix}:crawl-state:seen`);
    expect(await queues.crawl.add([task('http://a.test/1')])).toBe(1);
    await cut; // The admission ran, its reply never arrived; ioredis sent it again on a new connection.
    expect((await queues.crawl.stats()).queued).toBe(2);
    expect(await queues.crawl.add([task('http://a.test/1')])).toBe(0);
  });

  it('a URL admitted by a process stopped before its job was added is queued by the next add, once', async () => {
    proxy = await startCuttingProxy(redis.port);
    const prefix = `lost${++n}`;
    const stopped = await open(proxy.url, prefix);
    const other = await open(redis.url, prefix);
    const cut = proxy.cutAfter(`${prefix}:crawl-state:seen`, { kind: 'hold' });
    const late = stopped.crawl.add([task('http://a.test/1')]);
    await cut; // Admitted in Redis; the process hears nothing and adds no job (as if SIGKILLed).
    // Another process finds the link again (a retried parent page): the URL must be queued.
    expect(await other.crawl.add([task('http://a.test/1')])).toBe(1);
    expect((await other.crawl.stats()).queued).toBe(1);
    proxy.release(); // The stopped process goes on: its job add is a no-op, no second job.
    await late;
    expect((await other.crawl.stats()).queued).toBe(1);
    expect(await other.crawl.add([task('http://a.test/1')])).toBe(0);
  });

  it('queues the URLs of a recrawl whose reply was lost (the resent call gets the same answer)', async () => {
    proxy = await startCuttingProxy(redis.port);
    const prefix = `lost${++n}`;
    const queues = await open(redis.url, prefix);
    const recrawler = await open(proxy.url, prefix);
    queues.crawl.work(async () => ({ status: 'done' }), { concurrency: 2 });
    await queues.crawl.add([task('http://a.test/1'), task('http://b.test/1')]);
    await waitFor('two pages done', async () => (await queues.crawl.stats()).done === 2);
    await recrawler.crawl.recrawl({ olderThanMs: 3_600_000 }); // Loads the script; nothing is that old.
    const cut = proxy.cutAfter(`${prefix}:crawl-state:finished:done`);
    expect(await recrawler.crawl.recrawl({ olderThanMs: 0 })).toBe(2);
    await cut; // Both URLs were taken, the reply lost, the call resent on a new connection.
    await waitFor('both pages crawled again', async () => (await queues.crawl.stats()).done === 2);
    await waitIdle(queues.crawl);
    expect(await recrawler.crawl.recrawl({ olderThanMs: 0 })).toBe(2);
  });

  it('retries a task whose handler lost its Redis connection mid-call, instead of failing it as internal', async () => {
    proxy = await startCuttingProxy(redis.port);
    const prefix = `lost${++n}`;
    const queues = await open(redis.url, prefix);
    // The handler pushes through a connection of its own, so only its push crosses the proxy.
    const pusher = await open(proxy.url, prefix);
    await pusher.index.push([doc('http://warm.test/')]); // Its connection set up, its script loaded.
    const attempts: number[] = [];
    queues.crawl.work(
      async (t) => {
        attempts.push(t.attempt);
        // The first try's index push (a pipeline of three job adds) loses its connection after the
        // first reply ('$1\r\n2\r\n', job id 2): ioredis aborts the rest, as in a Redis restart.
        const cut = t.attempt === 1 ? proxy.cutAfter(`${prefix}:index:`, { kind: 'drop', replyBytes: 7 }) : undefined;
        await pusher.index.push([doc(t.url), doc(`${t.url}?2`), doc(`${t.url}?3`)]);
        await cut;
        return { status: 'done' };
      },
      { concurrency: 1 },
    );
    await queues.crawl.add([task('http://a.test/1')]);
    await waitFor('the task to finish', async () => {
      const s = await queues.crawl.stats();
      return s.done + s.failed > 0;
    });
    await waitIdle(queues.crawl);
    const stats = await queues.crawl.stats();
    expect({ done: stats.done, failed: stats.failed, topFailures: stats.topFailures }).toEqual({
      done: 1,
      failed: 0,
      topFailures: [],
    });
    expect(attempts).toEqual([1, 2]);
  });
});
