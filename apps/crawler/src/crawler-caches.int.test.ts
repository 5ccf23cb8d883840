import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '@quarry/core';
import { MemoryTtlStore, type RobotsRecord } from '@quarry/fetcher';
import { openSqliteQueues, type Queues } from '@quarry/queue';
import { type Site, startSite } from '@quarry/testkit';
import { pino } from 'pino';
import { Crawler } from './crawler.js';
import { parseSeed } from './seeds.js';

const page = (title: string, links: string[]) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${links
    .map((href) => `<a href="${href}">${href}</a>`)
    .join(' ')}<p>${title}: ${'Quarry reads this page. '.repeat(20)}</p></body></html>`;

describe('Crawler with shared caches', () => {
  let dir: string;
  let site: Site;
  let queues: Queues;
  const robots = new MemoryTtlStore<RobotsRecord>();
  const llms = new MemoryTtlStore<boolean>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-crawler-caches-'));
    site = await startSite({
      '/': { body: page('Home', ['/open.html', '/shared-says-no.html']) },
      '/open.html': { body: page('Open', []) },
      '/shared-says-no.html': { body: page('Blocked', []) },
      // What this site would answer itself: the shared store, filled by "another process", wins.
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
    });
    // Another process already fetched both files of this origin.
    await robots.set(site.origin, { kind: 'rules', body: 'User-agent: *\nDisallow: /shared-says-no.html\n' }, 60_000);
    await llms.set(site.origin, true, 60_000);
    const config = loadConfig({
      QUARRY_DATA_DIR: dir,
      QUARRY_ALLOW_HOSTS: '127.0.0.1',
      QUARRY_HOST_DELAY_MS: '0',
      LOG_LEVEL: 'silent',
    });
    queues = openSqliteQueues({ path: join(dir, 'queue.db'), hostDelayMs: 0 });
    const crawler = new Crawler({
      config,
      queues,
      logger: pino({ level: 'silent' }),
      extractThreads: 0,
      caches: { robots, llms },
    });
    await crawler.addSeeds([parseSeed(`${site.origin}/ depth=1 pages=10`)]);
    crawler.start();
    const deadline = Date.now() + 20_000;
    while (!(await queues.crawl.isIdle()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await crawler.close();
  }, 30_000);

  afterAll(async () => {
    await queues?.close();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers robots.txt and llms.txt from the stores without asking the site', async () => {
    expect(site.hits.get('/')).toBe(1);
    expect(site.hits.get('/open.html')).toBe(1);
    expect(site.hits.get('/shared-says-no.html')).toBeUndefined();
    expect(site.hits.get('/robots.txt')).toBeUndefined();
    expect(site.hits.get('/llms.txt')).toBeUndefined();
    const stats = await queues.crawl.stats();
    expect(stats.done).toBe(2);
    // The disallowed page, and the /sitemap.xml tried for the seed, which the site does not have.
    expect(stats.skipped).toBe(2);
    expect(stats.reasons.find((r) => r.reason === 'no_sitemap')?.examples).toEqual([`${site.origin}/sitemap.xml`]);
  });
});
