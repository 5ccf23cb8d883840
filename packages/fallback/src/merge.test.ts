import { describe, expect, it } from '@jest/globals';
import type { SearchResult } from '@quarry/core';
import { mergeExternal } from './merge.js';

function result(url: string, score: number, source: SearchResult['source']): SearchResult {
  return {
    id: source === 'local' ? `id-${score}` : '',
    url,
    title: url,
    snippet: '',
    domain: new URL(url).hostname,
    lang: 'en',
    score,
    source,
    has_llms_txt: false,
    published_at: null,
    crawled_at: '2026-01-01T00:00:00Z',
  };
}

const local = [result('https://a.org/1', 12.5, 'local'), result('https://a.org/2', 3.2, 'local')];

describe('mergeExternal', () => {
  it('drops externals that match a local URL after normalization, and duplicates among externals', () => {
    const external = [
      result('HTTPS://A.org:443/1?utm_source=x#frag', 0.5, 'external'),
      result('https://b.org/x', 0.33, 'external'),
      result('https://b.org/x#again', 0.25, 'external'),
      result('https://c.org/', 0.2, 'external'),
    ];
    const merged = mergeExternal(local, external, 10);
    expect(merged.map((r) => r.url)).toEqual([
      'https://a.org/1',
      'https://a.org/2',
      'https://b.org/x',
      'https://c.org/',
    ]);
  });

  it('puts externals after locals with positive scores strictly below the lowest local one, in score order', () => {
    const external = [result('https://c.org/', 0.2, 'external'), result('https://b.org/', 0.5, 'external')];
    const merged = mergeExternal(local, external, 10);
    expect(merged.slice(0, 2)).toEqual(local);
    const ext = merged.slice(2);
    expect(ext.map((r) => r.url)).toEqual(['https://b.org/', 'https://c.org/']);
    for (const r of ext) {
      expect(r.source).toBe('external');
      expect(r.score).toBeGreaterThan(0);
      expect(r.score).toBeLessThan(3.2);
    }
    const scores = merged.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(new Set(scores).size).toBe(scores.length);
  });

  it('caps the page at limit and leaves the inputs untouched', () => {
    const external = [0.5, 0.4, 0.3, 0.2].map((s, i) => result(`https://e.org/${i}`, s, 'external'));
    const before = JSON.stringify(external);
    expect(mergeExternal(local, external, 3)).toHaveLength(3);
    expect(mergeExternal(local, external, 2)).toEqual(local);
    expect(mergeExternal(local, external, 0)).toEqual([]);
    expect(JSON.stringify(external)).toBe(before);
  });

  it('keeps externals below 1 and positive when there are no local results', () => {
    const external = [result('https://e.org/a', 7, 'external'), result('https://e.org/b', 3, 'external')];
    const merged = mergeExternal([], external, 10);
    expect(merged.map((r) => r.url)).toEqual(['https://e.org/a', 'https://e.org/b']);
    for (const r of merged) expect(r.score > 0 && r.score < 1).toBe(true);
    expect(merged[0]!.score).toBeGreaterThan(merged[1]!.score);
  });

  it('skips externals whose URL is not http(s)', () => {
    const merged = mergeExternal(local, [result('https://ok.org/', 0.5, 'external')], 10);
    const bad = { ...result('https://x.org/', 0.9, 'external'), url: 'not a url' };
    expect(mergeExternal(local, [bad], 10)).toEqual(local);
    expect(merged).toHaveLength(3);
  });
});
