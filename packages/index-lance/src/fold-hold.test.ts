import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import * as lancedb from '@lancedb/lancedb';
import { makePage } from '@quarry/index-contract';
import type { FoldResult } from './fold.js';
import type { FoldProcess } from './fold-process.js';
import { LanceSearchIndex } from './lance-index.js';
import { Maintainer } from './maintenance.js';

/** The engine's message when a delete commits under a fold's compaction (seen in the soak benchmark). */
const PREEMPTED =
  'Retryable commit conflict for version 12: This Rewrite transaction was preempted by concurrent transaction Delete at version 12';

const until = async (what: () => boolean): Promise<void> => {
  const deadline = Date.now() + 20_000;
  while (!what()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/**
 * The fold process's answers, scripted: which fold loses its commit, and when the next one ends, is
 * up to the engine's timing in a real crawl (fold-conflict.int.test.ts runs real folds beside
 * deletes); here the maintainer's side of it is made to happen every time.
 */
function scriptedFolds(first: Error) {
  const calls: Array<{ resolve: (result: FoldResult) => void; reject: (error: Error) => void }> = [];
  const process = {
    fold: () =>
      new Promise<FoldResult>((resolve, reject) => {
        calls.push({ resolve, reject });
        if (calls.length === 1) reject(first);
      }),
    close: () => undefined,
  };
  return { calls, process: process as unknown as FoldProcess };
}

describe('writes that change rows, after a background fold lost its commit to one', () => {
  let dir: string;

  async function openTable() {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-fold-hold-'));
    const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    await index.upsert([makePage('h1', 'https://hold.example/1', 'One', 'The first page.')]);
    await index.close();
    const db = await lancedb.connect(dir);
    return { db, table: await db.openTable('pages') };
  }

  it('wait for the fold made again, which starts at once, and go on when it ends', async () => {
    const { db, table } = await openTable();
    const folds = scriptedFolds(new Error(PREEMPTED));
    const options = { maxUnindexedRows: 1, gapFactor: 0 };
    const maintainer = new Maintainer(table, options, (job) => job(), join(dir, 'fold.json'), 0, folds.process);
    const events: string[] = [];
    try {
      maintainer.written(1);
      await until(() => folds.calls.length === 1);
      // The fold was preempted; a delete now waits for the next fold, which is asked for at once.
      const held = maintainer.changingRows(async () => {
        events.push('delete');
      });
      await until(() => folds.calls.length === 2);
      events.push('second fold asked');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(events).toEqual(['second fold asked']);
      folds.calls[1]?.resolve({ through: 0, version: await table.version() });
      await held;
      expect(events).toEqual(['second fold asked', 'delete']);
      // The hold was for that one fold: the next write goes straight on.
      await maintainer.changingRows(async () => {
        events.push('merge');
      });
      expect(events).toEqual(['second fold asked', 'delete', 'merge']);
    } finally {
      await maintainer.close();
      table.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('do not wait after a fold that failed otherwise', async () => {
    const { db, table } = await openTable();
    const folds = scriptedFolds(new Error('the fold process exited'));
    const options = { maxUnindexedRows: 1, gapFactor: 0 };
    const maintainer = new Maintainer(table, options, (job) => job(), join(dir, 'fold.json'), 0, folds.process);
    try {
      maintainer.written(1);
      await until(() => folds.calls.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      let ran = false;
      await maintainer.changingRows(async () => {
        ran = true;
      });
      expect(ran).toBe(true);
    } finally {
      await maintainer.close();
      table.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
