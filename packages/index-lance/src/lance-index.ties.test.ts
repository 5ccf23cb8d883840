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

describe('a run of equal scores longer than the matches counted (1,150 pages)', () => {
  const RUN = 1150;
  let dir: string;
  let index: LanceSearchIndex;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-long-run-'));
    index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    // In several writes, each folded: the engine's cut then takes tied pages of several parts.
    for (let w = 0; w < 5; w++) {
      const pages = Array.from({ length: RUN / 5 }, (_, j) => {
        const n = String(w * (RUN / 5) + j).padStart(4, '0');
        return makePage(`r${n}`, `https://r${j % 13}.example.com/p/${n}`, `Heat pump ${n}`, `Page ${n} about pumps.`);
      });
      await index.upsert(pages);
      await index.flush();
    }
  }, 120_000);
  afterAll(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['heat', {}],
    ['intitle:heat', {}],
    ['site:example.com', {}],
    ['heat site:example.com', {}],
    ['heat OR pump', {}],
    ['"heat pump"', {}],
    ['heat pump', { match: 'any' }],
    ['heat boiler', { match: 'any' }],
    ['heat', { langPriority: 'en' }],
    ['heat', { lang: 'en' }],
    ['-boiler site:example.com', {}],
  ] as const)(
    'pages of any size agree down to the deepest offset (%s %j)',
    async (q, extra) => {
      const page = async (offset: number, limit: number) =>
        (await index.search({ query: parseQuery(q), limit, offset, ...extra })).hits.map((h) => h.id);
      // Ranks 900 to 1089 read by pages of 100, of 10 and of 7.
      const byHundred = [...(await page(900, 90)), ...(await page(990, 100))];
      const byTen: string[] = [];
      for (let offset = 900; offset <= 990; offset += 10) byTen.push(...(await page(offset, 10)));
      const bySeven: string[] = [];
      for (let offset = 900; offset <= 990; offset += 7) bySeven.push(...(await page(offset, 7)));
      expect(byHundred).toHaveLength(190);
      expect(new Set(byHundred).size).toBe(190);
      expect(byTen).toEqual(byHundred.slice(0, 100));
      expect(bySeven).toEqual(byHundred.slice(0, bySeven.length));
    },
    60_000,
  );
});
