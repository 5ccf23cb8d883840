import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { describeWithServer, type RedisServer, startRedis } from '@quarry/testkit';
import { Redis } from 'ioredis';
import { task, waitFor, waitIdle } from '../contract/helpers.js';
import { startWorkerChild, type WorkerChild } from '../testing/worker-children.js';
import { openBullmqQueues } from './open.js';

describeWithServer('redis', 'bullmq across processes', () => {
  let server: RedisServer;
  let redis: Redis;

  beforeAll(async () => {
    server = await startRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    await redis?.quit();
    await server?.stop();
  });

  it('two worker processes, one killed mid-task: every task completes once, politeness holds', async () => {
    const prefix = 'xp';
    const delayMs = 100;
    const queues = await openBullmqQueues({ redisUrl: server.url, prefix, hostDelayMs: delayMs });
    const children = [startWorkerChild(server.url, prefix, 'w1'), startWorkerChild(server.url, prefix, 'w2')];
    try {
      await waitFor('both children ready', () => children.every((c) => c.output.includes('ready')), 20_000);
      const urls = ['a', 'b', 'c'].flatMap((h) => [1, 2, 3, 4, 5].map((n) => `http://${h}.test/${n}`));
      urls.push('http://a.test/hang');
      expect(await queues.crawl.add(urls.map((u) => task(u)))).toBe(urls.length);

      await waitFor('a child to hang', () => children.some((c) => c.output.includes('hang ')), 15_000);
      const victim = children.find((c) => c.output.includes('hang ')) as WorkerChild;
      victim.proc.kill('SIGKILL');
      expect(await victim.exited).toBe('SIGKILL');

      await waitFor('all done', async () => (await redis.llen(`${prefix}:test:done`)) >= urls.length, 20_000);
      await waitIdle(queues.crawl, 10_000);
      const done = (await redis.lrange(`${prefix}:test:done`, 0, -1)).map(
        (s) => JSON.parse(s) as { url: string; worker: string },
      );
      // Every task completes; the queue counts each once. A task the killed process finished but had
      // not acknowledged (it ran 4 at a time) is run again by the survivor: delivery is at least once,
      // so only the killed process's completions may repeat one of the survivor's.
      expect([...new Set(done.map((d) => d.url))].sort()).toEqual([...urls].sort());
      const bySurvivor = done.filter((d) => d.worker !== victim.name);
      expect(new Set(bySurvivor.map((d) => d.url)).size).toBe(bySurvivor.length);
      expect((await queues.crawl.stats()).done).toBe(urls.length);

      const starts = (await redis.lrange(`${prefix}:test:starts`, 0, -1)).map(
        (s) => JSON.parse(s) as { url: string; host: string; at: number; worker: string },
      );
      expect(new Set(starts.map((s) => s.worker))).toEqual(new Set(['w1', 'w2']));
      const hangStarts = starts.filter((s) => s.url === 'http://a.test/hang');
      expect(hangStarts).toHaveLength(2);
      // The killed process's job was retried by the survivor after its lock lapsed (stalled check).
      expect(new Set(hangStarts.map((s) => s.worker)).size).toBe(2);
      for (const host of ['a.test', 'b.test', 'c.test']) {
        const times = starts
          .filter((s) => s.host === host)
          .map((s) => s.at)
          .sort((x, y) => x - y);
        const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
        // 25 ms of slack: starts are recorded by the handler, a little after the queue's grant.
        expect(Math.min(...gaps)).toBeGreaterThanOrEqual(delayMs - 25);
      }
    } finally {
      for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGTERM');
      await Promise.all(children.map((c) => c.exited));
      await queues.close();
    }
  });

  it('keeps the seen-set compact: about 16 bytes of hash plus set overhead per URL', async () => {
    const queues = await openBullmqQueues({ redisUrl: server.url, prefix: 'mem', hostDelayMs: 0 });
    try {
      const count = 10_000;
      const tasks = Array.from({ length: count }, (_, i) => task(`https://example${i % 50}.test/path/page-${i}`));
      for (let i = 0; i < count; i += 1000) await queues.crawl.add(tasks.slice(i, i + 1000));
      const bytes = Number(await redis.memory('USAGE', 'mem:crawl-state:seen', 'SAMPLES', '0'));
      const perUrl = bytes / count;
      console.log(`seen-set: ${count} URLs use ${bytes} bytes, ${perUrl.toFixed(1)} bytes per URL`);
      expect(await redis.scard('mem:crawl-state:seen')).toBe(count);
      expect(perUrl).toBeLessThan(80);
    } finally {
      await queues.close();
    }
  });
});
