import { afterAll } from '@jest/globals';
import { describeWithServer, type RedisServer, startRedis } from '@quarry/testkit';
import { Redis } from 'ioredis';
import { keyStoreContract } from './key-store.contract.js';
import { RedisKeyStore } from './redis-key-store.js';

describeWithServer('redis', 'RedisKeyStore', () => {
  let server: RedisServer | undefined;
  const clients: Redis[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit().catch(() => undefined)));
    await server?.stop();
  });

  keyStoreContract('Redis', async () => {
    server = await startRedis();
    const { port } = server;
    const connect = () => {
      const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1 });
      clients.push(client);
      return client;
    };
    const admin = connect();
    await admin.connect();
    const prefix = 'test:keys:';
    return {
      // A connection per store, as in two API replicas.
      open: async () => new RedisKeyStore({ redis: connect(), prefix }),
      dumpStored: async () => {
        const out: string[] = [];
        for (const key of await admin.keys(`${prefix}*`)) {
          out.push(key);
          const type = await admin.type(key);
          if (type === 'string') out.push((await admin.get(key)) ?? '');
          else if (type === 'hash') out.push(JSON.stringify(await admin.hgetall(key)));
          else if (type === 'zset') out.push(JSON.stringify(await admin.zrange(key, '0', '-1')));
        }
        return out.join('\n');
      },
    };
  });
});
