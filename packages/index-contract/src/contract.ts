import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileBlobStore } from '@quarry/blobstore';
import {
  type IndexQuery,
  type IndexSearchResult,
  MAX_COUNTED_SITES,
  pageIdForUrl,
  removeSitePages,
  type SearchIndex,
  sitePageCounts,
} from '@quarry/core';
import { parseQuery } from '@quarry/query';
import { contractCorpus, daysBefore, LISTING_SITE, listingCorpus, makePage } from './fixtures.js';

/** Opens a fresh, empty index of the backend under test and says how to dispose of it. */
export type OpenSearchIndex = () => Promise<{ index: SearchIndex; cleanup: () => Promise<void> }>;

type Options = Partial<Omit<IndexQuery, 'query'>>;

/**
 * The behaviour every `SearchIndex` backend must share (operators, filters, ranking contract,
 * pagination, Chinese, writes). Only relies on the interface: no backend-specific score values,
 * and a write is only assumed visible once its promise resolved.
 */
export function describeSearchIndexContract(name: string, open: OpenSearchIndex): void {
  describe(`SearchIndex contract: ${name}`, () => {
    let index: SearchIndex;
    let cleanup: () => Promise<void>;

    const search = (q: string, options: Options = {}): Promise<IndexSearchResult> =>
      index.search({ query: parseQuery(q), limit: 100, offset: 0, ...options });
    const ids = async (q: string, options: Options = {}): Promise<string[]> =>
      (await search(q, options)).hits.map((hit) => hit.id);

    beforeAll(async () => {
      ({ index, cleanup } = await open());
      await index.upsert(contractCorpus());
    });
    afterAll(async () => {
      await cleanup();
    });

    it('ANDs words', async () => {
      expect(await ids('dogs bark')).toEqual(['dogs-bark']);
    });

    it('ORs with OR, binding tighter than the implicit AND', async () => {
      expect((await ids('dogs OR wolves')).sort()).toEqual(['dogs-bark', 'dogs-quiet', 'lookalike', 'wolves']);
      expect((await ids('packs dogs OR wolves')).sort()).toEqual(['wolves']);
    });

    it('excludes words and phrases with -', async () => {
      expect((await ids('dogs -bark')).sort()).toEqual(['dogs-quiet', 'lookalike']);
      expect((await ids('dogs -"for sale"')).sort()).toEqual(['dogs-bark', 'dogs-quiet']);
    });

    it('matches phrases as adjacent words in order', async () => {
      expect(await ids('"solar panel"')).toEqual(['solar-phrase']);
      expect((await ids('solar panel')).sort()).toEqual(['solar-apart', 'solar-phrase']);
    });

    it('restricts intitle: to the title', async () => {
      expect(await ids('intitle:volcano')).toEqual(['title-only']);
      expect((await ids('volcano')).sort()).toEqual(['body-only', 'title-only']);
    });

    it('excludes with -intitle: only pages whose title holds the word', async () => {
      expect(await ids('volcano -intitle:volcano')).toEqual(['body-only']);
      expect(await ids('volcano -intitle:island')).toEqual(['title-only']);
      expect(await ids('volcano -intitle:"eruption report"')).toEqual(['body-only']);
    });

    it('treats a word with inner punctuation as one word', async () => {
      expect(await ids('re:invent')).toEqual(['reinvent']);
    });

    it('drops clauses without words and returns nothing when nothing positive is left', async () => {
      expect(await ids('🎉')).toEqual([]);
      expect(await ids('dogs 🎉 bark')).toEqual(['dogs-bark']);
    });

    it('filters by hard language', async () => {
      expect((await ids('tea', { lang: 'de' })).sort()).toEqual(['tea-de-0', 'tea-de-1', 'tea-de-2', 'tea-de-3']);
    });

    it('filters by site: host and subdomains, never look-alike domains; ANDs the site parameter', async () => {
      expect((await ids('dogs site:example.com')).sort()).toEqual(['dogs-bark', 'dogs-quiet']);
      expect((await ids('dogs', { site: 'example.com' })).sort()).toEqual(['dogs-bark', 'dogs-quiet']);
      expect(await ids('dogs site:blog.example.com')).toEqual(['dogs-quiet']);
      expect(await ids('dogs site:badexample.com')).toEqual(['lookalike']);
      expect((await ids('dogs OR wolves site:example.com site:example.org')).sort()).toEqual([
        'dogs-bark',
        'dogs-quiet',
        'wolves',
      ]);
      expect(await ids('dogs OR wolves site:example.com site:example.org', { site: 'example.org' })).toEqual([
        'wolves',
      ]);
    });

    it('filters by site: with a path to the pages under it, its segments whole and in any case', async () => {
      expect(await ids('glacier site:docs.example.io/guide')).toEqual(['glacier-guide']);
      expect((await ids('glacier site:example.io/GUIDE/')).sort()).toEqual(['glacier-guide', 'glacier-news']);
      expect(await ids('glacier site:https://docs.example.io/guide/glaciers/intro?x=1')).toEqual(['glacier-guide']);
      expect(await ids('glacier site:example.io/guide/glaciers/intro/more')).toEqual([]);
      expect(await ids('glacier', { site: 'docs.example.io/guidebook' })).toEqual(['glacier-guidebook']);
      expect(await ids('glacier site:example.io/guide', { site: 'example.io/guidebook' })).toEqual([]);
      expect((await ids('site:example.io/guide OR site:example.io/guidebook glacier')).sort()).toEqual([
        'glacier-guide',
        'glacier-guidebook',
        'glacier-news',
      ]);
    });

    it('filters by an IP address as the site, IPv6 bare or in brackets, with a path too', async () => {
      expect(await ids('moraine site:2001:db8::7')).toEqual(['moraine-v6']);
      expect(await ids('moraine site:[2001:DB8:0::7]/field')).toEqual(['moraine-v6']);
      expect(await ids('moraine', { site: '[2001:db8::7]/field/notes' })).toEqual(['moraine-v6']);
      expect(await ids('moraine site:[2001:db8::7]/fields')).toEqual([]);
      expect((await ids('moraine site:192.0.2.7')).sort()).toEqual(['moraine-port', 'moraine-v4']);
      expect(await ids('moraine site:0.2.7')).toEqual([]);
    });

    it('filters by a host with a port to that port alone, the web ports meaning the host', async () => {
      expect(await ids('moraine site:192.0.2.7:8901')).toEqual(['moraine-port']);
      expect(await ids('moraine', { site: '192.0.2.7:8901/field' })).toEqual(['moraine-port']);
      expect(await ids('moraine', { site: '192.0.2.7:8902' })).toEqual([]);
      expect(await ids('moraine site:[2001:db8::7]:8080/field')).toEqual(['moraine-v6']);
      expect(await ids('moraine site:[2001:db8::7]:8081')).toEqual([]);
      expect((await ids('moraine site:192.0.2.7:80')).sort()).toEqual(['moraine-port', 'moraine-v4']);
    });

    it('answers operator-only queries with the matching pages, newest first', async () => {
      const result = await search('site:news.example.org');
      expect(result.hits.map((h) => h.id)).toEqual(['fresh', 'stale']);
      expect(result.hits.every((h) => h.score > 0)).toBe(true);
    });

    it('orders pages crawled at the same time the same way on every page of an operator-only query', async () => {
      // The example.com pages share one crawl time: their order is a tie broken the same at any cut.
      const whole = await ids('site:example.com');
      expect(whole.length).toBeGreaterThanOrEqual(4);
      for (const limit of [1, 2, 3]) {
        const paged: string[] = [];
        for (let offset = 0; offset < whole.length; offset += limit) {
          paged.push(...(await ids('site:example.com', { limit, offset })));
        }
        expect(paged).toEqual(whole);
      }
    });

    it('answers a filter with exclusions only as the filtered pages without the excluded ones', async () => {
      expect((await ids('site:news.example.org -archive')).sort()).toEqual(['fresh']);
      expect((await ids('site:example.com -dogs')).sort()).toEqual(['cats', 'reinvent']);
    });

    it('filters by crawl time', async () => {
      expect(await ids('comet', { crawledAfter: daysBefore(30) })).toEqual(['fresh']);
      expect((await ids('comet')).sort()).toEqual(['fresh', 'stale']);
    });

    it('matches filetype families', async () => {
      expect((await ids('revenue filetype:doc')).sort()).toEqual(['doc', 'docx']);
      expect(await ids('revenue filetype:pdf')).toEqual(['pdf']);
      expect((await ids('revenue filetype:pdf filetype:doc')).sort()).toEqual(['doc', 'docx', 'pdf']);
      expect(await ids('revenue filetype:xls')).toEqual(['ods']);
      expect(await ids('revenue filetype:ppt')).toEqual([]);
    });

    it('returns positive scores in descending order and a total', async () => {
      const result = await search('tea');
      expect(result.hits).toHaveLength(12);
      expect(result.total).toBe(12);
      expect(result.totalIsEstimate).toBe(false);
      for (const [i, hit] of result.hits.entries()) {
        expect(hit.score).toBeGreaterThan(0);
        if (i > 0) expect(hit.score).toBeLessThanOrEqual(result.hits[i - 1]!.score);
      }
    });

    it('boosts lang_priority softly: other languages stay, equal pages in that language rank first', async () => {
      const hits = (await search('tea', { langPriority: 'fr' })).hits;
      expect(hits).toHaveLength(12);
      const position = new Map(hits.map((hit, i) => [hit.id, i]));
      for (let i = 0; i < 4; i++) {
        expect(position.get(`tea-fr-${i}`)!).toBeLessThan(position.get(`tea-en-${i}`)!);
        expect(position.get(`tea-fr-${i}`)!).toBeLessThan(position.get(`tea-de-${i}`)!);
      }
      expect(await ids('tea', { langPriority: 'fr', lang: 'de' })).toHaveLength(4);
    });

    it('paginates consistently, with lang_priority applied before the page is cut', async () => {
      const all = await ids('tea', { langPriority: 'de' });
      const paged: string[] = [];
      for (let offset = 0; offset < all.length; offset += 5) {
        paged.push(...(await ids('tea', { langPriority: 'de', limit: 5, offset })));
      }
      expect(paged).toEqual(all);
      expect(await ids('tea', { limit: 3 })).toHaveLength(3);
      const far = await search('tea', { limit: 100, offset: 990 });
      expect(far.hits).toEqual([]);
      expect(far.total).toBe(12);
    });

    it('returns snippets that contain a query term, and full hit fields', async () => {
      const [hit] = (await search('curious')).hits;
      expect(hit?.snippet.toLowerCase()).toContain('curious');
      expect(hit?.snippet.length).toBeLessThanOrEqual(320);
      expect(hit).toMatchObject({
        id: 'cats',
        url: 'https://example.com/cats',
        title: 'Cats and their habits',
        domain: 'example.com',
        site_name: null,
        lang: 'en',
        has_llms_txt: false,
        published_at: null,
        filetype: 'html',
      });
    });

    it('searches Chinese by words', async () => {
      expect(await ids('搜索引擎')).toEqual(['zh-search']);
      expect(await ids('天气')).toEqual(['zh-weather']);
      const [hit] = (await search('搜索引擎')).hits;
      expect(hit?.snippet).toContain('搜索引擎');
    });
  });

  describe(`SearchIndex contract (listings): ${name}`, () => {
    let index: SearchIndex;
    let cleanup: () => Promise<void>;
    const { pages, newest } = listingCorpus();
    const search = (q: string, options: Options = {}): Promise<IndexSearchResult> =>
      index.search({ query: parseQuery(q), limit: 100, offset: 0, ...options });
    const ids = async (q: string, options: Options = {}): Promise<string[]> =>
      (await search(q, options)).hits.map((hit) => hit.id);
    /** The site's pages newest first, less those `excluded` names. */
    const newestBut = (...excluded: string[]) => newest.filter((id) => !excluded.includes(id));

    beforeAll(async () => {
      ({ index, cleanup } = await open());
      await index.upsert(pages);
    });
    afterAll(async () => {
      await cleanup();
    });

    it('lists a filter with exclusions only newest crawl first, as a filter alone is listed', async () => {
      expect(await ids(`site:${LISTING_SITE}`)).toEqual(newest);
      const result = await search(`site:${LISTING_SITE} -draft`);
      expect(result.hits.map((hit) => hit.id)).toEqual(newestBut('log-2', 'log-6', 'log-7'));
      expect(result.total).toBe(7);
      expect(result.totalIsEstimate).toBe(false);
      for (const [i, hit] of result.hits.entries()) {
        expect(hit.score).toBeGreaterThan(0);
        if (i > 0) expect(hit.score).toBeLessThanOrEqual(result.hits[i - 1]!.score);
      }
      expect(await ids(`site:${LISTING_SITE} -draft -"release candidate"`)).toEqual(
        newestBut('log-2', 'log-3', 'log-6', 'log-7'),
      );
      expect(await ids('filetype:pdf -draft')).toEqual(['log-4', 'log-9']);
    });

    it('pages through a filter with exclusions only consistently, with an exact total', async () => {
      const q = `site:${LISTING_SITE} -draft`;
      const whole = await ids(q);
      for (const limit of [1, 2, 3]) {
        const paged: string[] = [];
        for (let offset = 0; offset < whole.length + limit; offset += limit) {
          const page = await search(q, { limit, offset });
          expect(page.total).toBe(whole.length);
          paged.push(...page.hits.map((hit) => hit.id));
        }
        expect(paged).toEqual(whole);
      }
    });
  });

  describe(`SearchIndex contract (writes): ${name}`, () => {
    let index: SearchIndex;
    let cleanup: () => Promise<void>;
    const ids = async (q: string): Promise<string[]> =>
      (await index.search({ query: parseQuery(q), limit: 10, offset: 0 })).hits.map((hit) => hit.id);

    beforeAll(async () => {
      ({ index, cleanup } = await open());
    });
    afterAll(async () => {
      await cleanup();
    });

    it('upserts idempotently by id, replacing the old content', async () => {
      const page = makePage('p1', 'https://example.com/p1', 'Original heading', 'Marmalade recipe with oranges.');
      await index.upsert([page]);
      await index.upsert([page]);
      expect(await index.count()).toBe(1);
      await index.upsert([{ ...page, title: 'Replaced heading', body_text: 'Lemon curd recipe.' }]);
      expect(await index.count()).toBe(1);
      expect(await ids('marmalade')).toEqual([]);
      expect(await ids('lemon')).toEqual(['p1']);
      expect(await ids('intitle:replaced')).toEqual(['p1']);
    });

    it('reports has and count, and deletes by id (ignoring unknown ids)', async () => {
      await index.upsert([
        makePage('p2', 'https://example.com/p2', 'Second', 'Quince jelly.'),
        makePage('p3', 'https://example.com/p3', 'Third', 'Quince paste.'),
      ]);
      expect(await index.has('p2')).toBe(true);
      expect(await index.has('nope')).toBe(false);
      const before = await index.count();
      await index.delete(['p2', 'nope']);
      expect(await index.has('p2')).toBe(false);
      expect(await index.count()).toBe(before - 1);
      expect(await ids('quince')).toEqual(['p3']);
    });

    it("removes a site's pages, and only them, however many (removeSitePages, as `quarry forget` does)", async () => {
      // Real page ids: the page store takes no other.
      const page = (url: string, title: string) => makePage(pageIdForUrl(url), url, title, 'Sorrel soup.');
      const gone = Array.from({ length: 1_050 }, (_, i) => page(`https://www.forget.example/p/${i}`, `Page ${i}`));
      const kept = [page('https://notforget.example/p', 'Kept'), page('https://forget.example.org/p', 'Kept too')];
      const idOf = (pages: typeof gone, i: number) => pages[i]?.id ?? '';
      await index.upsert([...gone, ...kept]);
      const dir = mkdtempSync(join(tmpdir(), 'quarry-contract-blobs-'));
      try {
        const blobs = new FileBlobStore({ dir });
        await blobs.putMany([gone[0], kept[0]].filter((page) => page !== undefined));
        // Counted first (`quarry status` of forgotten sites), the first MAX_COUNTED_SITES sites only.
        const more = Array.from({ length: MAX_COUNTED_SITES }, (_, i) => `more${i}.example`);
        const counts = await sitePageCounts(index, [
          'notforget.example',
          'forget.example.org/p',
          'nowhere.example',
          ...more,
        ]);
        expect([...counts].slice(0, 3)).toEqual([
          ['notforget.example', 1],
          ['forget.example.org/p', 1],
          ['nowhere.example', 0],
        ]);
        expect(counts.size).toBe(MAX_COUNTED_SITES);
        // An engine may estimate a count past a thousand.
        expect((await sitePageCounts(index, ['forget.example'])).get('forget.example')).toBeGreaterThanOrEqual(1_000);
        const progress: number[] = [];
        expect(await removeSitePages(index, blobs, 'forget.example', (n) => progress.push(n))).toBe(1_050);
        // More pages than one search reaches: removed in rounds.
        expect(progress.length).toBeGreaterThan(1);
        expect(progress.at(-1)).toBe(1_050);
        expect((await ids('sorrel')).sort()).toEqual([idOf(kept, 0), idOf(kept, 1)].sort());
        expect(await index.has(idOf(gone, 1_049))).toBe(false);
        expect(await blobs.get(idOf(gone, 0))).toBeNull();
        expect((await blobs.get(idOf(kept, 0)))?.url).toBe('https://notforget.example/p');
        expect(await removeSitePages(index, blobs, 'forget.example')).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('answers ping while open', async () => {
      await expect(index.ping()).resolves.toBeUndefined();
    });
  });

  describe(`SearchIndex contract (closing): ${name}`, () => {
    it('answers the searches and ends the writes under way before it closes, and refuses writes after', async () => {
      const { index, cleanup } = await open();
      try {
        await index.upsert([makePage('c1', 'https://example.com/c1', 'Apricots', 'Apricot jam recipe.')]);
        const searching = index.search({ query: parseQuery('apricot'), limit: 10, offset: 0 });
        const writing = index.upsert([makePage('c2', 'https://example.com/c2', 'Plums', 'Plum jam recipe.')]);
        const closing = index.close();
        expect((await searching).hits.map((hit) => hit.id)).toEqual(['c1']);
        await expect(writing).resolves.toBeUndefined();
        await closing;
        await expect(index.upsert([makePage('c3', 'https://example.com/c3', 'Figs', 'Fig jam.')])).rejects.toThrow();
      } finally {
        await cleanup();
      }
    });
  });
}
