import { expect, it } from '@jest/globals';
import { describeWithServer } from '@quarry/testkit';
import { useTestRedis } from '../testing/test-redis.js';
import { RedisBackoffBoard } from './backoff-board.js';
import { openBullmqQueues } from './open.js';

describeWithServer('redis', 'bullmq: the hosts backed off from, shared', () => {
  const redis = useTestRedis();

  it('lists what any process noted, the most recent first, until it is cleared or its time passes', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const workerA = new RedisBackoffBoard(redis.client, 'bo1', clock);
    const workerB = new RedisBackoffBoard(redis.client, 'bo1', clock);
    await workerA.note({ host: 'a.example', reason: 'http_429', untilMs: now + 60_000 });
    now += 10;
    await workerB.note({ host: 'b.example', reason: 'http_503', untilMs: now + 30_000 });
    now += 10;
    await workerA.note({ host: 'c.example', reason: 'timeout', untilMs: now + 30_000 });
    expect(await workerB.current()).toEqual([
      { host: 'c.example', reason: 'timeout', untilMs: 1_000_020 + 30_000 },
      { host: 'b.example', reason: 'http_503', untilMs: 1_000_010 + 30_000 },
      { host: 'a.example', reason: 'http_429', untilMs: 1_000_000 + 60_000 },
    ]);
    await workerA.clear('c.example');
    now += 40_000;
    // b's time has passed: it is left out, and swept from Redis.
    expect((await workerA.current()).map((b) => b.host)).toEqual(['a.example']);
    expect(await redis.client.hkeys('bo1:crawl-backoffs')).toEqual(['a.example']);
    // Another prefix is another crawl.
    expect(await new RedisBackoffBoard(redis.client, 'bo2', clock).current()).toEqual([]);
  });

  it('is the distributed queues’ board, under their prefix', async () => {
    const queues = await openBullmqQueues({ redisUrl: redis.url, prefix: 'bo3', hostDelayMs: 0 });
    try {
      await queues.backoffs?.note({ host: 'd.example', reason: 'http_429', untilMs: Date.now() + 60_000 });
      expect(await redis.client.hkeys('bo3:crawl-backoffs')).toEqual(['d.example']);
    } finally {
      await queues.close();
    }
  });
});
