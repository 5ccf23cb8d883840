import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ConfigError } from '@quarry/core';
import { describeWithServer, type RedisServer, startRedis } from '@quarry/testkit';
import { Redis } from 'ioredis';
import { task } from '../contract/helpers.js';
import { openBullmqQueues } from './open.js';

describeWithServer('redis', "bullmq: the Redis URL's database number", () => {
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  const keysIn = async (db: number): Promise<string[]> => {
    const client = new Redis(`${redis.url}/${db}`);
    try {
      return await client.keys('*');
    } finally {
      client.disconnect();
    }
  };

  it('works in the database the URL names', async () => {
    const queues = await openBullmqQueues({ redisUrl: `${redis.url}/3`, prefix: 'dbtest', hostDelayMs: 0 });
    try {
      await queues.crawl.add([task('https://a.example/')]);
    } finally {
      await queues.close();
    }
    expect((await keysIn(3)).some((k) => k.startsWith('dbtest:'))).toBe(true);
    expect((await keysIn(0)).filter((k) => k.startsWith('dbtest:'))).toEqual([]);
  });

  it('refuses to open on a database the server refuses, instead of writing to database 0', async () => {
    // redis-server has 16 databases unless configured otherwise.
    const opening = openBullmqQueues({ redisUrl: `${redis.url}/99`, prefix: 'dbrefused', hostDelayMs: 0 });
    await expect(opening).rejects.toBeInstanceOf(ConfigError);
    await expect(opening).rejects.toThrow(/REDIS_URL names database 99, which this Redis refuses/);
    expect((await keysIn(0)).filter((k) => k.startsWith('dbrefused:'))).toEqual([]);
  });
});
