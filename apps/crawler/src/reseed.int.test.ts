import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileBlobStore } from '@quarry/blobstore';
import type { QuarryConfig } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import type { Queues } from '@quarry/queue';
import { type Route, type Site, startSite } from '@quarry/testkit';
import type { SeedStanding } from './crawler.js';
import { parseSeed } from './seeds.js';
import { crawlUntilIdle, describeOnEachQueue, localCrawlConfig } from './testing.js';

/**
 * A site of a home page linking sections 0–5, each linking two pages of its own. Every page has an
 * ETag and answers a request that names it with 304, as a real server does.
 */
function routes(): Record<string, Route> {
  const page =
    (title: string, links: string[]): Route =>
    (req, res) => {
      const etag = `"${title.replace(/\s+/g, '-')}"`;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag });
      res.end(
        `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
          `<p>${`The ${title} page of the heron site tells about herons and their lakes. `.repeat(8)}</p>` +
          `${links.map((href) => `<a href="${href}">${href}</a>`).join(' ')}</article></body></html>`,
      );
    };
  const sections = [0, 1, 2, 3, 4, 5];
  const site: Record<string, Route> = {
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: '' },
    '/': page(
      'Home',
      sections.map((i) => `/s${i}`),
    ),
  };
  for (const i of sections) {
    site[`/s${i}`] = page(`Section ${i}`, [`/s${i}/a`, `/s${i}/b`]);
    site[`/s${i}/a`] = page(`Page ${i}a`, []);
    site[`/s${i}/b`] = page(`Page ${i}b`, []);
  }
  return site;
}

/**
 * A seed given again with a larger page budget or depth than it was crawled with: its pages are
 * queued again under the new settings and the crawl goes on where the old ones stopped it; given
 * with as much or less, it is left alone.
 */
describeOnEachQueue('reseed', (backend, open) => {
  describe(`a seed given again with a larger budget or depth (${backend})`, () => {
    let site: Site;
    let dir: string;
    let config: QuarryConfig;
    let queues: Queues;
    let index: LanceSearchIndex;
    /** Requests for the six sections, and for any page but robots.txt, so far. */
    const fetched = (only?: RegExp): number =>
      [...site.hits]
        .filter(([path]) => path !== '/robots.txt' && (!only || only.test(path)))
        .reduce((n, [, k]) => n + k, 0);

    beforeAll(async () => {
      site = await startSite(routes());
      const local = localCrawlConfig(`reseed-${backend}`, '127.0.0.1');
      dir = local.dir;
      config = local.config;
      queues = await open(dir);
      index = await LanceSearchIndex.open({ path: join(dir, 'index') });
    }, 60_000);
    afterAll(async () => {
      await queues?.close();
      await index?.close();
      await site?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const crawl = async (line: string): Promise<SeedStanding[]> => {
      let standings: SeedStanding[] = [];
      await crawlUntilIdle({
        config,
        queues,
        index,
        blobs: new FileBlobStore({ dir: join(dir, 'blobs') }),
        queue: async (crawler) => {
          standings = await crawler.reseed([parseSeed(`${site.origin}/ ${line}`)]);
        },
      });
      return standings;
    };
    const indexed = async (): Promise<number> => (await queues.crawl.stats()).done;

    it('goes deeper, then further, and leaves a seed asked for less alone', async () => {
      // Depth 1: the home page and its six sections.
      expect((await crawl('depth=1 pages=100'))[0]).toMatchObject({ state: 'new' });
      expect(await indexed()).toBe(7);

      // Depth 2: the sections are read again (whole, not answered 304: a page not modified is not
      // read for its links) and their pages crawled, up to a budget of 12 pages for the site.
      const sections = fetched(/^\/s\d$/);
      const deeper = await crawl('depth=2 pages=12');
      expect(deeper[0]).toMatchObject({ state: 'done', requeued: true, widened: { pages: expect.any(Number) } });
      expect(await indexed()).toBe(12);
      expect(fetched(/^\/s\d$/) - sections).toBe(6);

      // A larger budget: the rest.
      const further = await crawl('depth=2 pages=100');
      expect(further[0]).toMatchObject({ requeued: true, widened: { pages: expect.any(Number) } });
      expect(await indexed()).toBe(19);

      // As much or less: left alone, nothing fetched.
      const before = fetched();
      for (const line of ['depth=2 pages=100', 'depth=1 pages=5', 'depth=0 pages=100 scope=prefix']) {
        const [alone] = await crawl(line);
        expect(alone).toMatchObject({ state: 'done', requeued: false });
        expect(alone && 'widened' in alone ? alone.widened : undefined).toBeUndefined();
      }
      expect(fetched()).toBe(before);
    }, 120_000);
  });
});
