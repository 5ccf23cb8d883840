import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

/**
 * A phrase beside other words, and an excluded word, are checked in each candidate's stored analysed
 * text (its UTF-8 bytes, undecoded): wherever the run stands in it (first, last, after letters of
 * several bytes), and never across a word's boundary or out of order.
 */
describe('runs of tokens found in the stored text', () => {
  let dir: string;
  let index: LanceSearchIndex;
  const pages = [
    // The analysed text is the title (repeated), then the body: without a title, the run opens it.
    makePage('first', 'https://a.example.org/1', '', 'Boundary layer: measured heat in a wind tunnel.'),
    // The run closes it.
    makePage('last', 'https://a.example.org/2', 'Wind tunnel', 'Heat moves through the boundary layer'),
    // Letters of two and three bytes before the run, and no space after its last token but the end.
    makePage('wide', 'https://a.example.org/3', 'Über Straße', 'Été, Zürich 東京: heat and the boundary layer'),
    makePage('middle', 'https://a.example.org/4', 'Notes', 'Heat and a boundary layer of air over the wing.'),
    // The tokens, but not in a row, out of order, or inside longer tokens.
    makePage('apart', 'https://a.example.org/5', 'Notes', 'The layer at the boundary holds heat.'),
    makePage('reversed', 'https://a.example.org/6', 'Notes', 'Heat: the layer, then the boundary.'),
    makePage('longer', 'https://a.example.org/7', 'Notes', 'Heat in the boundarylayer and its sublayers.'),
  ];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-runs-'));
    index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    await index.upsert(pages);
    await index.flush();
  }, 60_000);
  afterAll(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = async (q: string, limit: number) =>
    (await index.search({ query: parseQuery(q), limit, offset: 0 })).hits.map((hit) => hit.id).sort();

  // A small page reads the candidates' text along with them; a large one reads it by row id.
  it.each([10, 500])('finds a phrase beside a word wherever it stands (page of %i)', async (limit) => {
    expect(await ids('"boundary layer" heat', limit)).toEqual(['first', 'last', 'middle', 'wide']);
    expect(await ids('heat "wind tunnel"', limit)).toEqual(['first', 'last']);
  });

  it.each([10, 500])('excludes a word wherever it stands (page of %i)', async (limit) => {
    // `measured` opens the body of one page only; `wing` ends a sentence on another.
    expect(await ids('heat -measured -wing', limit)).toEqual(['apart', 'last', 'longer', 'reversed', 'wide']);
    // `boundary` opens the analysed text of a page without a title.
    expect(await ids('heat -boundary', limit)).toEqual(['longer']);
    expect(await ids('heat -zürich', limit)).toEqual(['apart', 'first', 'last', 'longer', 'middle', 'reversed']);
  });
});

/**
 * A long phrase's count: its sample is read only when the top matches do not hold every match (see
 * LONG_RUN_TOKENS in fast-search.ts); either way the total is the one the general plan gives, or an
 * estimate when more pages hold it than are counted.
 */
describe('the count of a long phrase', () => {
  let dir: string;
  const open = (fastPlan: boolean) =>
    LanceSearchIndex.open({ path: dir, autoMaintain: false, maxCountedMatches: 100, fastPlan });
  let fast: LanceSearchIndex;
  let general: LanceSearchIndex;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-long-runs-'));
    fast = await open(true);
    // 300 pages hold the common phrase, 5 the rare one; 200 hold their words apart.
    await fast.upsert(
      Array.from({ length: 505 }, (_, i) => {
        const body =
          i < 300
            ? `Notes ${i}: the heat flows through the boundary layer of the wing.`
            : i < 305
              ? `Notes ${i}: a rare pressure gradient along the trailing edge was measured.`
              : `Notes ${i}: the layer, the heat, the boundary and the wing; a gradient of pressure at the edge.`;
        return makePage(`p${i}`, `https://b.example.org/${i}`, `Page ${i}`, body);
      }),
    );
    await fast.flush();
    general = await open(false);
  }, 120_000);
  afterAll(async () => {
    await fast.close();
    await general.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is exact when the top matches hold every page, as the general plan counts it', async () => {
    const query = { query: parseQuery('"rare pressure gradient along the trailing edge"'), limit: 10, offset: 0 };
    const [a, b] = await Promise.all([fast.search(query), general.search(query)]);
    expect(a).toMatchObject({ total: 5, totalIsEstimate: false });
    expect(b).toMatchObject({ total: 5, totalIsEstimate: false });
    expect(a.hits.map((hit) => hit.id).sort()).toEqual(['p300', 'p301', 'p302', 'p303', 'p304']);
  });

  it('reads the sample when more pages hold it than the top matches read', async () => {
    for (const q of ['"heat flows through the boundary layer"', '"heat flows through the boundary layer" wing']) {
      const result = await fast.search({ query: parseQuery(q), limit: 10, offset: 0 });
      expect([q, result.hits.length]).toEqual([q, 10]);
      // More than the 100 counted: an estimate from the sample (or the bound), never fewer than 100.
      expect([q, result.totalIsEstimate, result.total >= 100 && result.total <= 505]).toEqual([q, true, true]);
    }
  });
});
