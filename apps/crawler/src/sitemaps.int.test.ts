import { rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileBlobStore } from '@quarry/blobstore';
import { pageIdForUrl } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import { parseQuery } from '@quarry/query';
import type { Queues } from '@quarry/queue';
import { type Site, startSite } from '@quarry/testkit';
import { parseSeed } from './seeds.js';
import { crawlUntilIdle, describeOnEachQueue, localCrawlConfig } from './testing.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The Crawl-delay the paced site asks for (half a second: robots.txt's delays may be fractional,
 * and each of the site's dozen requests waits one), and the slack allowed for timers and the loopback.
 */
const CRAWL_DELAY_MS = 500;
const SLACK_MS = 50;
/** How long the slow sitemap keeps its answer back. */
const STALL_MS = 1000;

const send =
  (type: string, body: () => string): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': type }).end(body());
  };

const page = (title: string, word: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${`The ${word} is the subject of this page, which is long enough to be kept as an article. `.repeat(8)}</p>` +
  '</article></body></html>';

const urlset = (urls: string[]) =>
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`;

/**
 * A seed's sitemaps go through the crawl queue: the site's Crawl-delay spaces them (an index's
 * sitemaps too), the seed page does not wait for a slow one, their pages are crawled without taking
 * the page budget from them, and a `/sitemap.xml` that is missing, or a page, is skipped quietly.
 */
function describeSitemaps(backend: string, open: (dir: string) => Promise<Queues>): void {
  describe(`a seed's sitemaps as tasks of the crawl queue: ${backend}`, () => {
    let paced: Site;
    let missing: Site;
    let htmlOnly: Site;
    let dir: string;
    let queues: Queues;
    let index: LanceSearchIndex;
    /** Every request to the paced site, in the order it arrived. */
    const requests: { path: string; at: number }[] = [];
    let slowAnsweredAt = 0;

    beforeAll(async () => {
      const at = (path: string) => `${paced.origin}${path}`;
      const routes: Record<string, Handler> = {
        '/robots.txt': send(
          'text/plain',
          () =>
            `User-agent: *\nCrawl-delay: ${CRAWL_DELAY_MS / 1000}\n` +
            `Sitemap: ${at('/pages.xml')}\nSitemap: ${at('/index.xml')}\nSitemap: ${at('/slow.xml')}\n`,
        ),
        '/pages.xml': send('application/xml', () => urlset([at('/a.html')])),
        '/index.xml': send(
          'application/xml',
          () =>
            '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
            `<sitemap><loc>${at('/part-1.xml')}</loc></sitemap><sitemap><loc>${at('/part-2.xml.gz')}</loc></sitemap>` +
            '</sitemapindex>',
        ),
        '/part-1.xml': send('application/xml', () => urlset([at('/b.html')])),
        // A gzip file, not a gzip content-coding: the crawler unpacks it itself.
        '/part-2.xml.gz': (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(urlset([at('/c.html')])));
        },
        '/slow.xml': (_req, res) => {
          setTimeout(() => {
            slowAnsweredAt = Date.now();
            res.writeHead(200, { 'content-type': 'application/xml' }).end(urlset([at('/d.html')]));
          }, STALL_MS);
        },
        '/': send('text/html', () => page('Paced home', 'heron')),
        '/a.html': send('text/html', () => page('Page A', 'aardvark')),
        '/b.html': send('text/html', () => page('Page B', 'bandicoot')),
        '/c.html': send('text/html', () => page('Page C', 'caracal')),
        '/d.html': send('text/html', () => page('Page D', 'dugong')),
      };
      paced = await startSite(
        {},
        {
          fallback: (req, res) => {
            const path = req.url ?? '/';
            requests.push({ path, at: Date.now() });
            const route = routes[path];
            if (route) route(req, res);
            else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
          },
        },
      );
      // Sites on hosts of their own (politeness is per host name), with no sitemap at /sitemap.xml.
      const noSitemaps = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };
      missing = await startSite(
        { '/robots.txt': noSitemaps, '/': { body: page('Missing home', 'gannet') } },
        { host: '127.0.0.2' },
      );
      htmlOnly = await startSite(
        {
          '/robots.txt': noSitemaps,
          '/': { body: page('HTML home', 'puffin') },
          '/sitemap.xml': { body: page('Sitemap placeholder', 'kittiwake') },
        },
        { host: '127.0.0.3' },
      );
      const local = localCrawlConfig('sitemaps', '127.0.0.1,127.0.0.2,127.0.0.3');
      dir = local.dir;
      const config = local.config;
      queues = await open(dir);
      index = await LanceSearchIndex.open({ path: join(dir, 'index') });
      await crawlUntilIdle({
        config,
        queues,
        index,
        blobs: new FileBlobStore({ dir: join(dir, 'blobs') }),
        // Five pages: the home page and the four the sitemaps list, one level below it.
        queue: (crawler) =>
          crawler.addSeeds([
            parseSeed(`${paced.origin}/ depth=1 pages=5`),
            parseSeed(`${missing.origin}/ depth=1`),
            parseSeed(`${htmlOnly.origin}/ depth=1`),
          ]),
      });
    }, 90_000);

    afterAll(async () => {
      await queues?.close();
      await index?.close();
      await Promise.all([paced?.close(), missing?.close(), htmlOnly?.close()]);
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const urlsFor = async (word: string) =>
      (await index.search({ query: parseQuery(word), limit: 10, offset: 0 })).hits.map((hit) => hit.url);
    const sitemapRequests = () => requests.filter((r) => /\.xml(?:\.gz)?$/.test(r.path));

    it("spaces the sitemap requests, an index's sitemaps too, by the site's Crawl-delay", () => {
      const sitemaps = sitemapRequests();
      expect(sitemaps.map((r) => r.path).sort()).toEqual([
        '/index.xml',
        '/pages.xml',
        '/part-1.xml',
        '/part-2.xml.gz',
        '/slow.xml',
      ]);
      const gaps = sitemaps.slice(1).map((r, i) => r.at - (sitemaps[i]?.at ?? 0));
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(CRAWL_DELAY_MS - SLACK_MS);
    });

    it('fetches the seed page first, without waiting for a slow sitemap', () => {
      const seedAt = requests.find((r) => r.path === '/')?.at ?? Number.POSITIVE_INFINITY;
      expect(seedAt).toBeLessThan(slowAnsweredAt);
      expect(seedAt).toBeLessThan(Math.min(...sitemapRequests().map((r) => r.at)));
    });

    it('crawls and indexes the pages the sitemaps list, within the page budget, but not the sitemaps', async () => {
      expect(await urlsFor('aardvark')).toEqual([`${paced.origin}/a.html`]);
      expect(await urlsFor('bandicoot')).toEqual([`${paced.origin}/b.html`]);
      expect(await urlsFor('caracal')).toEqual([`${paced.origin}/c.html`]);
      expect(await urlsFor('dugong')).toEqual([`${paced.origin}/d.html`]);
      for (const { path } of sitemapRequests())
        expect(await index.has(pageIdForUrl(`${paced.origin}${path}`))).toBe(false);
      const stats = await queues.crawl.stats();
      expect(stats.reasons.find((r) => r.state === 'skipped' && r.reason === 'link_list')?.count).toBe(5);
    });

    it('skips a missing /sitemap.xml, or one that is an HTML page, with no failure and nothing indexed', async () => {
      expect(missing.hits.get('/sitemap.xml')).toBe(1);
      expect(htmlOnly.hits.get('/sitemap.xml')).toBe(1);
      expect(await urlsFor('kittiwake')).toEqual([]);
      expect(await urlsFor('gannet')).toEqual([`${missing.origin}/`]);
      expect(await urlsFor('puffin')).toEqual([`${htmlOnly.origin}/`]);
      const stats = await queues.crawl.stats();
      expect(stats.failed).toBe(0);
      const skipped = stats.reasons.find((r) => r.state === 'skipped' && r.reason === 'no_sitemap');
      expect(skipped?.count).toBe(2);
      expect(skipped?.examples).toEqual(
        expect.arrayContaining([`${missing.origin}/sitemap.xml`, `${htmlOnly.origin}/sitemap.xml`]),
      );
    });
  });
}

describeOnEachQueue('map', describeSitemaps);
