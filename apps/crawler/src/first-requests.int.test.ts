import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pageIdForUrl } from '@quarry/core';
import type { LanceSearchIndex } from '@quarry/index-lance';
import { parseQuery } from '@quarry/query';
import type { Queues } from '@quarry/queue';
import { itWithServer, type Site, startSite } from '@quarry/testkit';
import { parseSeed } from './seeds.js';
import { crawlHosts, describeOnEachQueue } from './testing.js';

/**
 * The Crawl-delay the paced site asks for, and the slack allowed for timers and the loopback: a
 * request is handed to the fetcher a delay after the last, and the site, in this process, logs it
 * when its own event loop gets to it (docs/crawler.md, Politeness; 906 ms for 1 s failed a slack of 50 when
 * only the tasks' starts were spaced).
 */
const CRAWL_DELAY_MS = 1000;
/** Links to pages its robots.txt disallows on the seed page of the site that has them. */
const DISALLOWED_LINKS = 24;
const SLACK_MS = 100;

const page = (title: string, word: string, head = '') =>
  `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body><article><h1>${title}</h1>` +
  `<p>${`The ${word} is the subject of this page, which is long enough to be kept as an article. `.repeat(8)}</p>` +
  '</article></body></html>';

/** What each site is asked, sorted. */
const ALL_PATHS = ['/', '/feed.xml', '/guide.md', '/llms.txt', '/news.html', '/robots.txt', '/sitemap.xml'];

interface Answer {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: string;
}

type Logged = { path: string; at: number }[];

/** A site answering `routesOf(its origin)` (404 elsewhere); every request is logged with its time. */
async function loggedSite(
  host: string,
  routesOf: (origin: string) => Record<string, Answer>,
): Promise<{ site: Site; requests: Logged }> {
  const requests: Logged = [];
  let routes: Record<string, Answer> = {};
  const site = await startSite(
    {},
    {
      host,
      fallback: (req, res) => {
        const path = req.url ?? '/';
        requests.push({ path, at: Date.now() });
        const route = routes[path] ?? { status: 404, body: '<h1>Not found</h1>' };
        res.writeHead(route.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...route.headers });
        res.end(route.body);
      },
    },
  );
  routes = routesOf(site.origin);
  return { site, requests };
}

const text = (body: string) => ({ headers: { 'content-type': 'text/plain' }, body });

/**
 * A site with a real llms.txt listing one markdown page, and a home page declaring a feed of one
 * news page.
 */
function firstSiteRoutes(robots: string, word: string): (origin: string) => Record<string, Answer> {
  return (origin) => ({
    '/robots.txt': text(robots),
    '/llms.txt': text(`# The ${word} site\n\n> All about the ${word}.\n\n- [Guide](${origin}/guide.md)\n`),
    '/': { body: page(`The ${word}`, word, '<link rel="alternate" type="application/rss+xml" href="/feed.xml">') },
    '/guide.md': text(`# Guide\n\n${`How to look after a ${word}, step by step. `.repeat(8)}\n`),
    '/feed.xml': {
      headers: { 'content-type': 'application/rss+xml' },
      body: `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>${origin}/</link><item><title>News</title><link>${origin}/news.html</link></item></channel></rss>`,
    },
    '/news.html': { body: page(`News of the ${word}`, `${word} chick`) },
  });
}

/** A site with a Crawl-delay and a real llms.txt, reached only by a redirect from another site. */
function redirectTargetRoutes(): Record<string, Answer> {
  return {
    '/robots.txt': text(`User-agent: *\nCrawl-delay: ${CRAWL_DELAY_MS / 1000}\n`),
    '/llms.txt': text('# The egret site\n\n> All about the egret.\n\n- [Egrets](/landing.html)\n'),
    '/landing.html': { body: page('The egret', 'egret') },
  };
}

/** The gaps between consecutive requests that are shorter than the Crawl-delay (less the slack). */
function shortGaps(requests: Logged, delayMs = CRAWL_DELAY_MS): string[] {
  return requests
    .slice(1)
    .map((r, i) => ({
      gap: `${requests[i]?.path} → ${r.path}: ${r.at - (requests[i]?.at ?? 0)}`,
      ms: r.at - (requests[i]?.at ?? 0),
    }))
    .filter(({ ms }) => ms < delayMs - SLACK_MS)
    .map(({ gap }) => gap);
}

/**
 * A new site's first requests, robots.txt, llms.txt and the seed page, are spaced by its delay
 * (Crawl-delay here) like every later request, and so is the feed the seed page declares; a site
 * with no delay gets them at once.
 */
function describeFirstRequests(backend: string, open: (dir: string) => Promise<Queues>): void {
  describe(`a new site's first requests, spaced by its Crawl-delay: ${backend}`, () => {
    let paced: Awaited<ReturnType<typeof loggedSite>>;
    let prompt: Awaited<ReturnType<typeof loggedSite>>;
    let mover: Awaited<ReturnType<typeof loggedSite>>;
    let target: Awaited<ReturnType<typeof loggedSite>>;
    let rendered: Awaited<ReturnType<typeof loggedSite>>;
    let fenced: Awaited<ReturnType<typeof loggedSite>>;
    let dir: string;
    let queues: Queues;
    let index: LanceSearchIndex;

    beforeAll(async () => {
      paced = await loggedSite(
        '127.0.0.1',
        firstSiteRoutes(`User-agent: *\nCrawl-delay: ${CRAWL_DELAY_MS / 1000}\n`, 'heron'),
      );
      // Each on a host of its own: politeness is per host name.
      prompt = await loggedSite('127.0.0.2', firstSiteRoutes('User-agent: *\nAllow: /\n', 'puffin'));
      target = await loggedSite('127.0.0.3', redirectTargetRoutes);
      // A seed with no delay of its own that redirects to the paced target.
      mover = await loggedSite('127.0.0.4', () => ({
        '/robots.txt': text('User-agent: *\nAllow: /\n'),
        '/moved': { status: 301, headers: { location: `${target.site.origin}/landing.html` }, body: '' },
      }));
      // Pages rendered in Chromium: the browser asks each again, a Crawl-delay after its fetch,
      // and the next page is fetched a Crawl-delay after that.
      rendered = await loggedSite('127.0.0.5', () => ({
        '/robots.txt': text(`User-agent: *\nCrawl-delay: ${CRAWL_DELAY_MS / 1000}\n`),
        '/app.html': {
          body: page('The avocet', 'avocet').replace('</article>', '<a href="/app2.html">More</a></article>'),
        },
        '/app2.html': { body: page('The stilt', 'stilt') },
      }));
      // A paced site whose seed page links to 24 pages its robots.txt disallows before its one open page.
      fenced = await loggedSite('127.0.0.7', () => ({
        '/robots.txt': text(`User-agent: *\nCrawl-delay: ${CRAWL_DELAY_MS / 1000}\nDisallow: /private/\n`),
        '/': {
          body: page('The curlew', 'curlew').replace(
            '</article>',
            `${Array.from({ length: DISALLOWED_LINKS }, (_, n) => `<a href="/private/${n}.html">Private ${n}</a>`).join(' ')}` +
              ' <a href="/open.html">Open</a></article>',
          ),
        },
        '/open.html': { body: page('The whimbrel', 'whimbrel') },
      }));
      ({ dir, queues, index } = await crawlHosts(
        'first-requests',
        '127.0.0.1,127.0.0.2,127.0.0.3,127.0.0.4,127.0.0.5,127.0.0.7',
        {
          queue: (crawler) =>
            // Three pages: the seed, the page its llms.txt lists and the one its feed lists (feeds,
            // like sitemaps, take none of the page budget).
            crawler.addSeeds([
              parseSeed(`${paced.site.origin}/ depth=1 pages=3`),
              parseSeed(`${prompt.site.origin}/ depth=1 pages=3`),
              parseSeed(`${mover.site.origin}/moved depth=0`),
              parseSeed(`${rendered.site.origin}/app.html depth=1 render=always`),
              parseSeed(`${fenced.site.origin}/ depth=1`),
            ]),
        },
        open,
      ));
    }, 90_000);

    afterAll(async () => {
      await queues?.close();
      await index?.close();
      await Promise.all([paced, prompt, mover, target, rendered, fenced].map((logged) => logged?.site.close()));
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('asks robots.txt, then llms.txt, then the seed page, then its feed and the rest, a Crawl-delay apart', () => {
      const { requests } = paced;
      // The seed page comes next, or after the page the llms.txt lists (BullMQ picks its host's next job).
      expect(requests.slice(0, 2).map((r) => r.path)).toEqual(['/robots.txt', '/llms.txt']);
      // And what the seed led to (its sitemap, its feed, the pages its llms.txt and feed list) at the same pace.
      expect(requests.map((r) => r.path).sort()).toEqual(ALL_PATHS);
      expect(shortGaps(requests)).toEqual([]);
    });

    it('indexes the seed page with its llms.txt verdict, and the pages the llms.txt and the feed list', async () => {
      expect(await index.has(pageIdForUrl(`${paced.site.origin}/`))).toBe(true);
      expect(await index.has(pageIdForUrl(`${paced.site.origin}/guide.md`))).toBe(true);
      expect(await index.has(pageIdForUrl(`${paced.site.origin}/news.html`))).toBe(true);
      const stats = await queues.crawl.stats();
      expect(stats.failed).toBe(0);
    });

    it("asks a redirect target's robots.txt, then its llms.txt, then the page, each a Crawl-delay after the last", async () => {
      const { requests } = target;
      expect(requests.map((r) => r.path)).toEqual(['/robots.txt', '/llms.txt', '/landing.html']);
      expect(shortGaps(requests)).toEqual([]);
      const hits = await index.search({ query: parseQuery('egret'), limit: 10, offset: 0 });
      expect(hits.hits.map((hit) => [hit.url, hit.has_llms_txt])).toEqual([
        [`${target.site.origin}/landing.html`, true],
      ]);
    });

    itWithServer(
      'chromium',
      'renders a page a Crawl-delay after fetching it, and fetches the next a delay after that',
      async () => {
        const { requests } = rendered;
        // Each page fetched, then asked again by the browser.
        expect(requests.filter((r) => r.path.startsWith('/app')).map((r) => r.path)).toEqual([
          '/app.html',
          '/app.html',
          '/app2.html',
          '/app2.html',
        ]);
        expect(shortGaps(requests)).toEqual([]);
        expect(await index.has(pageIdForUrl(`${rendered.site.origin}/app2.html`))).toBe(true);
      },
    );

    it("spends none of a site's Crawl-delays on the links its robots.txt disallows", async () => {
      const { requests } = fenced;
      expect(requests.filter((r) => r.path.startsWith('/private/'))).toEqual([]);
      expect(requests.map((r) => r.path)).toContain('/open.html');
      expect(shortGaps(requests)).toEqual([]);
      // A delay between requests (and a few more of slack for a loaded machine: 8 s for 5 requests
      // was seen in CI), not a delay more for each of the 24 disallowed links as well.
      const span = (requests.at(-1)?.at ?? 0) - (requests[0]?.at ?? 0);
      expect(span).toBeLessThan((requests.length + 6) * CRAWL_DELAY_MS);
      expect(await index.has(pageIdForUrl(`${fenced.site.origin}/open.html`))).toBe(true);
    });

    it('adds no wait on a site without a delay', () => {
      const { requests } = prompt;
      expect(requests.map((r) => r.path).sort()).toEqual(ALL_PATHS);
      // Each gap shorter than a delay would make it: the whole run's span was bounded first, and a
      // loaded machine (load 9 on 2 cores) stretched seven unpaced requests to 2.2 s.
      const gaps = requests.slice(1).map((r, i) => r.at - (requests[i]?.at ?? 0));
      expect(gaps.filter((ms) => ms >= CRAWL_DELAY_MS - SLACK_MS)).toEqual([]);
    });
  });
}

describeOnEachQueue('first', describeFirstRequests);

describe('a render that would wait longer than a render waits for the host', () => {
  // The browser asks a page again a host's delay after its fetch, waiting at most maxRenderWaitMs
  // (10 s by default): the paced host's 2 s Crawl-delay is past this crawler's 300 ms. The rest is
  // counted when the render would start, after the page's extraction and after Chromium's launch,
  // which the other host's page began (a crawler launches it for its first render): with a 1 s
  // delay, a launch that a loaded machine stretched past 2.7 s left less than 300 ms of the delay,
  // and the page was rendered (after the rest, as it should be), so asked twice.
  const MAX_RENDER_WAIT_MS = 300;
  const PACED_DELAY_MS = 2 * CRAWL_DELAY_MS;
  /** A page whose script adds a paragraph on the `added` bird, as a script-built page does. */
  const scripted = (title: string, word: string, added: string) =>
    page(title, word).replace(
      '</body>',
      `<script>const p = document.createElement('p'); p.textContent = '${`The ${added} came with the script. `.repeat(8)}'; document.querySelector('article').append(p);</script></body>`,
    );
  let paced: Awaited<ReturnType<typeof loggedSite>>;
  let prompt: Awaited<ReturnType<typeof loggedSite>>;
  let dir: string;
  let queues: Queues;
  let index: LanceSearchIndex;

  beforeAll(async () => {
    paced = await loggedSite('127.0.0.6', () => ({
      '/robots.txt': text(`User-agent: *\nCrawl-delay: ${PACED_DELAY_MS / 1000}\n`),
      '/app.html': { body: scripted('The avocet', 'avocet', 'godwit') },
    }));
    prompt = await loggedSite('127.0.0.7', () => ({
      '/robots.txt': text('User-agent: *\nAllow: /\n'),
      '/app.html': { body: scripted('The stilt', 'stilt', 'curlew') },
    }));
    ({ dir, queues, index } = await crawlHosts('render-wait', '127.0.0.6,127.0.0.7', {
      maxRenderWaitMs: MAX_RENDER_WAIT_MS,
      queue: (crawler) =>
        crawler.addSeeds([
          parseSeed(`${paced.site.origin}/app.html depth=0 render=always`),
          parseSeed(`${prompt.site.origin}/app.html depth=0 render=always`),
        ]),
    }));
  }, 90_000);

  afterAll(async () => {
    await queues?.close();
    await index?.close();
    await Promise.all([paced, prompt].map((logged) => logged?.site.close()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const found = async (word: string) =>
    (await index.search({ query: parseQuery(word), limit: 10, offset: 0 })).hits.map((hit) => hit.url);

  itWithServer('chromium', "keeps the page's static text, and the browser never asks it", async () => {
    expect(paced.requests.filter((r) => r.path === '/app.html')).toHaveLength(1);
    expect(await found('avocet')).toEqual([`${paced.site.origin}/app.html`]);
    expect(await found('godwit')).toEqual([]);
    expect(shortGaps(paced.requests, PACED_DELAY_MS)).toEqual([]);
    // A host without a delay has its page rendered: the browser asks it again, and the script's text is indexed.
    expect(prompt.requests.filter((r) => r.path === '/app.html')).toHaveLength(2);
    expect(await found('curlew')).toEqual([`${prompt.site.origin}/app.html`]);
  });
});

describe('redirects from several sites to one paced site', () => {
  // Each seed redirects to a page of its own on the target: the tasks are of other hosts, which the
  // queue does not space by the target's delay, and come back from the queue at once after the
  // target's robots.txt and llms.txt.
  const MOVERS = 6;
  // Half a second (robots.txt's delays may be fractional): the target is asked eight times, each a
  // delay after the last, and the hops this spacing is about came within a millisecond of each other.
  const TARGET_DELAY_MS = CRAWL_DELAY_MS / 2;
  let target: Awaited<ReturnType<typeof loggedSite>>;
  let movers: Awaited<ReturnType<typeof loggedSite>>[];
  let dir: string;
  let queues: Queues;
  let index: LanceSearchIndex;

  beforeAll(async () => {
    target = await loggedSite('127.0.0.8', () => ({
      '/robots.txt': text(`User-agent: *\nCrawl-delay: ${TARGET_DELAY_MS / 1000}\n`),
      ...Object.fromEntries(
        Array.from({ length: MOVERS }, (_, i) => [`/bird${i}.html`, { body: page(`Bird ${i}`, `bird number ${i}`) }]),
      ),
    }));
    movers = await Promise.all(
      Array.from({ length: MOVERS }, (_, i) =>
        loggedSite(`127.0.0.${9 + i}`, () => ({
          '/robots.txt': text('User-agent: *\nAllow: /\n'),
          '/moved': { status: 301, headers: { location: `${target.site.origin}/bird${i}.html` }, body: '' },
        })),
      ),
    );
    const hosts = [target, ...movers].map((logged) => logged.site.host).join(',');
    ({ dir, queues, index } = await crawlHosts('redirect-pace', hosts, {
      queue: (crawler) => crawler.addSeeds(movers.map((mover) => parseSeed(`${mover.site.origin}/moved depth=0`))),
    }));
  }, 90_000);

  afterAll(async () => {
    await queues?.close();
    await index?.close();
    await Promise.all([target, ...(movers ?? [])].map((logged) => logged?.site.close()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("asks the target each page a Crawl-delay after the last, whichever site's redirect led there", async () => {
    const { requests } = target;
    const pages = Array.from({ length: MOVERS }, (_, i) => `/bird${i}.html`);
    expect(requests.map((r) => r.path).sort()).toEqual(['/llms.txt', '/robots.txt', ...pages].sort());
    expect(shortGaps(requests, TARGET_DELAY_MS)).toEqual([]);
    for (const path of pages) expect(await index.has(pageIdForUrl(`${target.site.origin}${path}`))).toBe(true);
  });
});
