import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import * as lancedb from '@lancedb/lancedb';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';
import { TABLE } from './table.js';

const FILLER = 'Notes on trains, gardens, music and the weather of the coast. ';

/**
 * A search reads three counts per table version (pages unfolded, pages of low quality, pages in
 * all); a crawl's appends move the version several times a second. After this process's own
 * append they are worked out from the version before it, and must equal what a count reads.
 */
describe("the facts of a version this process's append committed", () => {
  let dir: string;
  let index: LanceSearchIndex;
  let counts: jest.SpiedFunction<lancedb.Table['countRows']>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-facts-'));
    index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    await index.upsert(
      Array.from({ length: 200 }, (_, i) =>
        makePage(`old-${i}`, `https://old.example.org/${i}`, `Old note ${i}`, `${FILLER.repeat(4)} A heron ${i}.`),
      ),
    );
    await index.flush();
    // The engine's table class, whose every instance (the index's too) the spy sees.
    const db = await lancedb.connect(dir);
    const table = await db.openTable(TABLE);
    counts = jest.spyOn(Object.getPrototypeOf(table) as lancedb.Table, 'countRows');
    table.close();
  }, 120_000);
  afterAll(async () => {
    counts?.mockRestore();
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ask = (ix: LanceSearchIndex, q: string) => ix.search({ query: parseQuery(q), limit: 20, offset: 0 });

  it('are not counted again, and are what a count reads', async () => {
    await ask(index, 'heron');
    counts.mockClear();
    for (let batch = 0; batch < 5; batch++) {
      await index.upsert(
        Array.from({ length: 10 }, (_, i) =>
          makePage(
            `new-${batch}-${i}`,
            `https://new.example.net/${batch}/${i}`,
            `New note ${batch} ${i}`,
            `${FILLER.repeat(3)} A heron and a kingfisher ${i}.`,
            // Low-quality pages among them: the quality prior enters every score once one exists.
            { quality: i % 3 === 0 ? 0.3 : 1 },
          ),
        ),
      );
      expect((await ask(index, 'kingfisher')).total).toBe(10 * (batch + 1));
    }
    // Neither the pages in all nor those of low quality were counted (other counts were: the writes'
    // checks of whether a page is stored, `id IN (…)`, the fresh tier's start).
    const counted = counts.mock.calls.map(([filter]) => filter ?? 'all');
    expect(counted.filter((filter) => filter === 'all' || filter.startsWith('quality'))).toEqual([]);
    expect(counted.filter((filter) => filter.startsWith('id IN'))).toHaveLength(5);

    // A handle of its own counts each fact: the same scores.
    const other = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    try {
      for (const q of ['heron', 'kingfisher', 'heron OR kingfisher', 'old note']) {
        const [mine, theirs] = [await ask(index, q), await ask(other, q)];
        expect(mine.total).toBe(theirs.total);
        expect(mine.hits.map((hit) => [hit.id, hit.score.toFixed(6)])).toEqual(
          theirs.hits.map((hit) => [hit.id, hit.score.toFixed(6)]),
        );
      }
    } finally {
      await other.close();
    }
  }, 120_000);
});
