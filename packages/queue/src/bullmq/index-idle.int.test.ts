import { expect, it } from '@jest/globals';
import { describeWithServer } from '@quarry/testkit';
import { doc } from '../contract/helpers.js';
import { useTestRedis } from '../testing/test-redis.js';
import type { IndexItem } from '../types.js';
import { openBullmqQueues } from './open.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeWithServer('redis', 'bullmq: an idle index worker', () => {
  const redis = useTestRedis();

  /** Commands Redis processed so far (the INFO asking it counts one). */
  const commands = async (): Promise<number> => {
    const info = await redis.client.info('stats');
    return Number(/total_commands_processed:(\d+)/.exec(info)?.[1]);
  };

  it('waits for work in one blocking call, takes a job the moment it comes, and closes at once', async () => {
    // The default poll interval (250 ms) and a stalled check far off, as `quarry worker` runs it.
    const queues = await openBullmqQueues({ redisUrl: redis.url, prefix: 'idle', stalledIntervalMs: 60_000 });
    const got: IndexItem[] = [];
    const worker = queues.index.work(async (batch) => void got.push(...batch), { maxWaitMs: 10 });
    try {
      await sleep(800);
      const before = await commands();
      await sleep(3_000);
      // Polling sent a command every 250 ms (12 in 3 s); a blocking wait of 5 s sends one or two.
      expect((await commands()) - before).toBeLessThanOrEqual(4);

      const pushedAt = Date.now();
      await queues.index.push([doc('http://a.test/1')]);
      while (got.length === 0 && Date.now() - pushedAt < 3_000) await sleep(10);
      expect(got.map((item) => ('url' in item ? item.url : item.id))).toEqual(['http://a.test/1']);
      expect(Date.now() - pushedAt).toBeLessThan(1_000);

      await sleep(800); // Waiting again.
      const closing = Date.now();
      await worker.close();
      expect(Date.now() - closing).toBeLessThan(2_000);
    } finally {
      await worker.close();
      await queues.close();
    }
  }, 20_000);
});
