import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import * as lancedb from '@lancedb/lancedb';
import { makePage } from '@quarry/index-contract';
import { foldedThrough } from './fold.js';
import { LanceSearchIndex } from './lance-index.js';
import { Maintainer } from './maintenance.js';

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

describe('a fold watermark from another process', () => {
  it('is used only by a reader at the version of the fold that reached it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-lance-watermark-version-'));
    const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    const db = await lancedb.connect(dir);
    const table = await db.openTable('pages');
    const statePath = join(dir, 'state.json');
    writeFileSync(statePath, JSON.stringify({ indexedThroughSeq: 100 }));
    const maintainer = new Maintainer(table, { autoMaintain: false }, (job) => job(), statePath, 0);
    try {
      expect(maintainer.indexedThroughSeq(1)).toBe(100);
      // Another process folded through 500 in version 7 (state files are looked at once a second).
      writeFileSync(statePath, JSON.stringify({ indexedThroughSeq: 500, version: 7 }));
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(maintainer.indexedThroughSeq(6)).toBe(100);
      expect(maintainer.indexedThroughSeq()).toBe(100);
      expect(maintainer.indexedThroughSeq(7)).toBe(500);
      // Once read at that version, it holds for every later question.
      expect(maintainer.indexedThroughSeq()).toBe(500);
    } finally {
      await maintainer.close();
      table.close();
      db.close();
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a maintainer's first look at its table", () => {
  it('runs in turn with the writes, and close() waits for it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-lance-first-look-'));
    const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    const db = await lancedb.connect(dir);
    const table = await db.openTable('pages');
    // A queue that holds every job until released: the look must wait in it, as a write would.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let queued = 0;
    const serialize = <T>(job: () => Promise<T>): Promise<T> => {
      queued++;
      return held.then(job);
    };
    const maintainer = new Maintainer(table, { autoMaintain: true }, serialize, join(dir, 'look.json'), 0);
    try {
      expect(queued).toBe(1);
      let closed = false;
      const closing = maintainer.close().then(() => {
        closed = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The table's handles are closed after close(): not while the look still reads them.
      expect(closed).toBe(false);
      release();
      await closing;
      expect(closed).toBe(true);
    } finally {
      release();
      await maintainer.close();
      table.close();
      db.close();
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
