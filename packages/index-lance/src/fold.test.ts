import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import * as lancedb from '@lancedb/lancedb';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

const page = (i: number) =>
  makePage(
    `p${i}`,
    `https://example.org/${i}`,
    `Page ${i}`,
    `Text of page ${i} about ${i % 2 ? 'harbours' : 'lighthouses'}.`,
  );

describe('the first fold of a new index', () => {
  it('builds the indexes over the written files as they are; the next fold compacts them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-lance-first-fold-'));
    const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    const db = await lancedb.connect(dir);
    try {
      // Three writes, three files, as a bulk import leaves them.
      for (const start of [0, 10, 20]) await index.upsert(Array.from({ length: 10 }, (_, i) => page(start + i)));
      await index.flush();
      const table = await db.openTable('pages');
      const facts = async () => {
        await table.checkoutLatest();
        const stats = await table.indexStats('t_text_idx');
        return {
          files: (await table.stats()).fragmentStats.numFragments,
          indexed: stats?.numIndexedRows,
          unindexed: stats?.numUnindexedRows,
        };
      };
      expect(await facts()).toEqual({ files: 3, indexed: 30, unindexed: 0 });
      const search = (q: string) => index.search({ query: parseQuery(q), limit: 100, offset: 0 });
      expect((await search('lighthouse')).total).toBe(15);
      expect((await search('"page 27"')).hits.map((hit) => hit.id)).toEqual(['p27']);

      await index.upsert([page(30)]);
      await index.flush();
      // The import's three files become one; the engine keeps the newly indexed rows' file apart.
      const after = await facts();
      expect(after).toEqual({ files: expect.any(Number), indexed: 31, unindexed: 0 });
      expect(after.files).toBeLessThanOrEqual(2);
      expect((await search('lighthouse')).total).toBe(16);
      table.close();
    } finally {
      db.close();
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an index opened after a bulk import', () => {
  it('compacts the import’s many files in the background, with no page to fold', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-lance-compact-'));
    const bulk = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    for (let i = 0; i < 10; i++) await bulk.upsert([page(i)]);
    await bulk.flush();
    await bulk.close();
    const db = await lancedb.connect(dir);
    const table = await db.openTable('pages');
    const files = async () => {
      await table.checkoutLatest();
      return (await table.stats()).fragmentStats.numFragments;
    };
    expect(await files()).toBe(10);
    const index = await LanceSearchIndex.open({ path: dir, foldPriority: null });
    try {
      const deadline = Date.now() + 20_000;
      while ((await files()) > 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await files()).toBe(1);
      expect((await index.search({ query: parseQuery('lighthouse'), limit: 100, offset: 0 })).total).toBe(5);
    } finally {
      table.close();
      db.close();
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
