import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect as connectTcp, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { keyStoreContract } from './key-store.contract.js';
import { RedisKeyStore } from './redis-key-store.js';

const REDIS_BIN = '/usr/bin/redis-server';
const required = (process.env.QUARRY_REQUIRE_SERVERS ?? '').split(',').map((s) => s.trim());
const available = existsSync(REDIS_BIN);

if (!available && required.includes('redis')) {
  describe('RedisKeyStore', () => {
    it('needs redis-server (QUARRY_REQUIRE_SERVERS includes redis)', () => {
      throw new Error(`${REDIS_BIN} is missing but QUARRY_REQUIRE_SERVERS requires redis`);
    });
  });
} else if (!available) {
  console.warn(`skipping RedisKeyStore tests: ${REDIS_BIN} not found`);
  describe.skip('RedisKeyStore', () => {
    it('needs redis-server', () => {});
  });
} else {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-redis-'));
  let server: ChildProcess | undefined;
  const clients: Redis[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit().catch(() => undefined)));
    server?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  keyStoreContract('Redis', async () => {
    const port = await freePort();
    server = spawn(REDIS_BIN, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      cwd: dir,
      stdio: 'ignore',
    });
    const connect = () => {
      const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1 });
      clients.push(client);
      return client;
    };
    await waitForPort(port);
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
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Resolves once something accepts TCP connections on the port (ioredis would retry silently). */
async function waitForPort(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connectTcp(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
