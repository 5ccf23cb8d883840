import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FallbackRequest, FallbackSearcher, SearchResult, UrlSubmitter } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import request from 'supertest';
import { isUnanswered } from './answered.js';
import { createApp } from './app.js';
import { createMcpBackend } from './mcp-backend.js';
import { createFixture, type Fixture } from './test-support/fixture.js';
import { specProblems } from './test-support/openapi-validator.js';

const SEARCH = '/api/v1/search';

function external(url: string, title = url): SearchResult {
  return {
    id: '',
    url,
    title,
    snippet: `About ${title}`,
    domain: new URL(url).hostname,
    lang: 'en',
    score: 42,
    source: 'external',
    has_llms_txt: false,
    published_at: '2025-12-01T00:00:00Z',
    crawled_at: '2026-01-01T00:00:00Z',
  };
}

/** A stand-in for a third-party search service with a fixed answer. */
class FixedFallback implements FallbackSearcher {
  readonly name = 'fixed';
  readonly requests: FallbackRequest[] = [];
  constructor(readonly answer: SearchResult[]) {}
  async search(req: FallbackRequest): Promise<SearchResult[]> {
    this.requests.push(req);
    return this.answer;
  }
}

class RecordingSubmitter implements UrlSubmitter {
  readonly submitted: string[][] = [];
  constructor(readonly fail = false) {}
  async submit(urls: readonly string[]): Promise<void> {
    this.submitted.push([...urls]);
    if (this.fail) throw new Error('queue down');
  }
}

const ANSWER = [
  external('https://example.com/quarry?utm_source=ads'),
  external('https://elsewhere.example/one'),
  external('https://elsewhere.example/one#dup'),
  external('https://elsewhere.example/two'),
  external('https://elsewhere.example/three'),
];

let fx: Fixture;
beforeAll(async () => {
  fx = await createFixture();
});
afterAll(async () => {
  await fx.cleanup();
});

type Result = { id: string; url: string; score: number; source: string };

describe('search with an external fallback', () => {
  it('fills a short page with deduplicated external results ranked after local ones', async () => {
    const fallback = new FixedFallback(ANSWER);
    const app = createApp(fx.deps({}, { fallback }));
    const local = await request(createApp(fx.deps())).get(`${SEARCH}?q=quarry&site=example.com&limit=4`);
    const res = await request(app).get(`${SEARCH}?q=quarry&site=example.com&limit=4&time_range=30d&lang=en`);
    expect(specProblems(res, SEARCH)).toEqual([]);
    const results = res.body.results as Result[];
    const locals = results.filter((r) => r.source === 'local');
    const externals = results.filter((r) => r.source === 'external');
    expect(locals).toEqual(local.body.results);
    expect(results.length).toBe(4);
    expect(results.slice(0, locals.length)).toEqual(locals);
    expect(externals.map((r) => r.url)).toEqual(
      ['https://elsewhere.example/one', 'https://elsewhere.example/two', 'https://elsewhere.example/three'].slice(
        0,
        4 - locals.length,
      ),
    );
    expect(externals.every((r) => r.id === '')).toBe(true);
    const lowestLocal = Math.min(...locals.map((r) => r.score));
    expect(Math.max(...externals.map((r) => r.score))).toBeLessThan(lowestLocal);
    expect(externals.length).toBeGreaterThan(0);
    // The fallback part of the list is all three of its new URLs, shown on this page or the next.
    expect(res.body.total).toBe(local.body.total + 3);
    const asked = fallback.requests.at(-1);
    expect(asked).toMatchObject({
      q: 'quarry',
      count: 100,
      site: 'example.com',
      lang: 'en',
      timeRange: '30d',
    });
  });

  it('never serves a page the index holds as an external result: the local search left it out for a reason', async () => {
    const fallback = new FixedFallback([
      // Indexed, under the other scheme; excluded by `-history`.
      external('http://old.example.org/quarry-history'),
      // Indexed, in English; `lang=zh` asked.
      external('https://example.com/quarry'),
      external('https://elsewhere.example/new'),
    ]);
    const app = createApp(fx.deps({}, { fallback }));
    for (const query of ['q=quarry%20-history', 'q=quarry&lang=zh']) {
      const res = await request(app).get(`${SEARCH}?${query}`);
      expect(specProblems(res, SEARCH)).toEqual([]);
      const externals = (res.body.results as Result[]).filter((r) => r.source === 'external');
      expect(externals.map((r) => r.url)).toEqual(['https://elsewhere.example/new']);
    }
  });

  it('does not ask the fallback when the local page is full', async () => {
    const fallback = new FixedFallback(ANSWER);
    const app = createApp(fx.deps({}, { fallback }));
    const res = await request(app).get(`${SEARCH}?q=widget&limit=5`);
    expect(specProblems(res, SEARCH)).toEqual([]);
    expect(res.body.total).toBe(15);
    expect(fallback.requests).toHaveLength(0);
  });

  it('asks the fallback for a match=any question whose words local pages hold only as stop words', async () => {
    const fallback = new FixedFallback(ANSWER);
    const app = createApp(fx.deps({}, { fallback }));
    // Local pages say "is", "a" and "the", never "zeppelin": none of them answers.
    const res = await request(app).get(`${SEARCH}?q=${encodeURIComponent('what is the zeppelin?')}&match=any`);
    expect(specProblems(res, SEARCH)).toEqual([]);
    const results = res.body.results as Result[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.source === 'external')).toBe(true);
    expect(fallback.requests.at(-1)).toMatchObject({ q: 'what is the zeppelin?', count: 100 });
  });

  describe('a question the local pages do not answer', () => {
    // The 15 widget pages hold `widget` (on most pages, so it weighs little) and none of the rest.
    const unanswered = 'widget electric scooter for commuting';

    it('keeps the best third of a page of local results, then the fallback answer, REST default and match=any', async () => {
      for (const q of [`q=${encodeURIComponent(unanswered)}&match=any`, `q=${encodeURIComponent(unanswered)}`]) {
        const fallback = new FixedFallback(ANSWER);
        const app = createApp(fx.deps({}, { fallback }));
        const res = await request(app).get(`${SEARCH}?${q}&limit=5`);
        expect(specProblems(res, SEARCH)).toEqual([]);
        const results = res.body.results as Result[];
        expect(results.map((r) => r.source)).toEqual(['local', 'local', 'external', 'external', 'external']);
        expect(results[0]?.url).toMatch(/^https:\/\/widgets\.example\.net\//);
        // The answer's three new URLs: its page of example.com is indexed, and left out.
        expect(res.body.total).toBe(2 + 3);
        expect(fallback.requests).toHaveLength(1);
      }
    });

    it('pages through the kept local results and the fallback answer as one list', async () => {
      const fallback = new FixedFallback(ANSWER);
      const app = createApp(fx.deps({}, { fallback }));
      const q = encodeURIComponent(unanswered);
      const pages = await Promise.all(
        [0, 2, 4, 6].map((offset) => request(app).get(`${SEARCH}?q=${q}&match=any&limit=2&offset=${offset}`)),
      );
      const all = pages.flatMap((page) => page.body.results as Result[]);
      // One local result (a third of 2, rounded up), then the answer's three new URLs that the index does not hold.
      expect(all.map((r) => r.source)).toEqual(['local', 'external', 'external', 'external']);
      expect(new Set(all.map((r) => r.url)).size).toBe(4);
      expect(pages.map((page) => page.body.total)).toEqual([4, 4, 4, 4]);
    });

    it('keeps its local results when the fallback has nothing', async () => {
      const fallback = new FixedFallback([]);
      const app = createApp(fx.deps({}, { fallback }));
      const res = await request(app).get(`${SEARCH}?q=${encodeURIComponent(unanswered)}&match=any&limit=5`);
      const results = res.body.results as Result[];
      expect(results).toHaveLength(5);
      expect(results.every((r) => r.source === 'local' && r.url.startsWith('https://widgets.example.net/'))).toBe(true);
      expect(res.body.total).toBe(15);
      expect(fallback.requests).toHaveLength(1);
    });

    it('is told from a question the best page answers without all its words', async () => {
      // The guide page holds `quarry`, `engine` and `retrieval`, not `history`: most of the weight.
      for (const q of ['quarry engine retrieval history', 'widget catalogue entry scooter']) {
        const fallback = new FixedFallback(ANSWER);
        const app = createApp(fx.deps({}, { fallback }));
        const res = await request(app).get(`${SEARCH}?q=${encodeURIComponent(q)}&match=any&limit=1`);
        expect((res.body.results as Result[]).map((r) => r.source)).toEqual(['local']);
        expect(fallback.requests).toHaveLength(0);
      }
    });

    it('reads a Chinese question by its words, not the character pairs the index keeps', async () => {
      // The Chinese page says 一篇, 搜索 and 中文, inside runs that end at 擎 and 闻 (so no 篇, 索 or 文 alone).
      const deps = { index: fx.index, blobs: fx.blobs };
      const ask = (q: string) => isUnanswered(deps, { query: parseQuery(q), match: 'any', limit: 10, offset: 0 });
      expect(await ask('搜索中文一篇')).toBe(false);
      expect(await ask('足球比赛天气搜索')).toBe(true);
      expect(await ask(unanswered)).toBe(true);
    });

    it('is answered the same way through MCP, where words are optional by default', async () => {
      const fallback = new FixedFallback(ANSWER);
      const backend = createMcpBackend(fx.deps({}, { fallback }));
      const res = await backend.search({ q: unanswered, limit: 5, offset: 0, match: 'any' });
      expect(res.results.map((r) => r.source)).toEqual(['local', 'local', 'external', 'external', 'external']);
      const answered = await backend.search({ q: 'widget catalogue entry', limit: 5, offset: 0, match: 'any' });
      expect(answered.results.map((r) => r.source)).toEqual(['local', 'local', 'local', 'local', 'local']);
    });
  });

  it('pages through local then external results as one list: no repeats, one total, nothing past its end', async () => {
    const fallback = new FixedFallback(ANSWER);
    const app = createApp(fx.deps({}, { fallback }));
    const everything = await request(createApp(fx.deps())).get(`${SEARCH}?q=quarry&limit=100`);
    const locals = (everything.body.results as Result[]).map((r) => r.url);
    expect(locals.length).toBeGreaterThan(2);
    // One local page (example.com/quarry) is also in the provider's answer: shown once, as local.
    expect(locals).toContain('https://example.com/quarry');
    const seen: Result[] = [];
    // A page full of local results does not ask the provider: its total counts the local matches.
    const totals = new Set<number>();
    for (let offset = 0; offset < locals.length + 8; offset += 2) {
      const res = await request(app).get(`${SEARCH}?q=quarry&limit=2&offset=${offset}`);
      expect(specProblems(res, SEARCH)).toEqual([]);
      const results = res.body.results as Result[];
      totals.add(results.length === 2 && results.every((r) => r.source === 'local') ? -1 : res.body.total);
      seen.push(...results);
    }
    const externals = [
      'https://elsewhere.example/one',
      'https://elsewhere.example/two',
      'https://elsewhere.example/three',
    ];
    expect(seen.map((r) => r.url)).toEqual([...locals, ...externals]);
    expect([...totals].filter((t) => t !== -1)).toEqual([everything.body.total + externals.length]);
    const scores = seen.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // Every page asked the provider the same question, so one cached answer serves them all.
    expect(new Set(fallback.requests.map((r) => JSON.stringify(r))).size).toBe(1);
  });

  it('queues external URLs for crawling only when configured, and survives a failing queue', async () => {
    const submitter = new RecordingSubmitter();
    const off = createApp(fx.deps({}, { fallback: new FixedFallback(ANSWER), urlSubmitter: submitter }));
    await request(off).get(`${SEARCH}?q=nomatchatall`);
    expect(submitter.submitted).toEqual([]);
    const on = createApp(
      fx.deps({ QUARRY_FALLBACK_CRAWL: 'true' }, { fallback: new FixedFallback(ANSWER), urlSubmitter: submitter }),
    );
    const res = await request(on).get(`${SEARCH}?q=nomatchatall`);
    expect(specProblems(res, SEARCH)).toEqual([]);
    // The answer's new URLs, less its page of example.com, which the index holds.
    expect(res.body.total).toBe(3);
    expect(submitter.submitted).toEqual([(res.body.results as Result[]).map((r) => r.url)]);
    const failing = new RecordingSubmitter(true);
    const broken = createApp(
      fx.deps({ QUARRY_FALLBACK_CRAWL: 'true' }, { fallback: new FixedFallback(ANSWER), urlSubmitter: failing }),
    );
    const ok = await request(broken).get(`${SEARCH}?q=nomatchatall`);
    expect(ok.status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fx.logs.some((l) => l.includes('could not queue fallback URLs'))).toBe(true);
  });

  it('serves local results when the provider misbehaves', async () => {
    const throwing: FallbackSearcher = {
      name: 'throwing',
      search: () => Promise.reject(new Error('provider exploded')),
    };
    const app = createApp(fx.deps({}, { fallback: throwing }));
    const res = await request(app).get(`${SEARCH}?q=quarry`);
    expect(specProblems(res, SEARCH)).toEqual([]);
    expect(res.status).toBe(200);
    expect((res.body.results as Result[]).every((r) => r.source === 'local')).toBe(true);
  });
});
