import { describe, expect, it } from '@jest/globals';
import { MIN_SCORE, toIndexHit, toSearchResult } from './results.js';

const LONG_BODY = `${'Filler words about nothing in particular. '.repeat(40)}The solar cells convert light. ${'More filler text follows here. '.repeat(40)}`;

/** A hit as Meilisearch documents it for a search with showRankingScore and attributesToCrop. */
function meiliHit(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'AAAAAAAAAAAAAAAAAAAAAA',
    url: 'https://docs.example.com/solar',
    title: 'Solar cells',
    lead: 'Filler words about nothing in particular.',
    domain: 'docs.example.com',
    site_name: 'Example Docs',
    lang: 'en',
    filetype: 'html',
    crawled_at: '2026-11-22T08:15:00Z',
    published_at: null,
    has_llms_txt: true,
    _formatted: {
      id: 'AAAAAAAAAAAAAAAAAAAAAA',
      title: 'Solar cells',
      body: '…in particular. The solar cells convert light. More filler text follows here…',
    },
    _rankingScore: 0.8731,
    ...overrides,
  };
}

describe('toIndexHit', () => {
  it('maps the documented fields', () => {
    expect(toIndexHit(meiliHit(), ['solar'])).toEqual({
      id: 'AAAAAAAAAAAAAAAAAAAAAA',
      url: 'https://docs.example.com/solar',
      title: 'Solar cells',
      snippet: '…in particular. The solar cells convert light. More filler text follows here…',
      domain: 'docs.example.com',
      site_name: 'Example Docs',
      lang: 'en',
      score: 0.8731,
      has_llms_txt: true,
      published_at: null,
      crawled_at: '2026-11-22T08:15:00Z',
      filetype: 'html',
    });
    expect(toIndexHit(meiliHit({ simhash: '0123456789abcdef' }), ['solar']).simhash).toBe('0123456789abcdef');
  });

  it('reads the localized title and body of Chinese and Japanese pages', () => {
    const hit = toIndexHit(
      meiliHit({
        title: undefined,
        title_zh: '太阳能电池',
        lang: 'zh',
        _formatted: { body_zh: '…太阳能电池把光变成电…' },
      }),
      ['太阳能'],
    );
    expect(hit.title).toBe('太阳能电池');
    expect(hit.snippet).toBe('…太阳能电池把光变成电…');
  });

  it('bounds a long crop to 320 characters around the query terms, as plain text', () => {
    const hit = toIndexHit(meiliHit({ _formatted: { body: LONG_BODY } }), ['solar']);
    expect(hit.snippet.length).toBeLessThanOrEqual(320);
    expect(hit.snippet.length).toBeGreaterThanOrEqual(160);
    expect(hit.snippet).toContain('solar cells');
    expect(hit.snippet).not.toMatch(/<\/?em>/);
  });

  it('falls back to the start of the body when no crop came back', () => {
    expect(toIndexHit(meiliHit({ _formatted: undefined }), ['solar']).snippet).toBe(
      'Filler words about nothing in particular.',
    );
    expect(toIndexHit(meiliHit({ _formatted: { body: '   ' } }), []).snippet).toBe(
      'Filler words about nothing in particular.',
    );
  });

  it('prefers the federation weighted score and keeps every score positive', () => {
    expect(
      toIndexHit(meiliHit({ _federation: { indexUid: 'p', queriesPosition: 1, weightedRankingScore: 1.05 } }), [])
        .score,
    ).toBe(1.05);
    expect(toIndexHit(meiliHit({ _rankingScore: 0 }), []).score).toBe(MIN_SCORE);
    expect(toIndexHit(meiliHit({ _rankingScore: undefined }), []).score).toBe(MIN_SCORE);
    expect(toIndexHit(meiliHit({ _rankingScore: Number.NaN }), []).score).toBe(MIN_SCORE);
  });

  it('tolerates missing optional fields', () => {
    const hit = toIndexHit({ id: 'x', url: 'https://a.org/' }, []);
    expect(hit).toMatchObject({
      title: '',
      site_name: null,
      lang: 'und',
      filetype: 'html',
      has_llms_txt: false,
      snippet: '',
    });
  });
});

describe('toSearchResult', () => {
  it('maps a plain search response (estimatedTotalHits is an estimate)', () => {
    const response = {
      hits: [meiliHit(), meiliHit({ id: 'BBBBBBBBBBBBBBBBBBBBBB', _rankingScore: 0.5 })],
      offset: 0,
      limit: 20,
      estimatedTotalHits: 2,
      processingTimeMs: 3,
      query: 'solar',
    };
    const result = toSearchResult(response, { offset: 0, snippetTerms: ['solar'], maxTotalHits: 1090 });
    expect(result.total).toBe(2);
    expect(result.totalIsEstimate).toBe(false);
    expect(result.hits.map((h) => h.score)).toEqual([0.8731, 0.5]);
  });

  it('maps a federated response in its merged order and drops repeated ids', () => {
    const response = {
      hits: [
        meiliHit({ id: 'A1', _federation: { indexUid: 'p', queriesPosition: 0, weightedRankingScore: 1.1 } }),
        meiliHit({ id: 'B2', _federation: { indexUid: 'p', queriesPosition: 1, weightedRankingScore: 0.9 } }),
        meiliHit({ id: 'A1', _federation: { indexUid: 'p', queriesPosition: 1, weightedRankingScore: 0.7 } }),
      ],
      processingTimeMs: 4,
      limit: 10,
      offset: 20,
      estimatedTotalHits: 31,
    };
    const result = toSearchResult(response, { offset: 20, snippetTerms: ['solar'], maxTotalHits: 1090 });
    expect(result.hits.map((h) => [h.id, h.score])).toEqual([
      ['A1', 1.1],
      ['B2', 0.9],
    ]);
    expect(result.total).toBe(31);
  });

  it('reports a count at the maxTotalHits cap as an estimate, and an exhaustive totalHits as exact', () => {
    const at = (estimatedTotalHits: number) =>
      toSearchResult({ hits: [], estimatedTotalHits }, { offset: 0, snippetTerms: [], maxTotalHits: 1090 });
    expect(at(1089)).toEqual({ total: 1089, totalIsEstimate: false, hits: [] });
    expect(at(1090)).toEqual({ total: 1090, totalIsEstimate: true, hits: [] });
    expect(at(5000)).toEqual({ total: 5000, totalIsEstimate: true, hits: [] });
    expect(toSearchResult({ hits: [], totalHits: 7 }, { offset: 0, snippetTerms: [], maxTotalHits: 5 })).toEqual({
      total: 7,
      totalIsEstimate: false,
      hits: [],
    });
  });

  it('never reports fewer matches than a page proves, nor more than were counted past the end', () => {
    const context = (offset: number) => ({ offset, snippetTerms: [], maxTotalHits: 1090 });
    expect(toSearchResult({ hits: [meiliHit()], estimatedTotalHits: 3 }, context(40)).total).toBe(41);
    expect(toSearchResult({ hits: [], estimatedTotalHits: 3 }, context(990)).total).toBe(3);
    expect(toSearchResult({ hits: [] }, context(0)).total).toBe(0);
  });
});
