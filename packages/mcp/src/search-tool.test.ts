import { describe, expect, it } from '@jest/globals';
import type { SearchResult } from '@quarry/core';
import { renderResults } from './search-tool.js';

const RESULT: SearchResult = {
  id: 'AAAAAAAAAAAAAAAAAAAAAA',
  url: 'https://example.com/otters',
  title: 'Otters',
  snippet: 'Otters hold hands while they sleep.',
  domain: 'example.com',
  lang: 'en',
  score: 1.5,
  source: 'local',
  has_llms_txt: false,
  published_at: null,
  crawled_at: '2026-11-30T10:00:00Z',
};

describe('renderResults', () => {
  it('counts the matches in words, one match as one', () => {
    const args = { q: 'otters', offset: 0, match: 'all' as const };
    expect(renderResults(args, { total: 1, total_is_estimate: false, took_ms: 1, results: [RESULT] })).toMatch(
      /^1 match for "otters"; showing 1:/,
    );
    expect(renderResults(args, { total: 12, total_is_estimate: false, took_ms: 1, results: [RESULT] })).toMatch(
      /^12 matches for "otters"; showing 1:/,
    );
  });

  it('says about how many when the index only estimated the total, with thousands separated', () => {
    const args = { q: 'otters', offset: 0, match: 'all' as const };
    const estimated = { total: 1091, total_is_estimate: true, took_ms: 1, results: [RESULT] };
    expect(renderResults(args, estimated)).toMatch(/^About 1,091 matches for "otters"; showing 1:/);
    expect(renderResults({ ...args, offset: 2000 }, { ...estimated, results: [] })).toBe(
      'Offset 2000 is past the last result: "otters" has about 1,091 matches. Use an offset below 1091 (0 for the first page).',
    );
    expect(renderResults(args, { ...estimated, total_is_estimate: false })).toMatch(/^1,091 matches for "otters"/);
  });

  it('says what it searched when words were searched in another spelling, and how to keep them', () => {
    const args = { q: 'otetrs', offset: 0, match: 'any' as const };
    const text = renderResults(args, {
      total: 1,
      total_is_estimate: false,
      took_ms: 1,
      results: [RESULT],
      corrected_query: 'otters',
    });
    expect(text).toMatch(/^1 match for "otters", searched instead of "otetrs" \(.*in quotes.*\); showing 1:/);
  });

  it('shows each result with its title, URL, id, language, date and snippet', () => {
    const text = renderResults(
      { q: 'otters', offset: 0, match: 'all' },
      { total: 1, total_is_estimate: false, took_ms: 1, results: [RESULT] },
    );
    expect(text).toContain(
      '1. Otters\n   https://example.com/otters\n   id AAAAAAAAAAAAAAAAAAAAAA · en · crawled 2026-11-30T10:00:00Z',
    );
    expect(text).toContain('Otters hold hands while they sleep.');
  });
});
