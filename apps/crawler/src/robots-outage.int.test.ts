import { rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LanceSearchIndex } from '@quarry/index-lance';
import { parseQuery } from '@quarry/query';
import { openSqliteQueues, type Queues } from '@quarry/queue';
import { type Site, startSite } from '@quarry/testkit';
import { parseSeed } from './seeds.js';
import { crawlHosts } from './testing.js';

/** How long the crawler holds an unreachable robots.txt here (a minute by default). */
const ROBOTS_ERROR_TTL_MS = 600;

/**
 * A robots.txt that fails for a moment (a 503 while the site restarts): the page waits until the
 * robots cache asks again, and is crawled then. Tried 2 and 4 s later, its tries had read the one
 * cached answer, and the seed failed for good as `robots_unreachable` in 6 s.
 */
describe('a robots.txt down for a moment', () => {
  let site: Site;
  let dir: string;
  let queues: Queues;
  let index: LanceSearchIndex;
  const robotsAt: number[] = [];
  const pageAt: number[] = [];

  beforeAll(async () => {
    site = await startSite({
      '/robots.txt': (_req: IncomingMessage, res: ServerResponse) => {
        robotsAt.push(Date.now());
        if (robotsAt.length === 1) res.writeHead(503).end('restarting');
        else res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      },
      '/': (_req: IncomingMessage, res: ServerResponse) => {
        pageAt.push(Date.now());
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<html lang="en"><head><title>Back</title></head><body><article><h1>Back</h1><p>${'The serval is back once the site has restarted. '.repeat(10)}</p></article></body></html>`,
          );
      },
    });
    ({ dir, queues, index } = await crawlHosts(
      'robots-outage',
      '127.0.0.1',
      {
        robotsErrorTtlMs: ROBOTS_ERROR_TTL_MS,
        queue: (crawler) => crawler.addSeeds([parseSeed(`${site.origin}/ depth=0`)]),
      },
      // Retries of the queue's own come soon (10 ms, 20 ms): the robots cache decides when.
      async (queueDir) => openSqliteQueues({ path: join(queueDir, 'queue.db'), hostDelayMs: 0, retryBaseDelayMs: 10 }),
    ));
  }, 60_000);

  afterAll(async () => {
    await queues?.close();
    await index?.close();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks robots.txt again once its failure is no longer held, and crawls the page then', async () => {
    expect(robotsAt).toHaveLength(2);
    expect(robotsAt[1]! - robotsAt[0]!).toBeGreaterThanOrEqual(ROBOTS_ERROR_TTL_MS);
    expect(pageAt).toHaveLength(1);
    const hits = (await index.search({ query: parseQuery('serval'), limit: 10, offset: 0 })).hits;
    expect(hits.map((hit) => hit.url)).toEqual([`${site.origin}/`]);
    const stats = await queues.crawl.stats();
    expect(stats.failed).toBe(0);
  });
});
