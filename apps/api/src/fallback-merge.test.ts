import { describe, expect, it } from '@jest/globals';
import type { IndexHit, IndexQuery, SearchResult } from '@quarry/core';
import { externalResults, withExternal } from './fallback-merge.js';

const NOW = new Date('2026-03-10T12:00:00Z');

function result(url: string, score: number, source: 'local' | 'external' = 'local'): SearchResult {
  return {
    id: source === 'local' ? 'AAAAAAAAAAAAAAAAAAAAAA' : '',
    url,
    title: url,
    snippet: '',
    domain: new URL(url).hostname,
    lang: 'en',
    score,
    source,
    has_llms_txt: false,
    published_at: null,
    crawled_at: '2026-03-01T00:00:00Z',
  };
}

describe('externalResults', () => {
  it('dedupes by normalized URL under either scheme, keeps order and ranks external after local', () => {
    const local = [result('https://a.example/x', 3), result('https://a.example/y', 0.5)];
    const external = [
      result('HTTPS://A.EXAMPLE/x?utm_source=z#frag', 9, 'external'),
      result('http://a.example/y', 9, 'external'),
      result('http://b.example/2', 9, 'external'),
      result('https://b.example/1', 9, 'external'),
      result('https://b.example/1#again', 9, 'external'),
      result('javascript:alert(1)', 9, 'external'),
      result('https://b.example/2', 9, 'external'),
    ];
    const merged = externalResults(local, external, NOW);
    expect(merged.map((r) => r.url)).toEqual(['http://b.example/2', 'https://b.example/1']);
    const [e1, e2] = merged;
    expect(e1!.score).toBeLessThan(0.5);
    expect(e2!.score).toBeLessThan(e1!.score);
    expect(e2!.score).toBeGreaterThan(0);
    expect(merged.every((r) => r.source === 'external' && r.id === '')).toBe(true);
  });

  it('rebuilds their fields', () => {
    const odd = {
      ...result('https://c.example/', 1, 'external'),
      id: 'provider-id',
      lang: 'en-US',
      published_at: 'not a date',
      extra: 'leak',
    } as SearchResult;
    const [merged] = externalResults([], [odd], NOW);
    expect(merged).toMatchObject({ id: '', lang: 'en', published_at: null, source: 'external' });
    expect(merged).not.toHaveProperty('extra');
    expect(merged).not.toHaveProperty('site_name');
  });
});

describe('withExternal', () => {
  // Five local results in all (u0..u4, scores 5..1); the provider also knows u1 and three others.
  const LOCAL: IndexHit[] = [0, 1, 2, 3, 4].map((i) => ({
    ...result(`https://a.example/u${i}`, 5 - i),
    snippet: '',
    site_name: null,
    simhash: null,
  })) as unknown as IndexHit[];
  const ANSWER = ['u1', 'e1', 'e2', 'e3'].map((p) =>
    result(`https://${p === 'u1' ? 'a' : 'b'}.example/${p}`, 1, 'external'),
  );
  const query = (offset: number, limit: number) => ({ offset, limit }) as IndexQuery;
  const page = async (offset: number, limit: number) => {
    const asked: number[] = [];
    const before: number[] = [];
    const local = { total: LOCAL.length, totalIsEstimate: false, hits: LOCAL.slice(offset, offset + limit) };
    const got = await withExternal(
      query(offset, limit),
      local,
      async (count) => {
        asked.push(count);
        return ANSWER;
      },
      async (count) => {
        before.push(count);
        return LOCAL.slice(0, count);
      },
      NOW,
    );
    return { ...got, asked, before, urls: got.results.map((r) => new URL(r.url).pathname.slice(1)) };
  };

  it('serves a full local page without asking', async () => {
    const full = await page(0, 3);
    expect(full.urls).toEqual(['u0', 'u1', 'u2']);
    expect(full.asked).toEqual([]);
    expect(full.total).toBe(5);
  });

  it('slices pages from one list of every local result then the new external ones', async () => {
    const pages = [await page(0, 2), await page(2, 2), await page(4, 2), await page(6, 2), await page(8, 2)];
    expect(pages.map((p) => p.urls)).toEqual([['u0', 'u1'], ['u2', 'u3'], ['u4', 'e1'], ['e2', 'e3'], []]);
    // The topped-up pages count the local matches and the external part (3 new URLs) alike.
    expect(pages.slice(2).map((p) => p.total)).toEqual([8, 8, 8]);
    // Local results before the page are read to dedupe against and to find the local list's end.
    expect(pages[3]!.before).toEqual([6]);
    expect(pages[2]!.asked).toEqual([100]);
    const scores = pages.flatMap((p) => p.results.map((r) => r.score));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(Math.max(...pages[3]!.results.map((r) => r.score))).toBeLessThan(1);
  });
});
