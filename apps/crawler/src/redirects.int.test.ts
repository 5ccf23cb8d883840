import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LanceSearchIndex } from '@quarry/index-lance';
import { parseQuery } from '@quarry/query';
import type { Queues } from '@quarry/queue';
import { type Site, startSite } from '@quarry/testkit';
import { parseSeed } from './seeds.js';
import { crawlHosts } from './testing.js';

const page = (title: string, word: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${`The ${word} is the subject of this page, which is long enough to be kept as an article. `.repeat(8)}</p>` +
  '</article></body></html>';

const links = (hrefs: readonly string[]) =>
  `<html><head><title>Home</title></head><body><h1>Home</h1><ul>${hrefs
    .map((href) => `<li><a href="${href}">${href}</a></li>`)
    .join('')}</ul></body></html>`;

const moved = (location: string) => ({ status: 301, headers: { location } });

/**
 * A page's redirect is a link to its target, queued as a page of its own: a target the crawl
 * already has is not fetched again, and one it gets this way is not fetched again when a link
 * names it later. The redirect takes no page of the seed's budget beyond the one it was admitted as.
 */
describe("a page's redirect, queued as a page of its own", () => {
  let site: Site;
  let budgeted: Site;
  let dir: string;
  let queues: Queues;
  let index: LanceSearchIndex;

  beforeAll(async () => {
    site = await startSite({
      // `/docs` and `/docs/` both linked, the way sites link a directory; `/guide` is linked only
      // through its old name, and `/intro` names it again; a chain of seven redirects; a loop.
      '/': { body: links(['/docs', '/docs/', '/old-guide', '/intro', '/hop-1', '/loop-a', '/session']) },
      // A first visit sent to the same page with a session id in its URL, as Java servers do.
      '/session': moved('/session;jsessionid=0123456789ABCDEF'),
      '/session;jsessionid=0123456789ABCDEF': { body: page('Session page', 'civet') },
      '/docs': moved('/docs/'),
      '/docs/': { body: page('Documentation', 'okapi') },
      '/old-guide': moved('/guide'),
      '/intro': { body: `${page('Introduction', 'tapir')}<a href="/guide">the guide</a>` },
      '/guide': { body: page('Guide', 'quokka') },
      ...Object.fromEntries(
        [1, 2, 3, 4, 5, 6, 7].map((n) => [`/hop-${n}`, n < 7 ? moved(`/hop-${n + 1}`) : { body: page('End', 'ibex') }]),
      ),
      '/loop-a': moved('/loop-b'),
      '/loop-b': moved('/loop-a'),
    });
    // A budget of four pages: the seed and three links, each moved to a page of its own.
    budgeted = await startSite({
      '/': { body: links(['/a', '/b', '/c']) },
      '/a': moved('/new-a'),
      '/b': moved('/new-b'),
      '/c': moved('/new-c'),
      '/new-a': { body: page('New a', 'marmot') },
      '/new-b': { body: page('New b', 'marmot and the lynx') },
      '/new-c': { body: page('New c', 'marmot and the gecko') },
    });
    ({ dir, queues, index } = await crawlHosts('crawl-redirects', '127.0.0.1', {
      queue: (crawler) =>
        crawler.addSeeds([parseSeed(`${site.origin}/ depth=3 pages=50`), parseSeed(`${budgeted.origin}/ pages=4`)]),
    }));
  }, 90_000);

  afterAll(async () => {
    await queues?.close();
    await index?.close();
    await Promise.all([site?.close(), budgeted?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const urlsFor = async (word: string) =>
    (await index.search({ query: parseQuery(word), limit: 10, offset: 0 })).hits.map((hit) => hit.url).sort();
  const reasonCount = async (state: string, reason: string) =>
    (await queues.crawl.stats()).reasons.find((r) => r.state === state && r.reason === reason)?.count ?? 0;

  it('fetches a target once, whether a link or a redirect named it first', async () => {
    expect(site.hits.get('/docs')).toBe(1);
    expect(site.hits.get('/docs/')).toBe(1);
    expect(site.hits.get('/old-guide')).toBe(1);
    expect(site.hits.get('/guide')).toBe(1);
    expect(await urlsFor('okapi')).toEqual([`${site.origin}/docs/`]);
    expect(await urlsFor('quokka')).toEqual([`${site.origin}/guide`]);
  });

  it('follows a redirect to its own URL with a session id at once, and indexes the page', async () => {
    expect(await urlsFor('civet')).toEqual([`${site.origin}/session`]);
    expect(await reasonCount('failed', 'redirect_loop')).toBe(1); // loop-b's, below
  });

  it('gives a redirect target a place of its own beyond the budget its source was admitted under', async () => {
    expect(await urlsFor('marmot')).toEqual(['/new-a', '/new-b', '/new-c'].map((p) => `${budgeted.origin}${p}`));
  });

  it('ends a chain past five redirects as too_many_redirects, and a loop as redirect_loop', async () => {
    expect(site.hits.get('/hop-6')).toBe(1);
    expect(site.hits.get('/hop-7')).toBeUndefined();
    expect(await urlsFor('ibex')).toEqual([]);
    expect(await reasonCount('failed', 'too_many_redirects')).toBe(1);
    expect(site.hits.get('/loop-a')).toBe(1);
    expect(site.hits.get('/loop-b')).toBe(1);
    expect(await reasonCount('failed', 'redirect_loop')).toBe(1);
    // docs, old-guide, hop-1..5, loop-a, and the budgeted site's three.
    expect(await reasonCount('skipped', 'redirected')).toBe(11);
  });
});
