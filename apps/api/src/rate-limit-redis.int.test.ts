import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { describeWithServer, type RedisServer, startRedis } from '@quarry/testkit';
import { Redis } from 'ioredis';
import { RedisStore } from 'rate-limit-redis';
import request from 'supertest';
import { createApp } from './app.js';
import { createFixture, type Fixture } from './test-support/fixture.js';
import { specProblems } from './test-support/openapi-validator.js';

const SEARCH = '/api/v1/search';

describeWithServer('redis', 'rate limits shared through Redis (distributed mode)', () => {
  let redis: RedisServer;
  let redisStopped = false;
  let fx: Fixture;
  const clients: Redis[] = [];

  /** One API replica: its own Redis connection and stores, as `quarry serve` builds them. */
  function replica(limit: number) {
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1, disconnectTimeout: 100 });
    clients.push(client);
    const sendCommand = (...args: string[]) =>
      client.call(args[0] ?? '', ...args.slice(1)) as Promise<number | string | (number | string)[]>;
    return createApp(
      fx.deps(
        { QUARRY_RATE_LIMIT_PUBLIC: String(limit) },
        {
          rateLimitStore: new RedisStore({ sendCommand, prefix: 'test:rl:ip:' }),
          keyRateLimitStore: new RedisStore({ sendCommand, prefix: 'test:rl:key:' }),
        },
      ),
    );
  }

  beforeAll(async () => {
    redis = await startRedis();
    fx = await createFixture();
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await fx?.cleanup();
    if (!redisStopped) await redis?.stop();
  });

  it('counts one client across replicas, and answers 503 when Redis is gone', async () => {
    const a = replica(3);
    const b = replica(3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const codes: number[] = [];
    for (const app of [a, b, a, b]) {
      const res = await request(app).get(`${SEARCH}?q=quarry`);
      expect(specProblems(res, SEARCH)).toEqual([]);
      codes.push(res.status);
    }
    expect(codes).toEqual([200, 200, 200, 429]);
    await redis.stop();
    redisStopped = true;
    const down = await request(a).get(`${SEARCH}?q=quarry`);
    expect(specProblems(down, SEARCH)).toEqual([]);
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toBeDefined();
  });
});
