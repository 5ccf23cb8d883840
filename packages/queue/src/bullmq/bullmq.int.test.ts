import { afterAll, beforeAll } from '@jest/globals';
import { describeWithServer, type RedisServer, startRedis } from '@quarry/testkit';
import { describeQueueContract } from '../contract.js';
import { openBullmqQueues } from './open.js';

describeWithServer('redis', 'bullmq backend', () => {
  let redis: RedisServer;
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
