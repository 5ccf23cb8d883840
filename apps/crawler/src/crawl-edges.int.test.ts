import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileBlobStore } from '@quarry/blobstore';
import { LanceSearchIndex } from '@quarry/index-lance';
import { parseQuery } from '@quarry/query';
import { openSqliteQueues, type Queues } from '@quarry/queue';
import { itWithServer, type Site, startSite } from '@quarry/testkit';
import { parseSeed } from './seeds.js';
import { crawlUntilIdle, localCrawlConfig } from './testing.js';

const page = (title: string, word: string, head = '') =>
  `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body><article><h1>${title}</h1>` +
  `<p>${`The ${word} is the subject of this page, which is long enough to be kept as an article. `.repeat(8)}</p>` +
  '</article></body></html>';

/**
 * Sites as the web serves them, beyond the happy path. Redirects and script navigations lead to
 * pages of their own, which robots.txt must allow as it must allow a link; a robots.txt that cannot
 * be read keeps a site waiting, not skipped for good; the sitemaps it declares are read on its own
 * host only; and a page whose canonical cannot be indexed is indexed itself.
 */
describe('crawling redirects, script navigations, canonicals and robots.txt outages', () => {
  let home: Site;
  let other: Site;
  let down: Site;
  let dir: string;
  let queues: Queues;
  let index: LanceSearchIndex;

  beforeAll(async () => {
    // Another site whose robots.txt shuts Quarry out.
    other = await startSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: QuarryBot\nDisallow: /\n' },
      '/page.html': { body: page('Other page', 'pangolin') },
    });
    // A site whose robots.txt answers 503.
    down = await startSite({
      '/robots.txt': { status: 503, body: 'down for maintenance' },
      '/': { body: page('Down home', 'tapir') },
    });
    home = await startSite({
      // Sitemaps: one on another host (never read), one missing (passed over), then the real one.
      '/robots.txt': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(
          'User-agent: *\nDisallow: /private/\nDisallow: /llms.txt\n' +
            'Disallow: /index.php?title=Special:\nDisallow: /*sort=price,desc\n' +
            `Sitemap: ${other.origin}/foreign.xml\nSitemap: ${home.origin}/gone.xml\nSitemap: ${home.origin}/real.xml\n`,
        );
      },
      '/real.xml': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(
          `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${home.origin}/only-in-sitemap.html</loc></url></urlset>`,
        );
      },
      '/only-in-sitemap.html': { body: page('Listed page', 'quetzal') },
      '/llms.txt': {
        headers: { 'content-type': 'text/plain' },
        body: `# Home\n\n> The site.\n\n## Docs\n\n- [Llms page](${'/llms-only.html'})\n`,
      },
      '/llms-only.html': { body: page('Llms page', 'kinkajou') },
      '/index.php?title=Special:Random': { body: page('Random page', 'dugong') },
      '/c?sort=price,desc': { body: page('Sorted list', 'dugong') },
      '/': {
        body: `<html><head><title>Home</title></head><body><h1>Home</h1><ul>${[
          '/go-private',
          '/go-other',
          '/navigates.html',
          '/plain.html',
          '/c-gone.html',
          '/c-back.html',
          '/c-noindex.html',
          '/c-down.html',
          '/plain-html',
          '/no-type',
          '/cp1252.html',
          '/always-304',
          '/untitled.html',
          '/index.php?title=Special:Random',
          '/c?sort=price,desc',
          '/app.html',
        ]
          .map((href) => `<li><a href="${href}">${href}</a></li>`)
          .join('')}</ul></body></html>`,
      },
      '/go-private': { status: 302, headers: { location: '/private/secret.html' } },
      '/private/secret.html': { body: page('Secret', 'wombat') },
      '/go-other': { status: 301, headers: { location: `${other.origin}/page.html` } },
      // Little text of its own, so it is rendered; its script then goes to another page.
      '/navigates.html': {
        body: `<!doctype html><html lang="en"><head><title>Loading</title></head><body><div id="root"></div>
<script>location.replace('/nav-target.html');</script></body></html>`,
      },
      '/nav-target.html': { body: page('Navigation target', 'narwhal') },
      // Little text of its own, so it is rendered; its script reads a path robots.txt disallows.
      '/app.html': {
        body: `<!doctype html><html lang="en"><head><title>App</title></head><body><div id="root"></div>
<script>fetch('/private/data.txt').then((r) => r.text()).then((t) => { document.getElementById('root').innerHTML = '<article><h1>App</h1><p>' + t + '</p></article>'; });</script></body></html>`,
      },
      '/private/data.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'The margay data is private to this site and must never be indexed by a crawler. '.repeat(6),
      },
      '/plain.html': { body: page('Plain page', 'okapi') },
      // Pages whose canonical cannot be indexed: it is gone, it redirects back, it says noindex.
      // Served as a static file server serves it: with validators, unchanged (304) when asked with them.
      '/c-gone.html': (req, res) => {
        const validators = { etag: '"c-gone-1"', 'last-modified': 'Tue, 01 Dec 2026 01:00:00 GMT' };
        if (req.headers['if-none-match'] === validators.etag || req.headers['if-modified-since']) {
          res.writeHead(304, validators);
          res.end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...validators });
        res.end(page('Canonical gone', 'ibex', '<link rel="canonical" href="/gone-target.html">'));
      },
      '/c-back.html': { body: page('Canonical loops', 'lynx', '<link rel="canonical" href="/t-redir">') },
      '/t-redir': { status: 301, headers: { location: '/c-back.html' } },
      '/c-noindex.html': { body: page('Canonical noindex', 'marmot', '<link rel="canonical" href="/t-noindex.html">') },
      '/t-noindex.html': { body: page('Noindex target', 'marmot', '<meta name="robots" content="noindex">') },
      // A canonical that answers 503 on every try: its last try fails, and the page is indexed itself.
      '/c-down.html': { body: page('Canonical down', 'civet', '<link rel="canonical" href="/t-down.html">') },
      '/t-down.html': { status: 503, body: 'down for maintenance' },
      // HTML served as text/plain, and with no Content-Type at all.
      '/plain-html': { headers: { 'content-type': 'text/plain' }, body: page('Served as plain text', 'gecko') },
      '/no-type': (_req, res) => {
        res.writeHead(200);
        res.end(page('Served without a type', 'iguana'));
      },
      // No <title>, og:title or <h1>: named by its first line of text, on one line, cut at a word.
      '/untitled.html': {
        body: `<html lang="en"><body><div><p>\n  ${'The caracal flaw lets one client\n crash a whole server with a few packets. '.repeat(3)}<br>Second line.</p>${'<p>The caracal flaw is fixed in the next release of the server.</p>'.repeat(8)}</div></body></html>`,
      },
      // windows-1252, whose bytes 0x80-0x9F Node's own decoder reads as latin1.
      // A 304 to a request that asked nothing: no page at all.
      '/always-304': { status: 304 },
      '/cp1252.html': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' });
        res.end(
          Buffer.from(page('Caf\xe9 \x96 quotes', 'axolotl').replace('subject', '\x93subject\x94 \x80'), 'latin1'),
        );
      },
    });
    const local = localCrawlConfig('crawl-edges', '127.0.0.1');
    dir = local.dir;
    const config = local.config;
    // Two tries a page and short back-offs, so that the unreachable robots.txt ends in a failure here.
    queues = openSqliteQueues({
      path: join(dir, 'queue.db'),
      hostDelayMs: 0,
      maxAttempts: 2,
      retryBaseDelayMs: 10,
      maxRetryDelayMs: 50,
    });
    index = await LanceSearchIndex.open({ path: join(dir, 'index') });
    await crawlUntilIdle({
      config,
      queues,
      index,
      blobs: new FileBlobStore({ dir: join(dir, 'blobs') }),
      fetch: { totalTimeoutMs: 3000 },
      queue: (crawler) =>
        crawler.addSeeds([parseSeed(`${home.origin}/ depth=2 pages=50`), parseSeed(`${down.origin}/ depth=1`)]),
    });
  }, 90_000);

  afterAll(async () => {
    await queues?.close();
    await index?.close();
    await Promise.all([home?.close(), other?.close(), down?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const urlsFor = async (word: string) =>
    (await index.search({ query: parseQuery(word), limit: 10, offset: 0 })).hits.map((hit) => hit.url);

  it('never follows a redirect to a page its robots.txt disallows, nor one out of the crawl scope', async () => {
    expect(home.hits.get('/private/secret.html')).toBeUndefined();
    // A page's redirect to another site (the seed's scope is its host) is not followed: not even
    // that site's robots.txt is asked. A seed's own redirect may lead anywhere (first-requests).
    expect(home.hits.get('/go-other')).toBe(1);
    expect(other.hits.get('/robots.txt')).toBeUndefined();
    expect(other.hits.get('/page.html')).toBeUndefined();
    expect(await urlsFor('wombat')).toEqual([]);
    expect(await urlsFor('pangolin')).toEqual([]);
    const stats = await queues.crawl.stats();
    const skipped = (reason: string) => stats.reasons.find((r) => r.state === 'skipped' && r.reason === reason);
    expect(skipped('robots_disallowed')?.count).toBe(3);
    expect(skipped('redirect_out_of_scope')?.count).toBe(1);
    // The crawl itself goes on.
    expect(await urlsFor('okapi')).toEqual([`${home.origin}/plain.html`]);
  });

  it('never fetches a URL whose query a robots.txt rule disallows as the page wrote it, nor a disallowed llms.txt', async () => {
    // `:` and `,` stay as written: the rules `?title=Special:` and `*sort=price,desc` match them.
    expect(home.hits.get('/index.php?title=Special:Random')).toBeUndefined();
    expect(home.hits.get('/c?sort=price,desc')).toBeUndefined();
    expect(home.hits.get('/index.php?title=Special%3ARandom')).toBeUndefined();
    expect(home.hits.get('/c?sort=price%2Cdesc')).toBeUndefined();
    expect(await urlsFor('dugong')).toEqual([]);
    // RFC 9309 exempts only robots.txt itself.
    expect(home.hits.get('/llms.txt')).toBeUndefined();
    expect(home.hits.get('/llms-only.html')).toBeUndefined();
  });

  it('fails a page answered 304 to a request that was not conditional, never counting it done', async () => {
    expect(home.hits.get('/always-304')).toBe(1);
    const stats = await queues.crawl.stats();
    expect(stats.reasons.find((r) => r.state === 'failed' && r.reason === 'http_304')?.examples).toEqual([
      `${home.origin}/always-304`,
    ]);
  });

  it('indexes a page itself when its canonical cannot be: gone, a redirect back to it, noindex, or down', async () => {
    expect(await urlsFor('civet')).toEqual([`${home.origin}/c-down.html`]);
    expect(await urlsFor('ibex')).toEqual([`${home.origin}/c-gone.html`]);
    expect(await urlsFor('lynx')).toEqual([`${home.origin}/c-back.html`]);
    expect(await urlsFor('marmot')).toEqual([`${home.origin}/c-noindex.html`]);
  });

  it('reads HTML served as text/plain or with no Content-Type as HTML, and windows-1252 as the web does', async () => {
    const hit = async (word: string) => (await index.search({ query: parseQuery(word), limit: 1, offset: 0 })).hits[0];
    expect(await hit('gecko')).toMatchObject({ url: `${home.origin}/plain-html`, title: 'Served as plain text' });
    expect(await hit('iguana')).toMatchObject({ url: `${home.origin}/no-type`, title: 'Served without a type' });
    const cp1252 = await hit('axolotl');
    expect(cp1252?.title).toBe('Café – quotes');
    expect(cp1252?.snippet).toContain('“subject” €');
    expect(await hit('caracal')).toMatchObject({
      url: `${home.origin}/untitled.html`,
      title:
        'The caracal flaw lets one client crash a whole server with a few packets. The caracal flaw lets one client crash a…',
    });
  });

  it("reads the sitemaps robots.txt declares on the site's own host, past one that is missing", async () => {
    expect(other.hits.get('/foreign.xml')).toBeUndefined();
    expect(home.hits.get('/gone.xml')).toBe(1);
    expect(await urlsFor('quetzal')).toEqual([`${home.origin}/only-in-sitemap.html`]);
  });

  it('tries a page whose robots.txt answers 503 again, and fails it as robots_unreachable, not disallowed', async () => {
    expect(down.hits.get('/')).toBeUndefined();
    const stats = await queues.crawl.stats();
    const failed = stats.reasons.find((r) => r.state === 'failed' && r.reason === 'robots_unreachable');
    expect(failed?.count).toBe(1);
  });

  itWithServer(
    'chromium',
    "renders a page without its scripts' requests to paths its robots.txt disallows",
    async () => {
      expect(home.hits.get('/app.html')).toBe(2);
      expect(home.hits.get('/private/data.txt')).toBeUndefined();
      expect(await urlsFor('margay')).toEqual([]);
    },
  );

  itWithServer('chromium', "crawls the page a script navigates to in the navigating page's place", async () => {
    expect(await urlsFor('narwhal')).toEqual([`${home.origin}/nav-target.html`]);
    const stats = await queues.crawl.stats();
    expect(stats.reasons.find((r) => r.state === 'skipped' && r.reason === 'meta_refresh')?.count).toBe(1);
  });
});
