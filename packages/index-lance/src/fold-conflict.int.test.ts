import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

/** The table version of the last fold recorded in `fold.json` (undefined before the first). */
function foldVersion(dir: string): number | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, 'fold.json'), 'utf8')) as { version?: number }).version;
  } catch {
    return undefined;
  }
}

const page = (i: number) =>
  makePage(`c-${i}`, `https://conflict.example.org/${i}`, `Osprey ${i}`, `An osprey, page ${i}, over the estuary.`);

describe('background folds beside a crawl that deletes pages', () => {
  // The soak benchmark (2026-12-05): a crawl's indexer deletes a page every few seconds (a duplicate
  // displaced by a better URL), and each delete committed during a background fold's compaction
  // preempted it ("Rewrite transaction was preempted by concurrent transaction Delete"): the fold
  // was thrown away and made again, and again, while the unfolded pages piled up.
  // Whether a given fold is preempted depends on timing (which small files a fold picked, whether the
  // engine can rebase the other commit), so this checks what must hold with the hold in place: folds
  // commit while such writes go on, and none of the writes held meanwhile is lost or deadlocked.
  it('commits folds although deletes and replacements keep coming, losing none of them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-lance-fold-conflict-'));
    const index = await LanceSearchIndex.open({ path: dir, maxUnindexedRows: 1, gapFactor: 0, foldPriority: 0 });
    try {
      await index.upsert(Array.from({ length: 100 }, (_, i) => page(i)));
      // The first fold builds the indexes (no compaction, nothing to preempt).
      const deadline = Date.now() + 60_000;
      while (foldVersion(dir) === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const first = foldVersion(dir);
      expect(first).toBeDefined();
      // Small writes (each a small file the next fold compacts), and in each round a deletion and a
      // replacement of pages of those files, until three more folds have committed.
      const foldsDeadline = Date.now() + 90_000;
      const live = new Set(Array.from({ length: 100 }, (_, i) => i));
      const recent: number[] = [];
      const versions = new Set<number>();
      for (let next = 100; versions.size < 3 && Date.now() < foldsDeadline; next += 3) {
        const batch = [page(next), page(next + 1), page(next + 2)];
        await index.upsert(batch);
        for (const doc of batch) {
          live.add(Number(doc.id.slice(2)));
          recent.push(Number(doc.id.slice(2)));
        }
        if (recent.length > 12) {
          const [gone] = recent.splice(next % 10, 1);
          await index.delete([`c-${gone}`]);
          live.delete(gone!);
          await index.upsert([page(recent[(next * 7) % 10]!)]);
        }
        const version = foldVersion(dir);
        if (version !== undefined && version !== first) versions.add(version);
      }
      expect(versions.size).toBe(3);
      await index.flush();
      const result = await index.search({ query: parseQuery('osprey'), limit: 1000, offset: 0 });
      expect(result.total).toBe(live.size);
      expect(new Set(result.hits.map((hit) => Number(hit.id.slice(2))))).toEqual(live);
    } finally {
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
