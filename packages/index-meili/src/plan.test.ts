import { describe, expect, it } from '@jest/globals';
import { type IndexQuery, ValidationError } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import type { MultiSearchQueryWithFederation, SearchParams } from 'meilisearch';
import { BODY_FIELDS, RETRIEVED_FIELDS, TITLE_FIELDS } from './fields.js';
import { planSearch, type SearchPlan } from './plan.js';

const UID = 'pages_test';

function query(q: string, extra: Partial<Omit<IndexQuery, 'query'>> = {}): IndexQuery {
  return { query: parseQuery(q), limit: 10, offset: 0, ...extra };
}

function single(plan: SearchPlan): { q: string; params: SearchParams } {
  if (plan.kind !== 'single') throw new Error(`expected a single search, got ${plan.kind}`);
  return plan;
}

function federated(plan: SearchPlan): { queries: MultiSearchQueryWithFederation[]; offset?: number; limit?: number } {
  if (plan.kind !== 'federated') throw new Error(`expected a federated search, got ${plan.kind}`);
  return { queries: plan.request.queries, ...plan.request.federation };
}

function thrown(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('planSearch: one conjunction', () => {
  it('is one search with AND matching, ranking scores, crops and pagination', () => {
    const { q, params } = single(planSearch(UID, query('solar cells', { limit: 25, offset: 50 })));
    expect(q).toBe('solar cells');
    expect(params).toEqual({
      matchingStrategy: 'all',
      attributesToRetrieve: [...RETRIEVED_FIELDS],
      attributesToCrop: ['body:40', 'body_zh:120', 'body_ja:120'],
      cropMarker: '…',
      showRankingScore: true,
      offset: 50,
      limit: 25,
    });
    expect(params.attributesToHighlight).toBeUndefined();
    expect(params.filter).toBeUndefined();
  });

  it('maps match=any to the frequency matching strategy (rare words kept longest), all to all', () => {
    expect(single(planSearch(UID, query('solar cells', { match: 'any' }))).params.matchingStrategy).toBe('frequency');
    expect(single(planSearch(UID, query('solar cells', { match: 'all' }))).params.matchingStrategy).toBe('all');
    const fed = federated(planSearch(UID, query('x OR b c', { match: 'any' })));
    expect(fed.queries.map((q) => q.matchingStrategy)).toEqual(fed.queries.map(() => 'frequency'));
  });

  it('honours the crop options', () => {
    const { params } = single(planSearch(UID, query('x'), { cropLengthWords: 30, cjkCropLengthWords: 90 }));
    expect(params.attributesToCrop).toEqual(BODY_FIELDS.map((f) => `${f}:${f === 'body' ? 30 : 90}`));
  });

  it('filters on site with subdomains, ANDing the parameter with the ORed operators', () => {
    expect(single(planSearch(UID, query('x', { site: 'Example.com' }))).params.filter).toBe(
      'site_hosts = "example.com"',
    );
    expect(single(planSearch(UID, query('x site:a.org site:b.org', { site: 'a.org' }))).params.filter).toBe(
      '(site_hosts = "a.org") AND (site_hosts IN ["a.org", "b.org"])',
    );
    expect(single(planSearch(UID, query('site:docs.example.com'))).q).toBe('');
  });

  it('filters on filetype families, language and crawl time', () => {
    const { params } = single(
      planSearch(
        UID,
        query('report filetype:doc filetype:pdf', { lang: 'zh-CN', crawledAfter: '2026-01-01T00:00:00Z' }),
      ),
    );
    expect(params.filter).toBe(
      [
        '(filetype IN ["doc", "docx", "odt", "pdf"])',
        '(lang = "zh")',
        `(crawled_at_secs >= ${Date.UTC(2026, 0, 1) / 1000})`,
      ].join(' AND '),
    );
    expect(params.locales).toEqual(['cmn']);
  });

  it('sets the query locale for Japanese, and leaves other queries to detection', () => {
    expect(single(planSearch(UID, query('x', { lang: 'ja' }))).params.locales).toEqual(['jpn']);
    expect(single(planSearch(UID, query('ひらがな 検索'))).params.locales).toEqual(['jpn']);
    expect(single(planSearch(UID, query('搜索引擎'))).params.locales).toBeUndefined();
    expect(single(planSearch(UID, query('solar'))).params.locales).toBeUndefined();
  });

  it('combines intitle filters with the shared filters', () => {
    const { q, params } = single(planSearch(UID, query('intitle:solar cells -intitle:draft', { site: 'a.org' })));
    expect(q).toBe('solar cells');
    expect(params.attributesToSearchOn).toBeUndefined();
    expect(params.filter).toBe('(site_hosts = "a.org") AND (title_words = "solar") AND (NOT (title_words = "draft"))');
    expect(single(planSearch(UID, query('intitle:solar'))).params.attributesToSearchOn).toEqual(TITLE_FIELDS);
  });

  it('rejects values that could not be filtered on, naming the parameter', () => {
    expect(thrown(() => planSearch(UID, query('x', { site: 'a" OR lang = "en' }))).param).toBe('site');
    expect(thrown(() => planSearch(UID, query('x', { lang: 'en" OR lang = "zh' }))).param).toBe('lang');
    expect(thrown(() => planSearch(UID, query('x', { langPriority: '"' }))).param).toBe('lang_priority');
    expect(thrown(() => planSearch(UID, query('x', { crawledAfter: 'soon' }))).param).toBe('time_range');
    const forged = { ...query('x'), query: { root: null, sites: ['evil" OR 1'], filetypes: [] } };
    expect(thrown(() => planSearch(UID, forged)).param).toBe('q');
  });
});

describe('planSearch: pagination bounds', () => {
  it.each([
    [1, 0],
    [100, 990],
    [10, 500],
  ])('accepts limit %i with offset %i', (limit, offset) => {
    const { params } = single(planSearch(UID, query('x', { limit, offset })));
    expect([params.limit, params.offset]).toEqual([limit, offset]);
  });

  it.each([
    [0, 0, 'limit'],
    [101, 0, 'limit'],
    [10.5, 0, 'limit'],
    [10, -1, 'offset'],
    [10, 991, 'offset'],
    [10, Number.NaN, 'offset'],
  ])('rejects limit %s with offset %s', (limit, offset, param) => {
    expect(thrown(() => planSearch(UID, query('x', { limit, offset }))).param).toBe(param);
  });

  it('puts pagination on the federation, not on its queries', () => {
    const f = federated(planSearch(UID, query('x OR b', { limit: 100, offset: 990 })));
    expect([f.offset, f.limit]).toEqual([990, 100]);
    for (const q of f.queries) {
      expect(q.offset).toBeUndefined();
      expect(q.limit).toBeUndefined();
      expect(q.page).toBeUndefined();
      expect(q.hitsPerPage).toBeUndefined();
    }
  });
});

describe('planSearch: OR', () => {
  it('runs one federated query per conjunction, each with the shared filter', () => {
    const f = federated(planSearch(UID, query('solar panels OR cells -roof site:a.org')));
    expect(f.queries.map((q) => q.q)).toEqual(['-roof solar panels', '-roof solar cells']);
    for (const q of f.queries) {
      expect(q.indexUid).toBe(UID);
      expect(q.filter).toBe('site_hosts = "a.org"');
      expect(q.matchingStrategy).toBe('all');
      expect(q.showRankingScore).toBe(true);
      expect(q.federationOptions).toBeUndefined();
    }
  });

  it('gives each conjunction its own intitle translation', () => {
    const f = federated(planSearch(UID, query('intitle:solar OR wind turbines')));
    expect(f.queries[0]).toMatchObject({ q: 'solar turbines', filter: 'title_words = "solar"' });
    expect(f.queries[0]!.attributesToSearchOn).toBeUndefined();
    expect(f.queries[1]).toMatchObject({ q: 'wind turbines' });
    expect(f.queries[1]!.filter).toBeUndefined();
    const titles = federated(planSearch(UID, query('intitle:solar OR intitle:wind')));
    expect(titles.queries.map((q) => q.attributesToSearchOn)).toEqual([TITLE_FIELDS, TITLE_FIELDS]);
  });

  it('rejects an expansion beyond maxOrBranches and accepts a larger cap', () => {
    const q = 'x OR b c OR d e OR f';
    expect(thrown(() => planSearch(UID, query(q), { maxOrBranches: 4 })).param).toBe('q');
    expect(federated(planSearch(UID, query(q), { maxOrBranches: 8 })).queries).toHaveLength(8);
  });

  it('asks nothing for a query of symbols alone, and only the searchable alternatives of an OR', () => {
    expect(planSearch(UID, query('🎉')).kind).toBe('none');
    expect(single(planSearch(UID, query('🎉 OR solar'))).q).toBe('solar');
  });

  it('asks nothing when no conjunction can match', () => {
    const contradiction = {
      ...query('x'),
      query: {
        root: {
          type: 'and' as const,
          children: [
            { type: 'term' as const, text: 'x', field: 'any' as const },
            { type: 'not' as const, child: { type: 'term' as const, text: 'x', field: 'any' as const } },
          ],
        },
        sites: [],
        filetypes: [],
      },
    };
    expect(planSearch(UID, contradiction).kind).toBe('none');
  });
});

describe('planSearch: operators with exclusions only', () => {
  // A `q` of exclusions alone is a placeholder search over the documents without them (Meilisearch
  // drops the excluded documents from the universe, then finds no query term): such a search applies
  // only the sort and custom ranking rules, so pages come newest crawl first as for a filter alone
  // (see fields.test.ts), with an exact `estimatedTotalHits`.
  it('is one search whose q holds only the exclusions, under the filters, with no sort to override', () => {
    const { q, params } = single(planSearch(UID, query('site:a.org -draft -"release candidate"', { offset: 20 })));
    expect(q).toBe('-draft -"release candidate"');
    expect(params.filter).toBe('site_hosts = "a.org"');
    expect(params.sort).toBeUndefined();
    expect(params.attributesToSearchOn).toBeUndefined();
    expect([params.offset, params.limit]).toEqual([20, 10]);
    expect(single(planSearch(UID, query('filetype:pdf -draft'))).params.filter).toBe('filetype IN ["pdf"]');
  });

  it('excludes a title word by a filter, leaving q empty: a placeholder search too', () => {
    const { q, params } = single(planSearch(UID, query('site:a.org -intitle:draft')));
    expect(q).toBe('');
    expect(params.filter).toBe('(site_hosts = "a.org") AND (NOT (title_words = "draft"))');
  });

  it('keeps the exclusions in both queries of a lang_priority federation', () => {
    const f = federated(planSearch(UID, query('site:a.org -draft', { langPriority: 'de' })));
    expect(f.queries.map((q) => [q.q, q.filter, q.federationOptions?.weight])).toEqual([
      ['-draft', '(site_hosts = "a.org") AND (lang = "de")', 1.2],
      ['-draft', '(site_hosts = "a.org") AND (lang != "de")', 1],
    ]);
  });
});

describe('planSearch: lang_priority', () => {
  it('runs each conjunction twice: the language weighted up, the others at weight 1', () => {
    const f = federated(planSearch(UID, query('solar site:a.org', { langPriority: 'zh-TW', limit: 20, offset: 40 })));
    expect([f.offset, f.limit]).toEqual([40, 20]);
    expect(f.queries.map((q) => [q.q, q.filter, q.federationOptions])).toEqual([
      ['solar', '(site_hosts = "a.org") AND (lang = "zh")', { weight: 1.2 }],
      ['solar', '(site_hosts = "a.org") AND (lang != "zh")', { weight: 1 }],
    ]);
  });

  it('doubles every OR conjunction and honours the weight option', () => {
    const f = federated(planSearch(UID, query('x OR b', { langPriority: 'en' }), { langPriorityWeight: 1.5 }));
    expect(f.queries.map((q) => [q.q, q.filter, q.federationOptions?.weight])).toEqual([
      ['x', 'lang = "en"', 1.5],
      ['x', 'lang != "en"', 1],
      ['b', 'lang = "en"', 1.5],
      ['b', 'lang != "en"', 1],
    ]);
  });

  it('boosts a filter-only query too', () => {
    const f = federated(planSearch(UID, query('site:a.org', { langPriority: 'ja' })));
    expect(f.queries.map((q) => q.q)).toEqual(['', '']);
  });

  it('changes nothing under a hard language filter', () => {
    const plan = single(planSearch(UID, query('solar', { lang: 'en', langPriority: 'zh' })));
    expect(plan.params.filter).toBe('lang = "en"');
  });
});
