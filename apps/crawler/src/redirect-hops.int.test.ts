import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileBlobStore } from '@quarry/blobstore';
import { LanceSearchIndex } from '@quarry/index-lance';
import { openSqliteQueues, type Queues } from '@quarry/queue';
import { type Route, type Site, startSite } from '@quarry/testkit';
import { parseSeed } from './seeds.js';
import { crawlUntilIdle, localCrawlConfig } from './testing.js';

/** A page's fetch deadline in the deadline suite, and how long its redirect targets' robots.txt take. */
const FETCH_DEADLINE_MS = 1000;
const SLOW_ROBOTS_MS = 900;

const page = (title: string, word: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${`The ${word} is the subject of this page, which is long enough to be kept as an article. `.repeat(8)}</p>` +
  '</article></body></html>';

const robotsTxt = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };
const moved = (location: string) => ({ status: 301, headers: { location }, body: '' });

describe("a page's fetch deadline, over its redirect hops' robots.txt checks", () => {
  let sites: Site[];
  let dir: string;
  let queues: Queues;
  let index: LanceSearchIndex;
  const outcomes: { state: string; reason: string | undefined; at: number }[] = [];
  /** When A's page was asked: the page's fetch had started. */
  let requestedAt = 0;

  beforeAll(async () => {
    // A redirects to B, B to C; B's and C's robots.txt each take most of the page's deadline.
    const slowRobots: Route = (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(robotsTxt.body);
      }, SLOW_ROBOTS_MS);
    };
    const c = await startSite(
      { '/robots.txt': slowRobots, '/p': { body: page('The end of the chain', 'shrike') } },
      { host: '127.0.0.36' },
    );
    const b = await startSite({ '/robots.txt': slowRobots, '/p': moved(`${c.origin}/p`) }, { host: '127.0.0.35' });
    const a = await startSite(
      {
        '/robots.txt': robotsTxt,
        '/p': (_req, res) => {
          requestedAt = Date.now();
          res.writeHead(301, { location: `${b.origin}/p` });
          res.end();
        },
      },
      { host: '127.0.0.34' },
    );
    sites = [a, b, c];
    const local = localCrawlConfig('redirect-deadline', sites.map((site) => site.host).join(','));
    dir = local.dir;
    // One try: the timeout (retryable) is recorded as the page's failure at once.
    queues = await openSqliteQueues({ path: join(dir, 'queue.db'), hostDelayMs: 0, maxAttempts: 1 });
    index = await LanceSearchIndex.open({ path: join(dir, 'index') });
    await crawlUntilIdle({
      config: local.config,
      queues,
      index,
      blobs: new FileBlobStore({ dir: join(dir, 'blobs') }),
      fetch: { totalTimeoutMs: FETCH_DEADLINE_MS },
      onOutcome: (state, reason) => outcomes.push({ state, reason, at: Date.now() }),
      queue: (crawler) => crawler.addSeeds([parseSeed(`${a.origin}/p depth=0 scope=any`)]),
    });
  }, 60_000);

  afterAll(async () => {
    await queues?.close();
    await index?.close();
    await Promise.all((sites ?? []).map((site) => site.close()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('fails the page with total_timeout by its deadline, not a robots.txt check after it', async () => {
    expect(outcomes.map(({ state, reason }) => [state, reason])).toEqual([['retry', 'total_timeout']]);
    const stats = await queues.crawl.stats();
    expect(stats.reasons.find((r) => r.state === 'failed')).toMatchObject({ reason: 'total_timeout', count: 1 });
    // From the page's request (the fetch's start) to the task's end: the deadline and some slack,
    // where waiting for B's robots.txt and then C's took 1.8 s.
    expect((outcomes[0]?.at ?? 0) - requestedAt).toBeLessThan(FETCH_DEADLINE_MS + 400);
  });
});
