import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { describeWithServer, type RedisServer, startRedis } from '@quarry/testkit';
import { SHUTDOWN_DEADLINE_MS } from './commands/signals.js';
import { type RunningCli, requireBuiltCli, spawnCli } from './testing/run-cli.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Each test has a Redis of its own to take away, and a data dir of its own, so the three run at once:
// most of their time is waiting for clients to notice, reconnect and close.
describeWithServer('redis', 'quarry serve while its Redis is away', () => {
  let dir: string;
  let api: RunningCli | undefined;
  let start: RunningCli | undefined;
  let worker: RunningCli | undefined;
  const servers: RedisServer[] = [];
  /** A Redis for one test. An outage, not a loss: it comes back with its data (without it, the processes say so too). */
  const ownRedis = async () => {
    const redis = await startRedis({ appendOnly: true });
    servers.push(redis);
    return redis;
  };

  beforeAll(() => {
    requireBuiltCli();
    dir = mkdtempSync(join(tmpdir(), 'quarry-outage-'));
  });
  afterAll(async () => {
    for (const cli of [api, start, worker]) if (cli?.child.exitCode === null) cli.child.kill('SIGKILL');
    await Promise.all(servers.map((redis) => redis.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it.concurrent('answers 503 in seconds (searches and /healthz), logs a line per client and outage (no stack traces), and says when Redis is back', async () => {
    const redis = await ownRedis();
    api = spawnCli(['serve'], {
      REDIS_URL: redis.url,
      QUARRY_DATA_DIR: dir,
      PORT: '0',
      QUARRY_HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    });
    const base = await api.listening(60_000);
    expect((await fetch(`${base}/api/v1/search?q=anything`)).status).toBe(200);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    await redis.stop({ keepData: true });
    // ioredis tries to reconnect several times a second meanwhile.
    await sleep(3_000);
    const started = Date.now();
    const res = await fetch(`${base}/api/v1/search?q=anything`);
    const waited = Date.now() - started;
    expect(res.status).toBe(503);
    // Before, a request waited for ioredis's reconnection attempts, 9-15 s.
    expect(waited).toBeLessThan(6_000);
    // A replica that answers every search with a 503 is not healthy to a load balancer either.
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(503);
    expect(((await health.json()) as { detail: string }).detail).toMatch(/^Redis .* is not answering\.$/);

    await redis.restart();
    const until = Date.now() + 30_000;
    // The rate-limit counters' client, which every search waits on (another client may answer first).
    while (!/Redis \(rate limits\): answers again/.test(api.stdout) && Date.now() < until) await sleep(200);
    expect((await fetch(`${base}/api/v1/search?q=anything`)).status).toBe(200);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    const lines = api.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; err?: unknown });
    const outage = lines.filter((l) => /: error$/.test(l.msg));
    const errors = outage.map((l) => l.msg);
    // One line for each client that noticed, not one per reconnection attempt.
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.length).toBe(new Set(errors).size);
    expect(lines.map((l) => l.msg)).toContain('Redis (rate limits): answers again');
    expect(api.stderr).not.toMatch(/Unhandled error event|ECONNREFUSED|at TCPConnectWrap/);
    // The message alone: a stack trace says nothing about a connection refused.
    expect(outage.every((l) => typeof l.err === 'string')).toBe(true);
    expect(await api.stop()).toBe(0);
  }, 120_000);

  it.concurrent('quarry worker says when its Redis answers again, for the queues and the robots/llms cache alike', async () => {
    const redis = await ownRedis();
    worker = spawnCli(['worker'], { REDIS_URL: redis.url, QUARRY_DATA_DIR: join(dir, 'worker'), LOG_LEVEL: 'info' });
    const until = (pattern: RegExp, ms: number) => {
      const deadline = Date.now() + ms;
      return (async () => {
        while (!pattern.test(worker?.stdout ?? '') && Date.now() < deadline) await sleep(200);
        return pattern.test(worker?.stdout ?? '');
      })();
    };
    expect(await until(/quarry worker running/, 60_000)).toBe(true);
    await redis.stop({ keepData: true });
    expect(await until(/Redis \(queues\): error/, 30_000)).toBe(true);
    expect(await until(/Redis \(robots\/llms cache\): error/, 30_000)).toBe(true);
    await redis.restart();
    // Before, only the API's clients said so: a worker's log ended with its errors.
    expect(await until(/Redis \(queues\): answers again/, 30_000)).toBe(true);
    expect(await until(/Redis \(robots\/llms cache\): answers again/, 30_000)).toBe(true);
    expect(await worker.stop()).toBe(0);
  }, 120_000);

  it.concurrent('quarry start stopped while Redis is away exits within its shutdown deadline, naming what did not close if any', async () => {
    const redis = await ownRedis();
    start = spawnCli(['start'], {
      REDIS_URL: redis.url,
      QUARRY_DATA_DIR: join(dir, 'start'),
      PORT: '0',
      QUARRY_HOST: '127.0.0.1',
    });
    await start.listening(60_000);
    await redis.stop({ keepData: true });
    await sleep(1_000);
    const stopping = Date.now();
    // Before, the queues' Redis clients waited for their server to close: twenty minutes and more.
    // Every part now closes without it (16 s measured: the crawler's 10 s for its page in flight);
    // a part that does not is named, and the process exits 1 at the deadline.
    const code = await start.stop();
    expect(Date.now() - stopping).toBeLessThan(SHUTDOWN_DEADLINE_MS + 10_000);
    expect([0, 1]).toContain(code);
    if (code === 1) expect(start.stderr).toMatch(/quarry: the \w[\w ]* did not close within 25 s; exiting/);
    else expect(start.stderr).not.toMatch(/did not close/);
    await redis.restart();
  }, 120_000);
});
