import { rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pageIdForUrl } from '@quarry/core';
import type { LanceSearchIndex } from '@quarry/index-lance';
import type { Queues } from '@quarry/queue';
import { type Site, startSite } from '@quarry/testkit';
import { parseSeed } from './seeds.js';
import { crawlHosts, describeOnEachQueue } from './testing.js';

/** The live site's pages: its home page, and the three it leads to. */
const PAGES = ['/s2/', '/s2/a.html', '/s2/b.html', '/s2/c.html'];
/**
 * How soon the live site's pages are all asked, and the whole crawl over: it takes about a second
 * alone, and the dead port's seed is given up after its tries (each once the robots cache asks
 * robots.txt again, 300 ms here, and at least the queue's retries, 300 ms then 600 ms here, 2 s
 * then 4 s by default). A back-off of the whole host for the dead port's robots.txt held them 600 s.
 */
const ROBOTS_ERROR_TTL_MS = 300;
const RETRY_BASE_DELAY_MS = 300;
const LIVE_PAGES_WITHIN_MS = 10_000;
const CRAWL_WITHIN_MS = 25_000;

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${`The ${title} is the subject of this page, which is long enough to be kept as an article. `.repeat(8)}</p>` +
  `${body}</article></body></html>`;

/**
 * Two sites on one host, on different ports: one refuses connections, robots.txt included, and the
 * other is healthy. robots.txt is per origin (RFC 9309) and a port is a site of its own: the dead
 * one's robots.txt keeps its own pages out, never the other port's, and its seed is given up, as
 * `robots_unreachable`, seconds later rather than after 20 minutes of retries.
 */
function describeDeadPort(backend: string, open: (dir: string) => Promise<Queues>): void {
  describe(`a host whose one port refuses connections: ${backend}`, () => {
    let live: Site;
    let dead: string;
    const asked: { path: string; at: number }[] = [];
    let startedAt = 0;
    let crawlMs = 0;
    let dir: string;
    let queues: Queues;
    let index: LanceSearchIndex;

    beforeAll(async () => {
      const answer =
        (body: string, type = 'text/html') =>
        (req: IncomingMessage, res: ServerResponse) => {
          asked.push({ path: req.url ?? '/', at: Date.now() });
          res.writeHead(200, { 'content-type': type }).end(body);
        };
      live = await startSite({
        '/robots.txt': answer('User-agent: *\nAllow: /\n', 'text/plain'),
        '/s2/': answer(page('Home', '<a href="a.html">a</a> <a href="b.html">b</a>')),
        '/s2/a.html': answer(page('Aardvark', '<a href="c.html">c</a>')),
        '/s2/b.html': answer(page('Bongo', '')),
        '/s2/c.html': answer(page('Civet', '')),
      });
      // A port nothing listens on any more: connections to it are refused.
      const gone = await startSite({});
      dead = gone.origin;
      await gone.close();
      startedAt = Date.now();
      ({ dir, queues, index } = await crawlHosts(
        `robots-ports-${backend}`,
        '127.0.0.1',
        {
          // An unreachable robots.txt held 300 ms (a minute by default), so that its page's tries,
          // each after robots.txt may be asked again, end within the test.
          robotsErrorTtlMs: ROBOTS_ERROR_TTL_MS,
          // The dead port's seed queued first, as the audit gave them (on SQLite it is also leased first).
          queue: (crawler) => crawler.addSeeds([parseSeed(`${dead}/x`), parseSeed(`${live.origin}/s2/`)]),
        },
        open,
      ));
      crawlMs = Date.now() - startedAt;
    }, 90_000);

    afterAll(async () => {
      await queues?.close();
      await index?.close();
      await live?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("crawls the live port's pages at once, while the dead port's robots.txt is unreachable", async () => {
      const pages = asked.filter((r) => PAGES.includes(r.path));
      expect(pages.map((r) => r.path).sort()).toEqual(PAGES);
      expect(Math.max(...pages.map((r) => r.at)) - startedAt).toBeLessThan(LIVE_PAGES_WITHIN_MS);
      for (const path of PAGES) expect(await index.has(pageIdForUrl(`${live.origin}${path}`))).toBe(true);
    });

    it("gives the dead port's seed up as robots_unreachable after its tries, and the crawl ends seconds later", async () => {
      const stats = await queues.crawl.stats();
      expect(stats.done).toBe(PAGES.length);
      expect(stats.reasons.filter((r) => r.state === 'failed')).toEqual([
        { state: 'failed', reason: 'robots_unreachable', count: 1, examples: [`${dead}/x`] },
      ]);
      expect(crawlMs).toBeLessThan(CRAWL_WITHIN_MS);
    });
  });
}

describeOnEachQueue('robots-ports', describeDeadPort, { retryBaseDelayMs: RETRY_BASE_DELAY_MS });
