import { rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApp, createMcpBackend } from '@quarry/api';
import { FileBlobStore } from '@quarry/blobstore';
import type { QuarryConfig } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import { crawledInstead, openSqliteQueues, type Queues } from '@quarry/queue';
import { type Route, type Site, startSite } from '@quarry/testkit';
import { pino } from 'pino';
import request from 'supertest';
import { parseSeed } from './seeds.js';
import { crawlUntilIdle, localCrawlConfig } from './testing.js';

/** An article of its own words, under its title. */
const article = (title: string, topic: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><article><h1>${title}</h1>${Array.from(
    { length: 12 },
    (_, i) =>
      `<p>Note ${i + 1} on the ${topic}: the keepers counted them at dawn, compared the tallies with last season and wrote down the weather.</p>`,
  ).join('')}</article></body></html>`;

const html =
  (body: string) =>
  (_req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  };

/**
 * A site whose front page links to four copies: the same text at a second URL, a page naming its
 * canonical, a moved page (301) and a page that moves by an instant meta refresh.
 */
const routes: Record<string, Route> = {
  '/': html(
    '<!doctype html><html lang="en"><head><title>Zoo</title></head><body><main><p>The zoo, its keepers and their notes.</p><ul>' +
      ['/otters.html', '/otters.html?view=print', '/amp/lynx.html', '/old/heron.html', '/go/ibis.html']
        .map((href) => `<li><a href="${href}">${href}</a></li>`)
        .join('') +
      '</ul></main></body></html>',
  ),
  '/otters.html': html(article('Otters', 'otter holt by the river')),
  '/otters.html?view=print': html(article('Otters', 'otter holt by the river')),
  '/amp/lynx.html': html(article('Lynx', 'lynx in the birch wood', '<link rel="canonical" href="/lynx.html">')),
  '/lynx.html': html(article('Lynx', 'lynx in the birch wood')),
  '/old/heron.html': (_req, res) => {
    res.writeHead(301, { location: '/heron.html' }).end();
  },
  '/heron.html': html(article('Herons', 'heron at the pond')),
  '/go/ibis.html': html(
    '<!doctype html><html><head><meta http-equiv="refresh" content="0; url=/ibis.html"><title>Moved</title></head><body></body></html>',
  ),
  '/ibis.html': html(article('Ibis', 'ibis on the mud flats')),
};

describe('a URL the crawl skipped as a copy finds the page crawled in its place', () => {
  let site: Site;
  let dir: string;
  let config: QuarryConfig;
  let queues: Queues;
  let index: LanceSearchIndex;
  let blobs: FileBlobStore;

  beforeAll(async () => {
    site = await startSite(routes);
    ({ dir, config } = localCrawlConfig('crawled-instead', '127.0.0.1'));
    queues = openSqliteQueues({ path: join(dir, 'queue.db'), hostDelayMs: 0 });
    index = await LanceSearchIndex.open({ path: join(dir, 'index') });
    blobs = new FileBlobStore({ dir: join(dir, 'blobs') });
    await crawlUntilIdle({
      config,
      queues,
      index,
      blobs,
      queue: (crawler) => crawler.addSeeds([parseSeed(`${site.origin}/ depth=2 pages=50`)]),
    });
  }, 90_000);

  afterAll(async () => {
    await queues?.close();
    await index?.close();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const COPIES = [
    ['/otters.html?view=print', '/otters.html'],
    ['/amp/lynx.html', '/lynx.html'],
    ['/old/heron.html', '/heron.html'],
    ['/go/ibis.html', '/ibis.html'],
  ] as const;

  it('is recorded by the crawl for each kind of copy', async () => {
    for (const [copy, original] of COPIES) {
      expect(await crawledInstead(queues.crawl, `${site.origin}${copy}`)).toBe(`${site.origin}${original}`);
    }
    // The other scheme is the same page; a page crawled as itself, or never crawled, has none.
    expect(await crawledInstead(queues.crawl, `https://${site.origin.slice('http://'.length)}/amp/lynx.html`)).toBe(
      `${site.origin}/lynx.html`,
    );
    expect(await crawledInstead(queues.crawl, `${site.origin}/lynx.html`)).toBeNull();
    expect(await crawledInstead(queues.crawl, `${site.origin}/never.html`)).toBeNull();
    expect(await crawledInstead(queues.crawl, 'not a url')).toBeNull();
  });

  const deps = () => ({
    config,
    index,
    blobs,
    logger: pino({ level: 'silent' }),
    crawledInsteadOf: (url: string) => crawledInstead(queues.crawl, url),
  });

  it('answers a URL query with that page, as the one result', async () => {
    const app = createApp(deps());
    for (const [copy, original] of COPIES) {
      const res = await request(app)
        .get('/api/v1/search')
        .query({ q: `${site.origin}${copy}` });
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: { url: string }) => r.url)).toEqual([`${site.origin}${original}`]);
    }
    // Without the crawl's record (an API that has none), the copy's URL is searched as words.
    const bare = createApp({ ...deps(), crawledInsteadOf: undefined });
    const res = await request(bare)
      .get('/api/v1/search')
      .query({ q: `${site.origin}/amp/lynx.html` });
    expect(res.body.results.map((r: { url: string }) => r.url)).not.toEqual([`${site.origin}/lynx.html`]);
  });

  it("gives that page to MCP's get_content by URL", async () => {
    const backend = createMcpBackend(deps());
    for (const [copy, original] of COPIES) {
      expect((await backend.pageAt(`${site.origin}${copy}`))?.url).toBe(`${site.origin}${original}`);
    }
    expect(await backend.pageAt(`${site.origin}/never.html`)).toBeNull();
  });
});
