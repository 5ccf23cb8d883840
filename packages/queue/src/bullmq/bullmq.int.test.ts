import { afterAll, beforeAll, describe } from '@jest/globals';
import { describeQueueContract } from '../contract.js';
import { redisAvailable, startRedis, type TestRedis } from '../testing/redis-server.js';
import { openBullmqQueues } from './open.js';

const d = redisAvailable() ? describe : describe.skip;

d('bullmq backend', () => {
  let redis: TestRedis;
  let n = 0;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  describeQueueContract('bullmq', async (options) => {
    n += 1;
    return openBullmqQueues({
      redisUrl: redis.url,
      prefix: `t${n}`,
      lockMs: 1000,
      stalledIntervalMs: 500,
      pollIntervalMs: 20,
      ...options,
    });
  });
});
