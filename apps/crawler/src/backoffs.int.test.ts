import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openBullmqQueues, openSqliteQueues, type Queues } from '@quarry/queue';
import { describeWithServer, type RedisServer, type Site, startRedis, startSite } from '@quarry/testkit';
import { pino } from 'pino';
import { Crawler } from './crawler.js';
import { parseSeed } from './seeds.js';
import { localCrawlConfig } from './testing.js';

/** A crawler names the host it backs off from after a 429, with the reason, for progress lines. */
describe('the hosts a crawler backs off from', () => {
  let site: Site;
  let dir: string;
  let queues: Queues;
  let crawler: Crawler;

  beforeAll(async () => {
    site = await startSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/': { status: 429, headers: { 'retry-after': '120' }, body: 'slow down' },
    });
    const local = localCrawlConfig('backoffs', '127.0.0.1');
    dir = local.dir;
    const config = local.config;
    queues = await openSqliteQueues({ path: join(dir, 'queue.db'), hostDelayMs: 0 });
    crawler = new Crawler({ config, queues, logger: pino({ level: 'silent' }), extractThreads: 0 });
    await crawler.addSeeds([parseSeed(`${site.origin}/`)]);
  });

  afterAll(async () => {
    await crawler?.close();
    await queues?.close();
    await site?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('names the host and why once it answered 429', async () => {
    expect(crawler.backingOff()).toEqual([]);
    crawler.start();
    const deadline = Date.now() + 10_000;
    while (crawler.backingOff().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(crawler.backingOff()).toEqual([{ host: '127.0.0.1', reason: 'http_429', untilMs: expect.any(Number) }]);
  });
});

/** Waits for `check` to hold, 15 s at most. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A site whose home page answers 429 (Retry-After 120 s) until `recover()`, then `home`; `pages` beside it. */
async function throttledSite(home: string, pages: Record<string, string> = {}) {
  let status = 429;
  const site = await startSite({
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
    '/': (_req, res) => {
      if (status === 429) res.writeHead(429, { 'retry-after': '120' }).end('slow down');
      else res.writeHead(200, { 'content-type': 'text/html' }).end(home);
    },
    ...Object.fromEntries(
      Object.entries(pages).map(([path, body]) => [path, { headers: { 'content-type': 'text/html' }, body }]),
    ),
  });
  return {
    site,
    recover: () => {
      status = 200;
    },
  };
}

/** Queues on a Redis server, retrying soon, as each crawler process and the dashboard open them. */
const queuesOn = (redis: RedisServer) =>
  openBullmqQueues({ redisUrl: redis.url, hostDelayMs: 0, retryBaseDelayMs: 50, maxRetryDelayMs: 200 });

/** In distributed mode the back-off is shared: a dashboard of another process reads it. */
describeWithServer('redis', 'the hosts a distributed crawler backs off from', () => {
  it('are on the queues’ shared board, for every process, until a task of the host ends otherwise', async () => {
    const { site, recover } = await throttledSite('<html><body><p>Back.</p></body></html>');
    const redis: RedisServer = await startRedis();
    const local = localCrawlConfig('backoffs-redis', '127.0.0.1');
    const [queues, dashboard] = await Promise.all([queuesOn(redis), queuesOn(redis)]);
    const crawler = new Crawler({ config: local.config, queues, logger: pino({ level: 'silent' }), extractThreads: 0 });
    try {
      await crawler.addSeeds([parseSeed(`${site.origin}/`)]);
      crawler.start();
      await until('the back-off shared', async () => ((await dashboard.backoffs?.current()) ?? []).length > 0);
      expect(await dashboard.backoffs?.current()).toEqual([
        { host: '127.0.0.1', reason: 'http_429', untilMs: expect.any(Number) },
      ]);
      // The host answers again: the next try ends the back-off for every process.
      recover();
      await until('the back-off cleared', async () => ((await dashboard.backoffs?.current()) ?? []).length === 0);
      expect(crawler.backingOff()).toEqual([]);
    } finally {
      await crawler.close();
      await Promise.all([queues.close(), dashboard.close()]);
      await redis.stop();
      await site.close();
      rmSync(local.dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('are cleared by a task of the host ending otherwise in another worker than the one that noted them', async () => {
    const page = (links: string) =>
      `<html><body><p>Back, with more to read about the river and its birds.</p>${links}</body></html>`;
    const { site, recover } = await throttledSite(page('<a href="/a">a</a> <a href="/b">b</a>'), {
      '/a': page(''),
      '/b': page(''),
    });
    const redis: RedisServer = await startRedis();
    const local = localCrawlConfig('backoffs-redis-other', '127.0.0.1');
    const [first, second, dashboard] = await Promise.all([queuesOn(redis), queuesOn(redis), queuesOn(redis)]);
    const crawler = (queues: Queues) =>
      new Crawler({ config: local.config, queues, logger: pino({ level: 'silent' }), extractThreads: 0 });
    const noting = crawler(first);
    const other = crawler(second);
    const board = async () => (await dashboard.backoffs?.current()) ?? [];
    try {
      await noting.addSeeds([parseSeed(`${site.origin}/`)]);
      noting.start();
      await until('the back-off shared', async () => (await board()).length > 0);
      // The worker that noted it stops; its Retry-After (120 s) would keep it on the board.
      await noting.close();
      recover();
      other.start();
      await until('the back-off cleared by the other worker', async () => (await board()).length === 0);
      expect(other.backingOff()).toEqual([]);
    } finally {
      await Promise.all([noting.close(), other.close()]);
      await Promise.all([first.close(), second.close(), dashboard.close()]);
      await redis.stop();
      await site.close();
      rmSync(local.dir, { recursive: true, force: true });
    }
  }, 40_000);
});
