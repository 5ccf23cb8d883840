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
import { COLUMNS, type PageRow } from './rows.js';
import { TABLE } from './table.js';
import { countingCalls } from './testing/counting-table.js';

const FILLER = 'Notes on trains, gardens, music and the weather of the coast. ';
const LIMITS = { maxPages: 20_000, maxLoad: 5000 };
const NO_FOLDED: FoldedStats = { pages: 0, averageLength: async () => null, documentFrequency: async () => 0 };
const FILTERS: IndexQuery = { query: parseQuery('heron'), limit: 10, offset: 0 };

/**
 * A process that writes and searches brings its fresh tier to each of its writes before the write
 * resolves: it took the new rows' text back from the table, a read made several times a second
 * while a crawl writes. The rows it has just written are taken as written instead; the table is
 * asked only which rows are new, with their row ids.
 */
describe("the fresh tier takes in this process's own writes without reading them back", () => {
  let dir: string;
  let table: lancedb.Table;

  const write = async (pages: readonly PageDocument[]) => {
    const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    await index.upsert(pages);
    await index.close();
  };
  const page = (id: string, words: string) =>
    makePage(id, `https://marsh.example.org/${id}`, `Marsh note ${id}`, `${FILLER.repeat(2)} ${words}`, {
      quality: id.endsWith('3') ? 0.3 : 1,
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-fresh-own-'));
    await write(Array.from({ length: 30 }, (_, i) => page(`old-${i}`, i % 3 === 0 ? 'A heron.' : 'A duck.')));
    table = await (await lancedb.connect(dir, { readConsistencyInterval: 0 })).openTable(TABLE);
  }, 120_000);
  afterAll(() => {
    table?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks the table only which rows are new, and holds them as a tier read whole does', async () => {
    const { table: counted, calls } = countingCalls(table, 'query');
    const tier = new FreshTier();
    expect(await tier.sync(counted, await table.version(), 0, LIMITS)).toBe(true);
    expect(tier.size).toBe(30);
    const loaded = calls();

    const [last] = await table.query().select([COLUMNS.seq]).toArray();
    await write([
      page('old-1', 'Written again: a heron over the marsh.'),
      ...Array.from({ length: 10 }, (_, i) => page(`new-${i}`, 'A heron, a heron in the marsh.')),
    ]);
    // The rows as stored, as the process that wrote them holds them.
    const written = await table
      .query()
      .where(`${COLUMNS.seq} > ${Number(last.seq)}`)
      .toArray();
    expect(written).toHaveLength(11);
    tier.wrote(written as unknown as PageRow[]);
    expect(await tier.sync(counted, await table.version(), 0, LIMITS)).toBe(true);
    expect(tier.size).toBe(40);
    // One look at the recent rows' ids and seqs; no read of their text.
    expect(calls() - loaded).toBe(1);

    const whole = new FreshTier();
    expect(await whole.sync(table, await table.version(), 0, LIMITS)).toBe(true);
    const queries: FastQuery[] = [
      { kind: 'match', tokens: ['heron'], all: true, column: COLUMNS.text },
      { kind: 'phrase', tokens: ['heron', 'over'], all: true, column: COLUMNS.text },
      { kind: 'match', tokens: ['marsh', 'note'], all: true, column: COLUMNS.title },
    ];
    for (const query of queries) {
      const matches = async (t: FreshTier) =>
        (await t.search(query, FILTERS, NO_FOLDED, null))
          .map((match) => [match.id, match.score.toFixed(9), String(match.rowId), match.quality])
          .sort(([a], [b]) => (String(a) < String(b) ? -1 : 1));
      const found = await matches(tier);
      expect(found.length).toBeGreaterThan(0);
      expect(found).toEqual(await matches(whole));
    }
  }, 60_000);
});
