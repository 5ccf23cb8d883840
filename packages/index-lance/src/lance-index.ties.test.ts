import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

/** Pages whose titles score the same for `intitle:heat` (same words, same length), in 4 writes. */
const TIED = 600;
const WRITES = 4;

describe('equal scores', () => {
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-ties-'));
    const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    const per = TIED / WRITES;
    for (let w = 0; w < WRITES; w++) {
      const pages = Array.from({ length: per }, (_, j) => {
        const n = String(w * per + j).padStart(4, '0');
        return makePage(`p${n}`, `https://t${j % 7}.example.com/p/${n}`, `Heat pump ${n}`, `Page ${n} about pumps.`);
      });
      await index.upsert(pages);
      await index.flush();
    }
    await index.close();
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('give the same page on every search, in every process, and pages that follow each other', async () => {
    // The engine returns any of the tied pages at its cut; which ones changed between searches.
    const pages = new Set<string>();
    const query = (offset: number) => ({ query: parseQuery('intitle:heat'), limit: 10, offset });
    let first: string[] = [];
    let second: string[] = [];
    let both: string[] = [];
    for (let open = 0; open < 4; open++) {
      const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
      try {
        for (let i = 0; i < 3; i++) {
          first = (await index.search(query(0))).hits.map((h) => h.id);
          pages.add(first.join(','));
        }
        second = (await index.search(query(10))).hits.map((h) => h.id);
        both = (await index.search({ ...query(0), limit: 20 })).hits.map((h) => h.id);
      } finally {
        await index.close();
      }
    }
    expect(first).toHaveLength(10);
    expect([...pages]).toEqual([first.join(',')]);
    expect([...first, ...second]).toEqual(both);
  }, 60_000);
});
