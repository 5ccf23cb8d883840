import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IndexQuery, IndexSearchResult } from '@quarry/core';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { planFast } from './fast-plan.js';
import { LanceSearchIndex } from './lance-index.js';

const WORDS =
  'solar panel panels heating heat transfer boundary layer flow flows turbulent library libraries museum river glacier glaciers melting the of and water energy'.split(
    ' ',
  );

/**
 * Deterministic pages: English, Polish and Czech text made of a small vocabulary, some low quality.
 * Polish and Czech pages are indexed as typed (no stemmer here), so they hold the English words as
 * typed. (A stemmed language's pages hold its stems of them, which the general plan's boolean query
 * mixes with other languages' stems word by word, where the fast plan asks each language's stems of
 * the whole query: see lance-index.stems.test.ts.)
 */
function pages(n: number) {
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const text = (length: number) => Array.from({ length }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  return Array.from({ length: n }, (_, i) =>
    makePage(`p${i}`, `https://site${i % 7}.example.org/${i}`, text(4), `${text(30 + (i % 50))}.`, {
      lang: ['en', 'en', 'en', 'pl', 'cs'][i % 5]!,
      quality: i % 11 === 0 ? 0.4 : 1,
    }),
  );
}

describe('the fast plan answers as the general plan does', () => {
  let dir: string;
  let fast: LanceSearchIndex;
  let general: LanceSearchIndex;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-fast-'));
    // The plans' arithmetic, BM25 with the priors: the re-ranking by text is tested on its own below.
    fast = await LanceSearchIndex.open({ path: dir, autoMaintain: false, maxCountedMatches: 200, textRerank: false });
    await fast.upsert(pages(1500));
    await fast.flush();
    general = await LanceSearchIndex.open({
      path: dir,
      autoMaintain: false,
      fastPlan: false,
      maxCountedMatches: 200,
      textRerank: false,
    });
  }, 120_000);
  afterAll(async () => {
    await fast.close();
    await general.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // The same pages with the same scores: one word, words joined by OR, phrases, filters, priors.
  const cases: [string, Partial<IndexQuery>][] = [
    ['glacier', {}],
    ['solar OR river', {}],
    ['how do glaciers melt in the river', { match: 'any' }],
    ['"boundary layer"', {}],
    ['flow -turbulent', {}],
    ['intitle:energy', {}],
    ['water', { lang: 'pl' }],
    ['water', { offset: 20, limit: 7 }],
  ];

  it.each(cases)('%s %j', async (q, extra) => {
    const query = { query: parseQuery(q), limit: 10, offset: 0, ...extra };
    const [a, b] = await Promise.all([fast.search(query), general.search(query)]);
    expect(a.hits.length).toBeGreaterThan(0);
    if (planFast(query)?.forms) {
      // A word's stemmed and typed forms asked apart and rescaled (lance-index.languages.test.ts):
      // here, where the Polish and Czech pages hold the English words as typed, the same matches.
      const all = { ...query, limit: 1500 };
      const [x, y] = await Promise.all([fast.search(all), general.search(all)]);
      expect(x.hits.map((hit) => hit.id).sort()).toEqual(y.hits.map((hit) => hit.id).sort());
    } else {
      expect(summary(a)).toEqual(summary(b));
    }
    // Totals: exact on both sides below the bound; estimated past it.
    if (!b.totalIsEstimate) expect(a).toMatchObject({ total: b.total, totalIsEstimate: false });
    else expect(a.total).toBeGreaterThanOrEqual(200);
  });

  // Phrases beside words: the pages holding every token and each phrase, scored as the AND of the
  // tokens (as a phrase alone is), found by checking the phrases among the candidates. The general
  // plan's boolean query finds the same pages but scores a phrase inside it otherwise.
  const phraseCases: [string, string, Partial<IndexQuery>][] = [
    ['"boundary layer" heat', 'boundary layer heat', {}],
    ['river "solar panel" -glacier', 'river solar panel -glacier', {}],
    ['"heat transfer" "boundary layer"', 'heat transfer boundary layer', {}],
    ['"water energy" solar', 'water energy solar', { lang: 'en' }],
    ['"layer flow" flows', 'layer flow flows', {}],
  ];
  it.each(phraseCases)('%s: the pages with the phrase, ranked as %s', async (q, tokens, extra) => {
    const query = { query: parseQuery(q), limit: 500, offset: 0, ...extra };
    const [a, b, all] = await Promise.all([
      fast.search(query),
      general.search(query),
      fast.search({ ...query, query: parseQuery(tokens), limit: 1500 }),
    ]);
    expect(a.hits.length).toBeGreaterThan(0);
    expect(a.hits.map((hit) => hit.id).sort()).toEqual(b.hits.map((hit) => hit.id).sort());
    if (!b.totalIsEstimate) expect(a).toMatchObject({ total: b.total, totalIsEstimate: false });
    expect(all.hits.length).toBeGreaterThan(a.hits.length);
    const byId = new Map(all.hits.map((hit) => [hit.id, hit.score]));
    for (const hit of a.hits) expect([hit.id, hit.score]).toEqual([hit.id, byId.get(hit.id)]);
    // Pages are cut after ranking: a later page continues the first.
    const next = await fast.search({ ...query, offset: 5, limit: 5 });
    expect(next.hits.map((hit) => hit.id)).toEqual(a.hits.slice(5, 10).map((hit) => hit.id));
  });

  it('keeps the stop words of a phrase beside words', async () => {
    const query = { query: parseQuery('"the water" energy'), limit: 500, offset: 0 };
    const [a, b, loose] = await Promise.all([
      fast.search(query),
      general.search(query),
      fast.search({ ...query, query: parseQuery('water energy') }),
    ]);
    expect(a.hits.length).toBeGreaterThan(0);
    expect(a.hits.map((hit) => hit.id).sort()).toEqual(b.hits.map((hit) => hit.id).sort());
    expect(a.total).toBeLessThan(loose.total);
  });

  it('re-ranked by word forms and titles, gives the same pages in both plans, page after page', async () => {
    const open = (fastPlan: boolean) =>
      LanceSearchIndex.open({ path: dir, autoMaintain: false, maxCountedMatches: 200, fastPlan });
    const [reFast, reGeneral] = await Promise.all([open(true), open(false)]);
    try {
      // The plans score one word and an exclusion alike (see the cases above), the words of an AND
      // each their own way.
      const alike = ['glacier', 'flow -turbulent'];
      for (const q of [...alike, '"boundary layer"', 'museum river', '"boundary layer" heat', 'water energy']) {
        const query = { query: parseQuery(q), limit: 60, offset: 0 };
        const [a, b, raw] = await Promise.all([reFast.search(query), reGeneral.search(query), fast.search(query)]);
        if (alike.includes(q)) expect([q, summary(a)]).toEqual([q, summary(b)]);
        // The re-ranking moved something (the titles are made of the same words as the text).
        expect([q, a.hits.map((hit) => hit.id)]).not.toEqual([q, raw.hits.map((hit) => hit.id)]);
        // Each page of results continues the one before, whatever its size.
        for (const [index, full] of [
          [reFast, a],
          [reGeneral, b],
        ] as const) {
          const paged: string[] = [];
          for (const [offset, limit] of [
            [0, 5],
            [5, 10],
            [15, 3],
            [18, 12],
            [30, 30],
          ] as const) {
            const page = await index.search({ ...query, offset, limit });
            paged.push(...page.hits.map((hit) => hit.id));
          }
          expect([q, index === reFast, paged]).toEqual([q, index === reFast, full.hits.map((hit) => hit.id)]);
        }
      }
    } finally {
      await Promise.all([reFast.close(), reGeneral.close()]);
    }
  });

  it('subtracts excluded words known in advance, reading past them when they crowd the best matches', async () => {
    // Every page holding the excluded words is read first (up to 100,000): the speculative first
    // round of top matches is then mostly excluded pages, and more are read.
    const knowing = await LanceSearchIndex.open({
      path: dir,
      autoMaintain: false,
      maxCountedMatches: 200,
      maxExcludedMatches: 100_000,
      textRerank: false,
    });
    try {
      for (const q of ['flow -turbulent', 'glacier -the -water', 'heat -glacier -river -solar']) {
        const query = { query: parseQuery(q), limit: 10, offset: 0 };
        const [a, b] = await Promise.all([knowing.search(query), general.search(query)]);
        expect(a.hits.length).toBeGreaterThan(0);
        expect([q, summary(a)]).toEqual([q, summary(b)]);
        if (!b.totalIsEstimate) expect([q, a.total]).toEqual([q, b.total]);
      }
    } finally {
      await knowing.close();
    }
  });

  it('never estimates more matches than the index holds', async () => {
    const totals = [];
    for (const q of ['the', 'water', 'the OR water', 'the water energy']) {
      totals.push((await fast.search({ query: parseQuery(q), limit: 10, offset: 0 })).total);
    }
    for (const total of totals) expect(total).toBeLessThanOrEqual(1500);
    expect(Math.min(...totals)).toBeGreaterThan(200);
  });

  it('subtracts a common excluded word by checking candidates as they are read', async () => {
    const checking = await LanceSearchIndex.open({
      path: dir,
      autoMaintain: false,
      maxCountedMatches: 200,
      maxExcludedMatches: 3,
      textRerank: false,
    });
    try {
      for (const [q, extra] of [
        ['flow -turbulent', {}],
        ['glacier -the -water', {}],
        ['museum -river', { offset: 30, limit: 20 }],
        ['solar OR river -heat', {}],
      ] as [string, Partial<IndexQuery>][]) {
        const query = { query: parseQuery(q), limit: 10, offset: 0, ...extra };
        const [a, b] = await Promise.all([checking.search(query), general.search(query)]);
        expect([q, summary(a)]).toEqual([q, summary(b)]);
        // Exact, or (many pages to check) an estimate from the sample, flagged as one.
        if (!a.totalIsEstimate) expect([q, a.total]).toEqual([q, b.total]);
        else expect(a.total).toBeGreaterThanOrEqual(query.offset + a.hits.length);
      }
    } finally {
      await checking.close();
    }
  });

  it('divides the scores of pages in other languages than lang_priority by its boost, before the page is cut', async () => {
    const plain = await general.search({ query: parseQuery('water'), limit: 100, offset: 0 });
    const expected = plain.hits
      .map((hit) => ({ id: hit.id, score: hit.lang === 'cs' ? hit.score : hit.score / 1.25 }))
      .sort((x, y) => y.score - x.score)
      .slice(0, 10);
    const boosted = await fast.search({ query: parseQuery('water'), limit: 10, offset: 0, langPriority: 'cs' });
    expect(boosted.hits.map((hit) => hit.score.toFixed(4))).toEqual(expected.map((hit) => hit.score.toFixed(4)));
  });

  // Words joined by AND: the same matches, but the engine's boolean query scores a page by less than
  // the sum of its words' BM25 scores (0.77 where the sum is 1.61 at 100,000 pages), while the fast
  // plan's match query of every word scores the sum, which is BM25 itself.
  it.each([['museum river'], ['the heat'], ['heat transfer river']])(
    '%s: same matches, scored by summed BM25',
    async (q) => {
      const query = { query: parseQuery(q), limit: 100, offset: 0 };
      const [a, b] = await Promise.all([fast.search(query), general.search(query)]);
      expect(a.hits.length).toBeGreaterThan(0);
      expect(a.total).toBe(b.total);
      const word = (w: string) => fast.search({ query: parseQuery(w), limit: 100, offset: 0 });
      const words = q.split(' ').filter((w) => w !== 'the');
      const perWord = await Promise.all(words.map(word));
      const scoreOf = (result: IndexSearchResult, id: string) => result.hits.find((hit) => hit.id === id)?.score;
      for (const hit of a.hits.slice(0, 5)) {
        const parts = perWord.map((result) => scoreOf(result, hit.id));
        if (parts.some((part) => part === undefined)) continue; // not in that word's top 100
        expect(hit.score).toBeCloseTo(parts.reduce((sum, part) => sum! + part!, 0)!, 3);
      }
      const scores = a.hits.map((hit) => hit.score);
      expect(scores).toEqual([...scores].sort((x, y) => y - x));
    },
  );
});

/** Ids with scores rounded: equal scores may come in either order, so pages are compared as sets per score. */
function summary(result: IndexSearchResult): string[] {
  return result.hits
    .map((hit) => `${hit.score.toFixed(3)}`)
    .concat(
      [...new Set(result.hits.map((hit) => hit.score.toFixed(3)))].map((score) =>
        result.hits
          .filter((hit) => hit.score.toFixed(3) === score)
          .map((hit) => hit.id)
          .sort()
          .join(','),
      ),
    );
}
