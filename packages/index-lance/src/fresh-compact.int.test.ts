import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type * as lancedb from '@lancedb/lancedb';
import type { FastQuery } from './fast-plan.js';
import { type FoldedStats, FreshTier } from './fresh.js';
import { COLUMNS } from './rows.js';
import { countingCalls } from './testing/counting-table.js';
import {
  NO_FILTERS as FILTERS,
  TIER_LIMITS as LIMITS,
  NO_FOLDED,
  marshPage as page,
  tierMatches,
  tierTable,
} from './testing/fresh-tier.js';

/**
 * A fold takes in most of the fresh tier's pages. The tier drops them and, once they outnumber the
 * pages it still holds, clears them away in memory: it read every unfolded page again from the
 * table before, which the searches made meanwhile waited for.
 */
describe('the fresh tier after a fold takes in most of its pages', () => {
  const { write, open, remove } = tierTable('quarry-fresh-compact-');
  let table: lancedb.Table;

  const seqOf = async (id: string) =>
    Number((await table.query().where(`${COLUMNS.id} = '${id}'`).select([COLUMNS.seq]).toArray())[0].seq);

  beforeAll(async () => {
    await write(Array.from({ length: 1200 }, (_, i) => page(`old-${i}`, i % 5 === 0 ? 'A heron.' : 'A duck.')));
    await write(
      Array.from({ length: 60 }, (_, i) => page(`new-${i}`, i % 2 === 0 ? 'A heron in the marsh.' : 'A marsh.')),
    );
    table = await open();
  }, 120_000);
  afterAll(() => {
    table?.close();
    remove();
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
      const found = await tierMatches(tier, query);
      expect(found.length).toBeGreaterThan(0);
      expect(found).toEqual(await tierMatches(whole, query));
    }
    // The page written again is found as its last version only, and the folded ones not at all.
    const herons = await tier.search(queries[0]!, FILTERS, NO_FOLDED, null);
    expect(herons.filter((match) => match.id === 'new-1')).toHaveLength(1);
    expect(herons.filter((match) => match.id.startsWith('old-'))).toEqual([]);
  }, 60_000);
});
