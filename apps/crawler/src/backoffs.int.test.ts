import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openSqliteQueues, type Queues } from '@quarry/queue';
import { type Site, startSite } from '@quarry/testkit';
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
