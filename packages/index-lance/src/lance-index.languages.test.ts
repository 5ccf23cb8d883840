import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as lancedb from '@lancedb/lancedb';
import type { IndexQuery, PageDocument } from '@quarry/core';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';
import { COLUMNS } from './rows.js';

const ENGLISH_PAGES = 300;
const GERMAN_PAGES = 20;
const OTHER_PAGES = 700;
const PAGES = ENGLISH_PAGES + GERMAN_PAGES + OTHER_PAGES;

/**
 * English pages are indexed by stems and every other page as typed, in one index. An English page
 * about computing holds `comput`; a German page mentioning `Cloud Computing` holds `computing`,
 * which only the few German pages hold: on its own statistics the typed form is rare, and its BM25
 * weight (IDF) large.
 */
/** `n` words cycling through the five of `words`. */
const filler = (words: string, n: number) => Array.from({ length: n }, (_, i) => words.split(' ')[i % 5]).join(' ');

function pages() {
  const english = Array.from({ length: ENGLISH_PAGES }, (_, i) =>
    makePage(
      `en${i}`,
      `https://en${i % 9}.example.com/${i}`,
      'Notes for business',
      `${filler('a b c d e', 60 + (i % 40))} cloud computing is computing in the cloud. ${filler('f g h i j', 60)}`,
    ),
  );
  const german = Array.from({ length: GERMAN_PAGES }, (_, i) =>
    makePage(
      `de${i}`,
      `https://de${i}.example.de/${i}`,
      'Neuigkeiten',
      `${filler('der die das und mit', 80)} Cloud Computing ${filler('für auf von aus bei', 80)}`,
      { lang: 'de' },
    ),
  );
  const other = Array.from({ length: OTHER_PAGES }, (_, i) =>
    makePage(`x${i}`, `https://x${i % 9}.example.com/${i}`, 'Company news', filler('k l m n o', 100 + (i % 50))),
  );
  return [...english, ...german, ...other];
}

/**
 * The engine's own scores of pages holding any of these tokens, each on its own statistics (one
 * boolean query of them, asked of the table directly), by page id.
 */
async function rawScores(dir: string, tokens: readonly string[]): Promise<Map<string, number>> {
  const db = await lancedb.connect(dir);
  try {
    const table = await db.openTable('pages');
    const query = new lancedb.BooleanQuery(
      tokens.map((token) => [lancedb.Occur.Should, new lancedb.MatchQuery(token, COLUMNS.text)]),
    );
    const rows = await table.query().fullTextSearch(query).select([COLUMNS.id, '_score']).limit(10_000).toArray();
    table.close();
    return new Map(rows.map((row) => [row[COLUMNS.id] as string, row._score as number]));
  } finally {
    db.close();
  }
}

/** The engine's IDF of a token on `n` of the pages (fresh.ts: ln(1 + (N − n + 0.5) / (n + 0.5))). */
const idf = (n: number) => Math.log(1 + (PAGES - n + 0.5) / (n + 0.5));

/**
 * An index of `docs`, folded, opened before the block's tests and removed after them: `index`
 * searches by every plan, `engine` the same table by the general plan only (as nested groups and
 * excluded phrases are).
 */
function indexOf(name: string, docs: () => PageDocument[]) {
  const at = { dir: '', index: null as unknown as LanceSearchIndex, engine: null as unknown as LanceSearchIndex };
  beforeAll(async () => {
    at.dir = mkdtempSync(join(tmpdir(), `quarry-lance-languages-${name}-`));
    // BM25 as the engine scores it, without the re-ranking by word forms and titles.
    at.index = await LanceSearchIndex.open({ path: at.dir, autoMaintain: false, textRerank: false });
    await at.index.upsert(docs());
    await at.index.flush();
    at.engine = await LanceSearchIndex.open({ path: at.dir, autoMaintain: false, fastPlan: false, textRerank: false });
  }, 120_000);
  afterAll(async () => {
    await at.index.close();
    await at.engine.close();
    rmSync(at.dir, { recursive: true, force: true });
  });
  return at;
}

/**
 * German pages written after the fold (`dx0`, `dx1`...), like the folded ones: as long as the English
 * pages, mentioning `Computing` once where those say it twice. (A short page saying it twice
 * outranks them by BM25's length normalization, folded or not.)
 */
function waitingGerman(n: number): PageDocument[] {
  return Array.from({ length: n }, (_, i) =>
    makePage(
      `dx${i}`,
      `https://dx${i}.example.de/${i}`,
      'Neuigkeiten',
      `${filler('der die das und mit', 80)} Cloud Computing heute ${filler('für auf von aus bei', 80)}`,
      { lang: 'de' },
    ),
  );
}

describe('a word as typed and as stemmed, in pages of several languages', () => {
  const at = indexOf('mixed', pages);

  const search = (target: LanceSearchIndex, q: string, extra: Partial<IndexQuery> = {}) =>
    target.search({ query: parseQuery(q), limit: 10, offset: 0, ...extra });

  it.each([
    ['computing', {}],
    ['cloud computing', {}],
    ['cloud OR computing', {}],
    ['what is cloud computing', { match: 'any' as const }],
    ['"cloud computing"', {}],
  ])('ranks the English pages about it first: %s %j', async (q, extra) => {
    const result = await search(at.index, q, extra);
    expect(result.total).toBe(ENGLISH_PAGES + GERMAN_PAGES);
    expect(result.hits.map((hit) => hit.id.slice(0, 2))).toEqual(Array(10).fill('en'));
  });

  it.each([
    ['fast', () => at.index],
    ['general', () => at.engine],
  ])('scores a page on the IDF of the word from the pages holding either form (%s plan)', async (_, target) => {
    const [raw, result] = await Promise.all([
      rawScores(at.dir, ['comput', 'computing']),
      search(target(), 'computing', { limit: 400 }),
    ]);
    // On the engine's statistics alone, the German pages come first.
    const best = [...raw].sort((a, b) => b[1] - a[1])[0]!;
    expect(best[0]).toMatch(/^de/);
    const both = idf(ENGLISH_PAGES + GERMAN_PAGES);
    expect(result.hits).toHaveLength(ENGLISH_PAGES + GERMAN_PAGES);
    for (const hit of result.hits) {
      const own = idf(hit.id.startsWith('de') ? GERMAN_PAGES : ENGLISH_PAGES);
      expect(hit.score).toBeCloseTo((raw.get(hit.id) ?? Number.NaN) * (both / own), 4);
    }
  });

  it.each([
    ['computing', {}],
    ['cloud computing', {}],
    ['cloud OR computing', {}],
    ['what is cloud computing', { match: 'any' as const }],
    ['computing (cloud OR grid)', {}],
    ['computing -"der die"', {}],
  ])('ranks the English pages first on the general plan too: %s %j', async (q, extra) => {
    const result = await search(at.engine, q, extra);
    expect(result.hits.map((hit) => hit.id.slice(0, 2))).toEqual(Array(10).fill('en'));
  });

  // Before the pages waiting for a fold below: `engine`, another handle, sees them only after its
  // read-consistency interval, and scores them by its flat scan where `index` has its fresh tier.
  it('leaves a word of one form as the engine scores it', async () => {
    const [raw, result] = await Promise.all([search(at.engine, 'cloud'), search(at.index, 'cloud')]);
    expect(result.hits.map((hit) => [hit.id, hit.score.toFixed(5)])).toEqual(
      raw.hits.map((hit) => [hit.id, hit.score.toFixed(5)]),
    );
  });

  // Last: it writes pages that stay unfolded (the fresh tier then scores them, on the folded statistics).
  it('ranks the same way while pages in other languages wait for a fold', async () => {
    const more = waitingGerman(30);
    await at.index.upsert(more);
    const result = await search(at.index, 'computing', { limit: 100 });
    expect(result.hits.slice(0, 10).map((hit) => hit.id.slice(0, 2))).toEqual(Array(10).fill('en'));
    expect(result.total).toBe(ENGLISH_PAGES + GERMAN_PAGES + more.length);
    const german = await search(at.index, 'computing', { limit: 100, lang: 'de' });
    expect(german.hits.filter((hit) => hit.id.startsWith('dx'))).toHaveLength(more.length);
    expect(german.hits.every((hit) => Number.isFinite(hit.score) && hit.score > 0)).toBe(true);
  });
});

describe('an index of English pages, then pages in another language waiting for a fold', () => {
  const at = indexOf('fresh', () => pages().filter((page) => page.lang === 'en'));

  it('ranks the English pages first once German pages are written', async () => {
    const query = { query: parseQuery('computing'), limit: 10, offset: 0 };
    const before = await at.index.search(query);
    expect(before.hits.map((hit) => hit.id.slice(0, 2))).toEqual(Array(10).fill('en'));
    const german = waitingGerman(GERMAN_PAGES);
    await at.index.upsert(german);
    const after = await at.index.search({ ...query, limit: 400 });
    expect(after.total).toBe(ENGLISH_PAGES + GERMAN_PAGES);
    expect(after.hits.slice(0, 10).map((hit) => hit.id.slice(0, 2))).toEqual(Array(10).fill('en'));
    expect(after.hits.filter((hit) => hit.id.startsWith('dx'))).toHaveLength(GERMAN_PAGES);
  });
});

describe('a word of two forms where the English pages lead', () => {
  const GERMAN_LONG_PAGES = 200;
  // Many German pages hold the typed form, each once in a long text: its IDF is not inflated and
  // their scores are low, so the best matches of one query of both forms are English.
  const at = indexOf('lead', () => [
    ...pages(),
    ...Array.from({ length: GERMAN_LONG_PAGES }, (_, i) =>
      makePage(
        `dl${i}`,
        `https://dl${i}.example.de/${i}`,
        'Neuigkeiten',
        `${Array(300).fill('und mit der').join(' ')} Computing ${i}`,
        { lang: 'de' },
      ),
    ),
  ]);

  it.each([
    ['fast', {}],
    ['fast', { match: 'any' as const }],
    ['general', {}],
  ])("ranks every match on the word's IDF (%s plan): computing %j", async (plan, extra) => {
    const query = parseQuery('computing');
    const target = plan === 'fast' ? at.index : at.engine;
    const matches = ENGLISH_PAGES + GERMAN_PAGES + GERMAN_LONG_PAGES;
    // Every match's raw score, each form on its own statistics, brought to the IDF of both forms.
    const raw = await rawScores(at.dir, ['comput', 'computing']);
    expect(raw.size).toBe(matches);
    const pagesWith = (stemmed: boolean) => (stemmed ? ENGLISH_PAGES : GERMAN_PAGES + GERMAN_LONG_PAGES);
    const all = ENGLISH_PAGES + GERMAN_PAGES + OTHER_PAGES + GERMAN_LONG_PAGES;
    const idfOf = (n: number) => Math.log(1 + (all - n + 0.5) / (n + 0.5));
    const both = idfOf(matches);
    const expected = [...raw]
      .map(([id, score]) => ({ id, score: (score * both) / idfOf(pagesWith(id.startsWith('en'))) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 10);
    const result = await target.search({ query, limit: 10, offset: 0, ...extra });
    expect(result.hits.map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
    for (const [i, hit] of result.hits.entries()) expect(hit.score).toBeCloseTo(expected[i]!.score, 4);
  });
});
