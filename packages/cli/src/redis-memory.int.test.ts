import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { describeWithServer, type RedisServer, startRedis } from '@quarry/testkit';
import { Redis } from 'ioredis';
import { type RunningCli, requireBuiltCli, runCli, spawnCli } from './testing/run-cli.js';

describeWithServer('redis', 'quarry with a Redis at its maxmemory', () => {
  let redis: RedisServer;
  let client: Redis;
  let dir: string;
  let api: RunningCli | undefined;

  /** Sets maxmemory well below what Redis uses: every write is refused (policy noeviction). */
  const fillUp = async () => {
    const used = Number(/^used_memory:(\d+)/m.exec(await client.info('memory'))?.[1]);
    await client.config('SET', 'maxmemory', String(Math.floor(used / 2)));
  };

  beforeAll(async () => {
    requireBuiltCli();
    redis = await startRedis();
    client = new Redis(redis.url);
    dir = mkdtempSync(join(tmpdir(), 'quarry-oom-'));
  });
  afterAll(async () => {
    if (api?.child.exitCode === null) api.child.kill('SIGKILL');
    client?.disconnect();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a command that cannot queue says Redis is out of memory and what to do, not its raw reply', async () => {
    await fillUp();
    try {
      const run = await runCli(['crawl', '--seed', 'https://example.com/'], {
        REDIS_URL: redis.url,
        QUARRY_DATA_DIR: dir,
        LOG_LEVEL: 'silent',
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /^quarry: Redis is out of memory \(maxmemory [\d.]+[KMG]?, policy noeviction\) and refuses every write/m,
      );
      expect(run.stderr).not.toMatch(/OOM command|EXECABORT/);
    } finally {
      await client.config('SET', 'maxmemory', '0');
    }
  }, 60_000);

  it('/healthz answers 503 naming Redis memory while searches cannot be counted, 200 once it takes writes', async () => {
    api = spawnCli(['serve'], {
      REDIS_URL: redis.url,
      QUARRY_DATA_DIR: join(dir, 'serve'),
      PORT: '0',
      QUARRY_HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
    });
    const base = await api.listening(60_000);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    await fillUp();
    try {
      expect((await fetch(`${base}/api/v1/search?q=anything`)).status).toBe(503);
      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(503);
      // Before, /healthz only sent PING, which a full Redis answers: 200 while every search was a 503.
      expect(((await health.json()) as { detail: string }).detail).toMatch(
        /^Redis \(rate limits and keys\): Redis is out of memory \(maxmemory [\d.]+[KMG]?, policy noeviction\)/,
      );
    } finally {
      await client.config('SET', 'maxmemory', '0');
    }
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/api/v1/search?q=anything`)).status).toBe(200);
    expect(await api.stop()).toBe(0);
  }, 120_000);
});
