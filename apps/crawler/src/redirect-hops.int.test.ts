import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pageIdForUrl } from '@quarry/core';
import type { LanceSearchIndex } from '@quarry/index-lance';
import { openSqliteQueues, type Queues } from '@quarry/queue';
import { type Route, type Site, startSite } from '@quarry/testkit';
import { parseSeed } from './seeds.js';
import { crawlHosts } from './testing.js';

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
    // One try: the timeout (retryable) is recorded as the page's failure at once.
    ({ dir, queues, index } = await crawlHosts(
      'redirect-deadline',
      sites.map((site) => site.host).join(','),
      {
        fetch: { totalTimeoutMs: FETCH_DEADLINE_MS },
        onOutcome: (state, reason) => outcomes.push({ state, reason, at: Date.now() }),
        queue: (crawler) => crawler.addSeeds([parseSeed(`${a.origin}/p depth=0 scope=any`)]),
      },
      async (queueDir) => openSqliteQueues({ path: join(queueDir, 'queue.db'), hostDelayMs: 0, maxAttempts: 1 }),
    ));
  }, 60_000);

  afterAll(async () => {
    await queues?.close();
    await index?.close();
    await Promise.all((sites ?? []).map((site) => site.close()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('fails the page with total_timeout by its deadline, not a robots.txt check after it', async () => {
    // Its one try (maxAttempts 1) was its last: a failure, as the queue counts it, not a retry.
    expect(outcomes.map(({ state, reason }) => [state, reason])).toEqual([['failed', 'total_timeout']]);
    const stats = await queues.crawl.stats();
    expect(stats.reasons.find((r) => r.state === 'failed')).toMatchObject({ reason: 'total_timeout', count: 1 });
    // From the page's request (the fetch's start) to the task's end: the deadline and some slack,
    // where waiting for B's robots.txt and then C's took 1.8 s.
    expect((outcomes[0]?.at ?? 0) - requestedAt).toBeLessThan(FETCH_DEADLINE_MS + 400);
  });
});

/** How long the slow site takes over each answer. */
const SLOW_MS = 600;

/**
 * A site answering every request `SLOW_MS` late from `routes` (a page, or where it redirects),
 * noting each request that came while others were unanswered.
 */
async function slowSite(host: string, routes: Record<string, string | { location: string }>) {
  const overlaps: string[] = [];
  let inFlight: string[] = [];
  const site = await startSite(
    {},
    {
      host,
      fallback: (req, res) => {
        const path = req.url ?? '/';
        if (inFlight.length > 0) overlaps.push(`${path} while ${inFlight.join(', ')}`);
        inFlight.push(path);
        setTimeout(() => {
          inFlight = inFlight.filter((p) => p !== path);
          const route = path === '/robots.txt' ? robotsTxt.body : routes[path];
          if (route === undefined) {
            res.writeHead(404, { 'content-type': 'text/html' });
            res.end('<h1>Not found</h1>');
          } else if (typeof route === 'string') {
            res.writeHead(200, { 'content-type': path === '/robots.txt' ? 'text/plain' : 'text/html' });
            res.end(route);
          } else {
            res.writeHead(302, { location: route.location });
            res.end();
          }
        }, SLOW_MS);
      },
    },
  );
  return { site, overlaps, routes };
}

describe('one request in flight per host, redirect hops and robots.txt included', () => {
  let slow: Awaited<ReturnType<typeof slowSite>>;
  let movers: Site[];
  let bouncer: Site;
  let dir: string;
  let queues: Queues;
  let index: LanceSearchIndex;

  beforeAll(async () => {
    slow = await slowSite('127.0.0.30', {
      '/own.html': page('Own page', 'kestrel'),
      '/a.html': page('Page A', 'merlin'),
      '/b.html': page('Page B', 'hobby'),
      // A host redirecting to itself, and a bounce back to the site that sent the crawler here.
      '/self': { location: '/self-2' },
      '/self-2': page('Moved on the same site', 'lanner'),
    });
    movers = await Promise.all(
      ['a', 'b'].map((name, i) =>
        startSite(
          { '/robots.txt': robotsTxt, '/moved': moved(`${slow.site.origin}/${name}.html`) },
          {
            host: `127.0.0.${31 + i}`,
          },
        ),
      ),
    );
    bouncer = await startSite(
      {
        '/robots.txt': robotsTxt,
        '/go': moved(`${slow.site.origin}/out`),
        '/home.html': { body: page('Home again', 'saker') },
      },
      { host: '127.0.0.33' },
    );
    slow.routes['/out'] = { location: `${bouncer.origin}/home.html` };
    const hosts = ['127.0.0.30', '127.0.0.31', '127.0.0.32', '127.0.0.33'].join(',');
    ({ dir, queues, index } = await crawlHosts('in-flight', hosts, {
      queue: (crawler) =>
        crawler.addSeeds([
          parseSeed(`${slow.site.origin}/own.html depth=0`),
          parseSeed(`${slow.site.origin}/self depth=0`),
          ...movers.map((mover) => parseSeed(`${mover.origin}/moved depth=0`)),
          parseSeed(`${bouncer.origin}/go depth=0 scope=any`),
        ]),
    }));
  }, 90_000);

  afterAll(async () => {
    await queues?.close();
    await index?.close();
    await Promise.all([slow?.site, ...(movers ?? []), bouncer].map((site) => site?.close()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('never sends the slow host a request while another is unanswered', () => {
    expect(slow.overlaps).toEqual([]);
  });

  it('crawls every page, through redirects to the host itself and back to the sender', async () => {
    const stats = await queues.crawl.stats();
    expect(stats.failed).toBe(0);
    for (const url of [
      `${slow.site.origin}/own.html`,
      `${slow.site.origin}/a.html`,
      `${slow.site.origin}/b.html`,
      `${slow.site.origin}/self-2`,
      `${bouncer.origin}/home.html`,
    ]) {
      expect([url, await index.has(pageIdForUrl(url))]).toEqual([url, true]);
    }
  });
});
