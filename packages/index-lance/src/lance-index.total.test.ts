import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';
import { sampleBucket } from './rows.js';

/**
 * Pages past the counting bound, none in the sample bucket: counted up to the bound (1,000) and
 * estimated from the sample as none, their total came out as 1,000 while offset 990 listed 100.
 */
describe('a total past the counting bound', () => {
  const PAGES = 1200;
  let dir: string;
  const opened: LanceSearchIndex[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-total-'));
    const ids: string[] = [];
    for (let i = 0; ids.length < PAGES; i++) if (sampleBucket(`q${i}`) !== 0) ids.push(`q${i}`);
    const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    opened.push(index);
    await index.upsert(ids.map((id, i) => makePage(id, `https://q.example.org/${i}`, `Quokka ${i}`, 'A quokka.')));
    await index.flush();
    opened.push(await LanceSearchIndex.open({ path: dir, autoMaintain: false, fastPlan: false }));
  }, 120_000);
  afterAll(async () => {
    for (const index of opened) await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['the fast plan', 0],
    ['the general plan', 1],
  ])('is more than %s lists on its deepest page, and the same on every page', async (_, which) => {
    const index = opened[which]!;
    const totals = new Set<number>();
    for (const [offset, limit] of [
      [0, 10],
      [500, 100],
      [990, 100],
    ] as const) {
      const found = await index.search({ query: parseQuery('quokka'), limit, offset });
      expect(found.hits).toHaveLength(limit);
      expect(found.total).toBeGreaterThan(990 + 100);
      totals.add(found.total);
    }
    expect(totals.size).toBe(1);
  });
});
