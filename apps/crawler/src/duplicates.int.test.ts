import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApp } from '@quarry/api';
import { FileBlobStore } from '@quarry/blobstore';
import { loadConfig, pageIdForUrl, type QuarryConfig } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import type { Queues } from '@quarry/queue';
import { type Route, type Site, startSite } from '@quarry/testkit';
import { pino } from 'pino';
import request from 'supertest';
import { parseSeed } from './seeds.js';
import { type CrawlRun, crawlUntilIdle, describeOnEachQueue } from './testing.js';

const sentences = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `Field note ${i + 1} on the ${topic}: observers counted the animals at dawn, compared the tallies with last season and wrote down what the weather was doing at the time.`,
  );

/** An article page; `head` goes into <head>, `lead` is a first paragraph (a date line). */
const articlePage = (title: string, topic: string, opts: { head?: string; lead?: string; footer?: string } = {}) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${opts.head ?? ''}</head>
<body><nav><a href="/">Home</a> <a href="/index.html">Front page</a></nav><article><h1>${title}</h1>
${opts.lead ? `<p>${opts.lead}</p>` : ''}${sentences(topic, 14)
  .map((s) => `<p>${s}</p>`)
  .join('\n')}</article><footer>${opts.footer ?? 'The Tundra Gazette'}</footer></body></html>`;

/**
 * The site's front page, served at `/`, `/index.html` and `/?edition=usa` alike, each time with
 * another timestamp in its footer: a short introduction and a list of links.
 */
const frontPage =
  () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The Tundra Gazette</title></head>
<body><header><a href="/">The Tundra Gazette</a><nav><a href="/index.html">Home</a> <a href="/?edition=usa">US edition</a></nav></header>
<main><p>News about the ptarmigan and other birds of the far north, every morning.</p><ul>
<li><a href="/blog/index.php">Our blog</a></li><li><a href="/docs/index.html">Field guide</a></li>
<li><a href="/amp/narwhal.html">Narwhal tusks, explained</a></li><li><a href="/syndicated.html">Capybara news</a></li>
<li><a href="/news/walrus.html">Walrus colonies return to the northern beaches</a></li>
<li><a href="/print/walrus.html">Walrus colonies (print)</a></li>
<li><a href="/walrus-count.html">Counting walrus calves from the air</a></li>
<li><a href="/walrus-tusks.html">Walrus tusks and what they tell us</a></li>
<li><a href="/moss.html">On the stones</a> (<a href="/moss.html?ref=rss">feed</a>)</li>
<li><a href="/solo/index.html">Solo</a></li></ul></main>
<footer>Served at ${new Date().toISOString()}</footer></body></html>`;

/** What the site serves now: version 2 rewrites the moss page. */
interface SiteState {
  version: number;
}

function siteRoutes(origin: () => string, state: SiteState): Record<string, Route> {
  const html = (body: () => string) => (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body());
  };
  const walrus = (lead: string) =>
    articlePage('Walrus colonies return', 'walrus colony on the northern beach', { lead });
  return {
    '/': html(frontPage),
    '/index.html': html(frontPage),
    '/?edition=usa': html(frontPage),
    // Same text at the index file and the directory (nobody links to the directory).
    '/blog/index.php': html(() => articlePage('Okapi diary', 'okapi in the forest', { footer: 'index.php' })),
    '/blog/': html(() => articlePage('Okapi diary', 'okapi in the forest', { footer: 'directory' })),
    // A site that serves different pages at the two.
    '/docs/index.html': html(() => articlePage('Lemur guide, full', 'lemur of the island')),
    '/docs/': html(() => articlePage('Lemur guide, contents', 'lemur troop in the canopy')),
    // An index file whose directory has no page (404): checked, then skipped, never a failure.
    '/solo/index.html': html(() => articlePage('Solo', 'quokka on the island')),
    // A mobile copy naming the real article as canonical; only the copy is linked.
    '/amp/narwhal.html': html(() =>
      articlePage('Narwhal tusks', 'narwhal pod in the fjord', { head: '<link rel="canonical" href="/narwhal.html">' }),
    ),
    '/narwhal.html': html(() =>
      articlePage('Narwhal tusks', 'narwhal pod in the fjord', {
        head: `<link rel="canonical" href="${origin()}/narwhal.html">`,
      }),
    ),
    // Republished from elsewhere: the off-site canonical is only recorded, never fetched.
    '/syndicated.html': html(() =>
      articlePage('Capybara news', 'capybara herd by the river', {
        head: '<link rel="canonical" href="http://127.0.0.2:9/capybara.html">',
      }),
    ),
    // The same article as a print view with another date line: a near-copy, collapsed at query time.
    '/news/walrus.html': html(() => walrus('Published 12 March 2024, 08:15')),
    '/print/walrus.html': html(() => walrus('Printed 24 November 2026, 10:40')),
    // One text at two URLs, until the shorter one is rewritten (a recrawl moves the old text over).
    '/moss.html': html(() =>
      state.version === 1 ? articlePage('Moss', 'moss on the stones') : articlePage('Lichen', 'lichen on the bark'),
    ),
    '/moss.html?ref=rss': html(() => articlePage('Moss', 'moss on the stones')),
  };
}

/** A crawl's stores in a fresh data dir: queues from `open`, the embedded index, the page texts. */
interface Stores {
  dir: string;
  config: QuarryConfig;
  queues: Queues;
  index: LanceSearchIndex;
  blobs: FileBlobStore;
}

async function openStores(prefix: string, open: (dir: string) => Promise<Queues>): Promise<Stores> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const config = loadConfig({
    QUARRY_DATA_DIR: dir,
    QUARRY_ALLOW_HOSTS: '127.0.0.1',
    QUARRY_HOST_DELAY_MS: '0',
    LOG_LEVEL: 'silent',
  });
  const queues = await open(dir);
  const index = await LanceSearchIndex.open({ path: join(dir, 'index') });
  return { dir, config, queues, index, blobs: new FileBlobStore({ dir: join(dir, 'blobs') }) };
}

async function closeStores(stores: Stores | undefined, site: Site | undefined): Promise<void> {
  await stores?.queues.close();
  await stores?.index.close();
  await site?.close();
  if (stores) rmSync(stores.dir, { recursive: true, force: true });
}

/** The scenario on one crawl-state backend; `open` gives fresh queues in a data dir. */
function describeOneDocument(backend: string, open: (dir: string) => Promise<Queues>): void {
  describe(`one page, one document (issue 10, point 3): ${backend}`, () => {
    const state: SiteState = { version: 1 };
    let site: Site;
    let stores: Stores;
    let config: QuarryConfig;
    let queues: Queues;
    let index: LanceSearchIndex;
    let blobs: FileBlobStore;

    beforeAll(async () => {
      let origin = '';
      site = await startSite(siteRoutes(() => origin, state));
      origin = site.origin;
      stores = await openStores('quarry-dup-', open);
      ({ config, queues, index, blobs } = stores);
      await crawl((crawler) => crawler.addSeeds([parseSeed(`${origin}/ depth=2 pages=100`)]));
    }, 90_000);

    /** Runs a crawler and an indexer from `queue` until both queues are idle. */
    const crawl = (queue: CrawlRun['queue']) => crawlUntilIdle({ config, queues, index, blobs, queue, pollMs: 300 });

    afterAll(() => closeStores(stores, site));

    const urls = async (q: string): Promise<string[]> => {
      const res = await request(createApp({ config, index, blobs, logger: pino({ level: 'silent' }) }))
        .get('/api/v1/search')
        .query({ q });
      expect(res.status).toBe(200);
      return res.body.results.map((r: { url: string }) => r.url.slice(site.origin.length));
    };

    it('gives one result for a page served at /, /index.html and /?edition=usa', async () => {
      expect(await urls('ptarmigan')).toEqual(['/']);
      // All three were fetched: the decision is made on their text, not on their URLs.
      expect(site.hits.get('/index.html')).toBe(1);
      expect(site.hits.get('/?edition=usa')).toBe(1);
    });

    it('stores an index file under its directory when both serve the same text', async () => {
      expect(await urls('okapi')).toEqual(['/blog/']);
      expect(site.hits.get('/blog/index.php')).toBe(1);
      expect(await index.has(pageIdForUrl(`${site.origin}/blog/index.php`))).toBe(false);
    });

    it('keeps both when the index file and the directory differ', async () => {
      expect((await urls('lemur')).sort()).toEqual(['/docs/', '/docs/index.html']);
    });

    it('crawls and indexes the same-site canonical URL instead of the page naming it', async () => {
      // The front page links to the copy: where its link text is indexed, it ranks below the article.
      const found = await urls('narwhal');
      expect(found[0]).toBe('/narwhal.html');
      expect(found.filter((u) => u !== '/')).toEqual(['/narwhal.html']);
      expect(site.hits.get('/amp/narwhal.html')).toBe(1);
    });

    it('only records an off-site canonical URL', async () => {
      const found = await urls('capybara');
      expect(found[0]).toBe('/syndicated.html');
      expect(found.filter((u) => u !== '/')).toEqual(['/syndicated.html']);
    });

    it('collapses a near-copy (another date line) to one result, ranked above the link list', async () => {
      // Four links on the front page say "walrus"; the article does, in its text. The front page is a
      // link list (quality prior below 1) and ranks below the article.
      const found = await urls('walrus');
      expect(found[0]).toMatch(/^\/(news|print)\/walrus\.html$/);
      expect(found.filter((u) => u !== '/')).toHaveLength(1);
      expect((await blobs.get(pageIdForUrl(`${site.origin}/`)))?.quality).toBeLessThan(1);
      const ids = ['/news/walrus.html', '/print/walrus.html'].map((p) => pageIdForUrl(`${site.origin}${p}`));
      // Both are indexed (their texts differ), each with its SimHash.
      for (const id of ids) expect((await blobs.get(id))?.simhash).toMatch(/^[0-9a-f]{16}$/);
    });

    it('records why the other URLs were skipped, with examples', async () => {
      const stats = await queues.crawl.stats();
      const skipped = new Map(stats.reasons.filter((r) => r.state === 'skipped').map((r) => [r.reason, r]));
      // The front page's other URLs; the moss feed URL too when it came after the moss page.
      const duplicates = skipped.get('duplicate');
      const front = [`${site.origin}/?edition=usa`, `${site.origin}/index.html`];
      expect(duplicates?.count).toBe(duplicates?.examples.length);
      expect(duplicates?.examples).toEqual(expect.arrayContaining(front));
      expect(duplicates?.examples.filter((u) => !front.includes(u))).toEqual(
        duplicates?.count === 3 ? [`${site.origin}/moss.html?ref=rss`] : [],
      );
      expect(skipped.get('no_directory_page')).toMatchObject({ count: 1, examples: [`${site.origin}/solo/`] });
      const failed = stats.reasons.filter((r) => r.state === 'failed').flatMap((r) => r.examples);
      expect(failed).not.toContain(`${site.origin}/solo/`);
      expect(await urls('quokka')).toEqual(['/solo/index.html']);
      expect(skipped.get('canonical_elsewhere')).toMatchObject({
        count: 1,
        examples: [`${site.origin}/amp/narwhal.html`],
      });
    });

    it('gives a text up when its page changes, and indexes the copy at its next recrawl', async () => {
      expect(await urls('moss')).toEqual(['/moss.html']);
      state.version = 2;
      // Two rounds: in the first the copy may come before the page that still holds the text.
      for (let round = 0; round < 2; round += 1) {
        await crawl(() => queues.crawl.recrawl({ olderThanMs: 0, states: ['done', 'skipped', 'failed'] }));
      }
      expect(await urls('lichen')).toEqual(['/moss.html']);
      expect(await urls('moss')).toEqual(['/moss.html?ref=rss']);
      // Nothing else moved: still one document for the front page.
      expect(await urls('ptarmigan')).toEqual(['/']);
    }, 120_000);
  });
}

describeOnEachQueue('dup', describeOneDocument);

/** A crawl whose page budget is spent before a page's canonical can be queued. */
function describeSpentBudget(backend: string, open: (dir: string) => Promise<Queues>): void {
  describe(`a canonical the crawl has no room for: ${backend}`, () => {
    let site: Site;
    let stores: Stores;

    beforeAll(async () => {
      const html = (body: string) => (_req: unknown, res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
      };
      const beaver = (head = '') => articlePage('Beaver dams', 'beaver dam on the creek', { head });
      site = await startSite({
        '/': html(articlePage('Otter holts', 'otter holt', { lead: '<a href="/amp/beaver.html">Beavers</a>' })),
        '/amp/beaver.html': html(beaver('<link rel="canonical" href="/beaver.html">')),
        '/beaver.html': html(beaver()),
      });
      stores = await openStores('quarry-dup-budget-', open);
      // Three pages in scope: the front page, its index-file check (`/index.html`) and the copy; the
      // canonical would be the fourth.
      const seed = parseSeed(`${site.origin}/ depth=2 pages=3`);
      await crawlUntilIdle({ ...stores, queue: (crawler) => crawler.addSeeds([seed]), pollMs: 300 });
    }, 90_000);

    afterAll(() => closeStores(stores, site));

    it('indexes the page that names it, which would otherwise be lost', async () => {
      expect(site.hits.get('/beaver.html') ?? 0).toBe(0);
      expect(await stores.index.has(pageIdForUrl(`${site.origin}/amp/beaver.html`))).toBe(true);
      const stats = await stores.queues.crawl.stats();
      expect(stats.reasons.find((r) => r.reason === 'canonical_elsewhere')).toBeUndefined();
    });
  });
}

describeOnEachQueue('dupb', describeSpentBudget);
