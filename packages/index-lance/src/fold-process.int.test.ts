import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as lancedb from '@lancedb/lancedb';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';
import { unindexedRows } from './table.js';

/** This process's children running the fold worker, with their nice values. */
function foldChildren(): { pid: number; nice: number }[] {
  const found: { pid: number; nice: number }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      // Fields after the command's closing parenthesis: state, ppid, ... nice is the 19th field.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid && cmdline.includes('fold-worker')) {
        found.push({ pid: Number(entry), nice: Number(fields[16]) });
      }
    } catch {
      // The process ended while being looked at.
    }
  }
  return found;
}

const onLinux = process.platform === 'linux';

describe('background folds in a low-priority child process', () => {
  let dir: string;
  let index: LanceSearchIndex;
  const pages = Array.from({ length: 30 }, (_, i) =>
    makePage(`p-${i}`, `https://fold.example.org/${i}`, `Kestrel note ${i}`, `A kestrel hovered over field ${i}.`),
  );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-foldproc-'));
    index = await LanceSearchIndex.open({ path: dir, maxUnindexedRows: 10, gapFactor: 0, foldPriority: 12 });
  });

  afterAll(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('folds written pages without losing any from the results meanwhile', async () => {
    await index.upsert(pages.slice(0, 15));
    await index.upsert(pages.slice(15));
    const db = await lancedb.connect(dir);
    const table = await db.openTable('pages');
    try {
      const deadline = Date.now() + 60_000;
      let left = Number.POSITIVE_INFINITY;
      while (left > 0 && Date.now() < deadline) {
        // Every written page is found at every moment: before, during and after the fold.
        const result = await index.search({ query: parseQuery('kestrel'), limit: 50, offset: 0 });
        expect(result.total).toBe(pages.length);
        await table.checkoutLatest();
        left = await unindexedRows(table);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(left).toBe(0);
    } finally {
      table.close();
      db.close();
    }
    // The fold's watermark is recorded, with its version, once this process reads that version.
    type State = { indexedThroughSeq: number; version?: number };
    const readState = () => JSON.parse(readFileSync(join(dir, 'fold.json'), 'utf8')) as State;
    const deadline = Date.now() + 10_000;
    let state = readState();
    while (state.version === undefined && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = readState();
    }
    expect(state.version).toBeGreaterThan(0);
    expect(state.indexedThroughSeq).toBeGreaterThan(0);
    const after = await index.search({ query: parseQuery('kestrel hovered'), limit: 50, offset: 0 });
    expect(after.total).toBe(pages.length);
    if (onLinux) {
      // The fold ran in a child of this process, kept for the next fold, at the priority asked for.
      const children = foldChildren();
      expect(children).toHaveLength(1);
      expect(children[0]?.nice).toBe(12);
    }
  });

  (onLinux ? it : it.skip)('ends the fold process when the index closes', async () => {
    const other = mkdtempSync(join(tmpdir(), 'quarry-lance-foldproc-close-'));
    const before = new Set(foldChildren().map((c) => c.pid));
    const opened = await LanceSearchIndex.open({ path: other, maxUnindexedRows: 1, gapFactor: 0 });
    try {
      await opened.upsert(pages.slice(0, 3));
      const deadline = Date.now() + 20_000;
      let started: number[] = [];
      while (started.length === 0 && Date.now() < deadline) {
        started = foldChildren()
          .map((c) => c.pid)
          .filter((pid) => !before.has(pid));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(started).toHaveLength(1);
      await opened.close();
      const gone = Date.now() + 5_000;
      while (foldChildren().some((c) => c.pid === started[0]) && Date.now() < gone) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(foldChildren().map((c) => c.pid)).not.toContain(started[0]);
    } finally {
      await opened.close();
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('loses no write that races a fold: new pages, replaced pages and deletions', async () => {
    const other = mkdtempSync(join(tmpdir(), 'quarry-lance-foldproc-race-'));
    // Folds back to back, so that most writes below overlap one.
    const racing = await LanceSearchIndex.open({ path: other, maxUnindexedRows: 1, gapFactor: 0 });
    const page = (i: number, version: number) =>
      makePage(`r-${i}`, `https://race.example.org/${i}`, `Merlin ${i}`, `A merlin, version v${version}x, page ${i}.`);
    try {
      const live = new Map<number, number>();
      for (let round = 0; round < 40; round++) {
        const batch = [page(round * 3, 1), page(round * 3 + 1, 1), page(round * 3 + 2, 1)];
        // Pages written before are replaced, and one is deleted: updates of rows a fold may rewrite.
        if (round > 0) batch.push(page((round - 1) * 3, round + 1));
        await racing.upsert(batch);
        for (const doc of batch) live.set(Number(doc.id.slice(2)), Number(/v(\d+)x/.exec(doc.body_text)?.[1]));
        if (round > 1) {
          await racing.delete([`r-${(round - 2) * 3 + 1}`]);
          live.delete((round - 2) * 3 + 1);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await racing.flush();
      const result = await racing.search({ query: parseQuery('merlin'), limit: 200, offset: 0 });
      expect(result.total).toBe(live.size);
      const got = new Map(result.hits.map((hit) => [Number(hit.id.slice(2)), hit.id]));
      expect([...got.keys()].sort((a, b) => a - b)).toEqual([...live.keys()].sort((a, b) => a - b));
      // Each replaced page is found by its last version's word, and only by it.
      for (const [i, version] of live) {
        const found = await racing.search({ query: parseQuery(`v${version}x`), limit: 200, offset: 0 });
        expect(found.hits.map((hit) => hit.id)).toContain(`r-${i}`);
      }
      expect((await racing.search({ query: parseQuery('v1x'), limit: 200, offset: 0 })).total).toBe(
        [...live.values()].filter((v) => v === 1).length,
      );
    } finally {
      await racing.close();
      rmSync(other, { recursive: true, force: true });
    }
  });
});
