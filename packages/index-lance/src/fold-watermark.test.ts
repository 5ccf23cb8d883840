import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import * as lancedb from '@lancedb/lancedb';
import { makePage } from '@quarry/index-contract';
import { LanceSearchIndex } from './lance-index.js';
import { foldedThrough } from './maintenance.js';

describe('the fold watermark', () => {
  it('covers every folded page and stops below the first unfolded one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-lance-watermark-'));
    const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    try {
      const page = (i: number) => makePage(`p${i}`, `https://example.org/${i}`, `Page ${i}`, `Text of page ${i}.`);
      await index.upsert([page(1), page(2)]);
      await index.flush();
      // A bulk writer's last batch, folded just now, is not left counted as unfolded by the margin.
      const state = JSON.parse(readFileSync(join(dir, 'fold.json'), 'utf8')) as { indexedThroughSeq: number };
      const db = await lancedb.connect(dir);
      const table = await db.openTable('pages');
      const seqs = (await table.query().select(['seq']).toArray()).map((row) => Number(row.seq));
      expect(state.indexedThroughSeq).toBe(Math.max(...seqs));
      await new Promise((resolve) => setTimeout(resolve, 5));
      await index.upsert([page(3)]);
      await table.checkoutLatest();
      const through = await foldedThrough(table, 0);
      const newest = Math.max(...(await table.query().select(['seq']).toArray()).map((row) => Number(row.seq)));
      expect(through).toBe(state.indexedThroughSeq);
      expect(through).toBeLessThan(newest);
      table.close();
      db.close();
    } finally {
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
