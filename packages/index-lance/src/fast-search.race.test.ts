import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as lancedb from '@lancedb/lancedb';
import type { IndexQuery, PageDocument } from '@quarry/core';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { rowsToArrow } from './arrow-rows.js';
import { planFast } from './fast-plan.js';
import { FastSearch } from './fast-search.js';
import { planQuery } from './fts-query.js';
import { LanceSearchIndex } from './lance-index.js';
import { COLUMNS, pagesSchema, toRow } from './rows.js';
import { TABLE, unindexedRows } from './table.js';

const LIMITS = { snippetSourceChars: 8192, maxIndexedChars: 1_000_000, titleRepeat: 2 };
const OPTIONS = {
  maxCountedMatches: 1000,
  maxSampledMatches: 2000,
  maxExcludedMatches: 5000,
  langPriorityBoost: 1.25,
  freshTier: true,
  textRerank: true,
};
const FILLER = 'Notes on trains, gardens and the weather of the coast. ';

/**
 * An index in `dir` holding `folded` pages (written and folded first) and `fresh` ones written after
 * the fold, reopened as the bare table; the watermark is the folded pages' `seq`.
 */
async function foldedThenFresh(
  dir: string,
  folded: readonly PageDocument[],
  fresh: readonly PageDocument[],
): Promise<{ table: lancedb.Table; watermark: number }> {
  const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
  await index.upsert(folded);
  await index.flush();
  await index.upsert(fresh);
  await index.close();
  const table = await (await lancedb.connect(dir)).openTable(TABLE);
  const [first] = await table.query().where(`${COLUMNS.id} = '${folded[0]!.id}'`).select([COLUMNS.seq]).toArray();
  return { table, watermark: Number(first.seq) };
}

/**
 * A search that reads row ids at one table version checks, once it has its answer, that the
 * version has not moved: a crawl's writes move it several times a second. Appends of new pages by
 * the searching process move no row, so such a search is not made again; any other commit still
 * has it made again.
 */
describe('the fast plan while the table version moves under it', () => {
  let dir: string;
  let table: lancedb.Table;
  let watermark: number;
  let written = 0;
  const query: IndexQuery = { query: parseQuery('osprey'), limit: 10, offset: 0 };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-fast-race-'));
    const page = (id: string, words: string) =>
      makePage(id, `https://birds.example.org/${id}`, `Note ${id}`, `${FILLER.repeat(4)} ${words} ${FILLER}`);
    ({ table, watermark } = await foldedThenFresh(
      dir,
      Array.from({ length: 60 }, (_, i) => page(`old-${i}`, i % 3 === 0 ? 'An osprey.' : 'A heron.')),
      Array.from({ length: 20 }, (_, i) => page(`new-${i}`, 'An osprey dived.')),
    ));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A page appended the way the index appends one: a new row of its own, after the watermark. */
  async function append(): Promise<number> {
    written += 1;
    const row = toRow(
      makePage(`late-${written}`, `https://birds.example.org/late-${written}`, 'Late', 'An osprey, late.'),
      LIMITS,
    );
    row.seq = Date.now() + written;
    return (await table.add(rowsToArrow([row], pagesSchema()))).version;
  }

  /**
   * One search by a new FastSearch over the table, whose `version()` runs `atCall` before it
   * answers its `at`-th call; how many calls the search made, and its answer.
   */
  async function search(at: number, atCall: (fast: FastSearch) => Promise<void>) {
    let calls = 0;
    let fast: FastSearch | undefined;
    const counted = new Proxy(table, {
      get(target, property) {
        if (property === 'version') {
          return async () => {
            calls += 1;
            if (calls === at) await atCall(fast!);
            return target.version();
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    fast = new FastSearch(counted, OPTIONS, () => watermark);
    const facts = {
      version: await table.version(),
      unindexedRows: await unindexedRows(table),
      lowQualityRows: 0,
      rows: await table.countRows(),
    };
    expect(facts.unindexedRows).toBeGreaterThan(0);
    const answer = await fast.search(query, planQuery(query), planFast(query)!, facts);
    return { calls, answer };
  }

  it('answers once when only its own appends committed meanwhile, and again after another commit', async () => {
    // The calls of a search with nothing written meanwhile: its last one checks the version.
    const quiet = await search(0, async () => {});
    expect(quiet.answer?.hits.length).toBeGreaterThan(0);
    const last = quiet.calls;

    // An append of this process's, declared as one, just before that check: answered at once.
    const own = await search(last, async (fast) => fast.written(await append(), true));
    expect(own.calls).toBe(last);
    expect(own.answer?.hits.map((h) => h.id)).toEqual(quiet.answer?.hits.map((h) => h.id));

    // The same append not declared (another process's commit, a merge, a delete): made again.
    const other = await search(last, async () => void (await append()));
    expect(other.calls).toBeGreaterThan(last);
    expect(other.answer?.hits.length).toBeGreaterThan(0);
    // A replacing write of this process's is not an append either.
    const merged = await search(last, async (fast) => fast.written(await append(), false));
    expect(merged.calls).toBeGreaterThan(last);
  });
});

/**
 * Pages deleted after the fresh tier read them (a duplicate's removal, a page gone from its site):
 * the tier forgets them, told by this process's delete or finding them gone when a search reads its
 * page, and the fast plan answers without them (it gave up on such searches until the next fold).
 */
describe('the fast plan after fresh pages are deleted', () => {
  let dir: string;
  let table: lancedb.Table;
  let watermark: number;
  const query: IndexQuery = { query: parseQuery('kingfisher'), limit: 5, offset: 0 };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-fast-gone-'));
    const page = (id: string, words: string) =>
      makePage(id, `https://river.example.org/${id}`, `Note ${id}`, `${FILLER.repeat(3)} ${words} ${FILLER}`);
    ({ table, watermark } = await foldedThenFresh(
      dir,
      Array.from({ length: 40 }, (_, i) => page(`old-${i}`, i % 4 === 0 ? 'A heron.' : 'A duck.')),
      // Fresh pages, the only ones with the word.
      Array.from({ length: 12 }, (_, i) => page(`new-${i}`, 'Kingfisher, kingfisher: a kingfisher dived.')),
    ));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const facts = async () => ({
    version: await table.version(),
    unindexedRows: await unindexedRows(table),
    lowQualityRows: 0,
    rows: await table.countRows(),
  });
  const ask = async (fast: FastSearch) => fast.search(query, planQuery(query), planFast(query)!, await facts());

  it('answers without a page another process deleted, and without one this process deleted', async () => {
    const fast = new FastSearch(table, OPTIONS, () => watermark);
    const before = await ask(fast);
    const top = before?.hits.map((h) => h.id) ?? [];
    expect(top).toHaveLength(5);
    expect(top.every((id) => id.startsWith('new-'))).toBe(true);

    // Deleted by another process: the tier still holds it until a search finds it gone.
    await table.delete(`${COLUMNS.id} = '${top[0]}'`);
    const afterOther = await ask(fast);
    expect(afterOther).not.toBeNull();
    expect(afterOther?.hits.map((h) => h.id)).not.toContain(top[0]);
    expect(afterOther?.hits).toHaveLength(5);

    // Deleted by this process, which tells the tier.
    await table.delete(`${COLUMNS.id} = '${top[1]}'`);
    fast.deleted([top[1]!]);
    const afterOwn = await ask(fast);
    expect(afterOwn?.hits.map((h) => h.id)).not.toContain(top[1]);
    expect(afterOwn?.hits).toHaveLength(5);
  });
});
