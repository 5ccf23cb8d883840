import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type * as lancedb from '@lancedb/lancedb';
import type { FastQuery } from './fast-plan.js';
import { FreshTier } from './fresh.js';
import { COLUMNS, type PageRow } from './rows.js';
import { countingCalls } from './testing/counting-table.js';
import { TIER_LIMITS as LIMITS, marshPage, tierMatches, tierTable } from './testing/fresh-tier.js';

/**
 * A process that writes and searches brings its fresh tier to each of its writes before the write
 * resolves: it took the new rows' text back from the table, a read made several times a second
 * while a crawl writes. The rows it has just written are taken as written instead; the table is
 * asked only which rows are new, with their row ids.
 */
describe("the fresh tier takes in this process's own writes without reading them back", () => {
  const { write, open, remove } = tierTable('quarry-fresh-own-');
  let table: lancedb.Table;

  const page = (id: string, words: string) => marshPage(id, words, { quality: id.endsWith('3') ? 0.3 : 1 });

  beforeAll(async () => {
    await write(Array.from({ length: 30 }, (_, i) => page(`old-${i}`, i % 3 === 0 ? 'A heron.' : 'A duck.')));
    table = await open();
  }, 120_000);
  afterAll(() => {
    table?.close();
    remove();
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
      const found = await tierMatches(tier, query, true);
      expect(found.length).toBeGreaterThan(0);
      expect(found).toEqual(await tierMatches(whole, query, true));
    }
  }, 60_000);
});
