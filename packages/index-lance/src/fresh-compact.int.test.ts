import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as lancedb from '@lancedb/lancedb';
import type { IndexQuery, PageDocument } from '@quarry/core';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import type { FastQuery } from './fast-plan.js';
import { type FoldedStats, FreshTier } from './fresh.js';
import { LanceSearchIndex } from './lance-index.js';
import { COLUMNS } from './rows.js';
import { TABLE } from './table.js';
import { countingCalls } from './testing/counting-table.js';

const FILLER = 'Notes on trains, gardens, music and the weather of the coast. ';
const LIMITS = { maxPages: 20_000, maxLoad: 5000 };
const NO_FOLDED: FoldedStats = { pages: 0, averageLength: async () => null, documentFrequency: async () => 0 };
const FILTERS: IndexQuery = { query: parseQuery('heron'), limit: 10, offset: 0 };

/**
 * A fold takes in most of the fresh tier's pages. The tier drops them and, once they outnumber the
 * pages it still holds, clears them away in memory: it read every unfolded page again from the
 * table before, which the searches made meanwhile waited for.
 */
describe('the fresh tier after a fold takes in most of its pages', () => {
  let dir: string;
  let table: lancedb.Table;

  const write = async (pages: readonly PageDocument[]) => {
    const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    await index.upsert(pages);
    await index.close();
  };
  const page = (id: string, words: string) =>
    makePage(id, `https://marsh.example.org/${id}`, `Marsh note ${id}`, `${FILLER.repeat(2)} ${words}`);
  const seqOf = async (id: string) =>
    Number((await table.query().where(`${COLUMNS.id} = '${id}'`).select([COLUMNS.seq]).toArray())[0].seq);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-fresh-compact-'));
    await write(Array.from({ length: 1200 }, (_, i) => page(`old-${i}`, i % 5 === 0 ? 'A heron.' : 'A duck.')));
    await write(
      Array.from({ length: 60 }, (_, i) => page(`new-${i}`, i % 2 === 0 ? 'A heron in the marsh.' : 'A marsh.')),
    );
    table = await (await lancedb.connect(dir, { readConsistencyInterval: 0 })).openTable(TABLE);
  }, 120_000);
  afterAll(() => {
    table?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a search that was waiting for the folded statistics as the tier stood when it began', async () => {
    const heron: FastQuery = { kind: 'match', tokens: ['heron'], all: true, column: COLUMNS.text };
    const before = new FreshTier();
    expect(await before.sync(table, await table.version(), 0, LIMITS)).toBe(true);
    const expected = await before.search(heron, FILTERS, NO_FOLDED, null);
    expect(expected.length).toBeGreaterThan(200);

    const tier = new FreshTier();
    expect(await tier.sync(table, await table.version(), 0, LIMITS)).toBe(true);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The folded pages' counts come from the engine: the search waits for them...
    const waiting: FoldedStats = { ...NO_FOLDED, documentFrequency: async () => gate.then(() => 0) };
    const searching = tier.search(heron, FILTERS, waiting, null);
    // ...while a fold takes in most pages and the tier is compacted.
    expect(await tier.sync(table, await table.version(), await seqOf('old-0'), LIMITS)).toBe(true);
    expect(tier.size).toBeLessThan(100);
    release();
    const byId = (matches: readonly { id: string; score: number }[]) =>
      matches.map((match) => [match.id, match.score.toFixed(9)]).sort(([a], [b]) => (a! < b! ? -1 : 1));
    expect(byId(await searching)).toEqual(byId(expected));
  }, 60_000);

  it('clears the folded pages away without reading the table again, and finds what a tier read whole finds', async () => {
    const { table: counted, calls } = countingCalls(table, 'countRows');
    const tier = new FreshTier();
    expect(await tier.sync(counted, await table.version(), 0, LIMITS)).toBe(true);
    expect(tier.size).toBe(1260);
    expect(calls()).toBe(1);

    // The fold takes in the first 1,200 pages, and a page is written again and others after it.
    const watermark = await seqOf('old-0');
    expect(await tier.sync(counted, await table.version(), watermark, LIMITS)).toBe(true);
    expect(tier.size).toBe(60);
    await write([
      page('new-1', 'Written again: a heron over the marsh.'),
      ...Array.from({ length: 10 }, (_, i) => page(`newer-${i}`, 'A heron, a heron.')),
    ]);
    expect(await tier.sync(counted, await table.version(), watermark, LIMITS)).toBe(true);
    expect(tier.size).toBe(70);
    // Only the first load counted the pages to read.
    expect(calls()).toBe(1);

    const whole = new FreshTier();
    expect(await whole.sync(table, await table.version(), watermark, LIMITS)).toBe(true);
    const queries: FastQuery[] = [
      { kind: 'match', tokens: ['heron'], all: true, column: COLUMNS.text },
      { kind: 'match', tokens: ['heron', 'marsh'], all: false, column: COLUMNS.text },
      { kind: 'phrase', tokens: ['heron', 'over'], all: true, column: COLUMNS.text },
      { kind: 'match', tokens: ['marsh', 'note'], all: true, column: COLUMNS.title },
    ];
    for (const query of queries) {
      const matches = async (t: FreshTier) =>
        (await t.search(query, FILTERS, NO_FOLDED, null))
          .map((match) => [match.id, match.score.toFixed(9)])
          .sort(([a], [b]) => (a! < b! ? -1 : 1));
      const found = await matches(tier);
      expect(found.length).toBeGreaterThan(0);
      expect(found).toEqual(await matches(whole));
    }
    // The page written again is found as its last version only, and the folded ones not at all.
    const herons = await tier.search(queries[0]!, FILTERS, NO_FOLDED, null);
    expect(herons.filter((match) => match.id === 'new-1')).toHaveLength(1);
    expect(herons.filter((match) => match.id.startsWith('old-'))).toEqual([]);
  }, 60_000);
});
