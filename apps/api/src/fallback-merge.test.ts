import { describe, expect, it } from '@jest/globals';
import type { SearchResult } from '@quarry/core';
import { mergeExternal } from './fallback-merge.js';

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

describe('mergeExternal', () => {
  it('dedupes by normalized URL, keeps order and ranks external after local', () => {
    const local = [result('https://a.example/x', 3), result('https://a.example/y', 0.5)];
    const external = [
      result('HTTPS://A.EXAMPLE/x?utm_source=z#frag', 9, 'external'),
      result('https://b.example/1', 9, 'external'),
      result('https://b.example/1#again', 9, 'external'),
      result('javascript:alert(1)', 9, 'external'),
      result('https://b.example/2', 9, 'external'),
    ];
    const merged = mergeExternal(local, external, 10, NOW);
    expect(merged.map((r) => r.url)).toEqual([
      'https://a.example/x',
      'https://a.example/y',
      'https://b.example/1',
      'https://b.example/2',
    ]);
    const [, lowestLocal, e1, e2] = merged;
    expect(e1!.score).toBeLessThan(lowestLocal!.score);
    expect(e2!.score).toBeLessThan(e1!.score);
    expect(e2!.score).toBeGreaterThan(0);
    expect(merged.slice(2).every((r) => r.source === 'external' && r.id === '')).toBe(true);
  });

  it('takes at most max external results and rebuilds their fields', () => {
    const odd = {
      ...result('https://c.example/', 1, 'external'),
      id: 'provider-id',
      lang: 'en-US',
      published_at: 'not a date',
      extra: 'leak',
    } as SearchResult;
    const merged = mergeExternal([], [odd, result('https://d.example/', 1, 'external')], 1, NOW);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ id: '', lang: 'en', published_at: null, source: 'external' });
    expect(merged[0]).not.toHaveProperty('extra');
    expect(merged[0]).not.toHaveProperty('site_name');
  });
});
