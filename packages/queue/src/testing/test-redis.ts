import { afterAll, beforeAll } from '@jest/globals';
import { type RedisServer, startRedis } from '@quarry/testkit';
import { Redis } from 'ioredis';
import { openBullmqQueues } from '../bullmq/open.js';
import type { Queues } from '../types.js';

/** A Redis server of a suite's own and a client to read its keys, ready from the suite's beforeAll. */
export interface TestRedis {
  readonly url: string;
  readonly client: Redis;
  /** BullMQ queues under `prefix`, quick to notice a stalled job (lock 1 s, checked every 0.5 s). */
  open(prefix: string): Promise<Queues>;
}

/**
 * Starts a Redis server for the calling `describe` (in its beforeAll) and stops it after (afterAll),
 * with a client for the tests to read the keys the queue writes.
 */
export function useTestRedis(): TestRedis {
  let server: RedisServer | undefined;
  let client: Redis | undefined;
  beforeAll(async () => {
    server = await startRedis();
    client = new Redis(server.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await server?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the test Redis is started in beforeAll');
    return value;
  };
  return {
    get url() {
      return started(server).url;
    },
    get client() {
      return started(client);
    },
    open: (prefix) =>
      openBullmqQueues({ redisUrl: started(server).url, prefix, hostDelayMs: 0, lockMs: 1000, stalledIntervalMs: 500 }),
  };
}
