import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IndexQuery } from '@quarry/core';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import Database from 'better-sqlite3';
import type * as IndexSqlite from './index.js';

// File indexes run SQLite on worker threads whose scripts are the built files in dist/ (Jest runs
// the sources, from which no thread can start). So this suite loads the built package: it must
// be built, and built from the current sources, or it would test other code than what is here.
const SRC_DIR = fileURLToPath(new URL('.', import.meta.url));
const DIST_DIR = fileURLToPath(new URL('../dist/', import.meta.url));
const BUILD_FIRST = 'build first: `npx tsc -b packages/index-sqlite` (`npm test` does it)';

/** Sources changed since the last build (tsc -b rewrites its build info on every build it runs). */
function sourcesNewerThanBuild(): string[] {
  const buildInfo = fileURLToPath(new URL('../tsconfig.tsbuildinfo', import.meta.url));
  const builtMs = existsSync(buildInfo) ? statSync(buildInfo).mtimeMs : 0;
  return readdirSync(SRC_DIR).filter(
    (name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && statSync(join(SRC_DIR, name)).mtimeMs > builtMs,
  );
}

async function loadBuilt(): Promise<typeof IndexSqlite> {
  if (!existsSync(join(DIST_DIR, 'index.js'))) {
    throw new Error(`packages/index-sqlite/dist is missing: ${BUILD_FIRST}`);
  }
  const stale = sourcesNewerThanBuild();
  if (stale.length > 0) throw new Error(`sources changed since the last build (${stale.join(', ')}): ${BUILD_FIRST}`);
  return (await import(join(DIST_DIR, 'index.js'))) as typeof IndexSqlite;
}

const search = (q: string, extra: Partial<IndexQuery> = {}): IndexQuery => ({
  query: parseQuery(q),
  limit: 10,
  offset: 0,
  ...extra,
});

const pages = (from: number, n: number) =>
  Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return makePage(
      `t${i}`,
      `https://host${i % 5}.example.org/page/${i}`,
      i % 10 === 0 ? `Lighthouse keeper ${i}` : `Harbour note ${i}`,
      `tide table ${i} ${i % 2 === 0 ? 'lighthouse lamp' : 'pier'} beacon`,
    );
  });

describe('SqliteSearchIndex on worker threads (file index)', () => {
  let built: typeof IndexSqlite;
  const dir = mkdtempSync(join(tmpdir(), 'quarry-threads-'));
  const path = join(dir, 'index.db');

  beforeAll(async () => {
    built = await loadBuilt();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('upserts, deletes, searches and counts through the writer and search threads', async () => {
    const index = built.SqliteSearchIndex.open({ path, searchThreads: 2 });
    try {
      // Several writes in flight at once: they must commit in call order.
      await Promise.all([index.upsert(pages(0, 60)), index.upsert(pages(60, 60)), index.delete(['t1', 't3'])]);
      expect(await index.count()).toBe(118);
      expect(await index.has('t1')).toBe(false);
      expect(await index.has('t119')).toBe(true);

      const lamp = await index.search(search('lighthouse'));
      expect(lamp.total).toBe(60);
      expect(lamp.totalIsEstimate).toBe(false);
      // Title matches rank first; every hit carries its stored fields across the thread boundary.
      expect(lamp.hits[0]?.title).toMatch(/^Lighthouse keeper/);
      expect(lamp.hits[0]?.snippet).toMatch(/lighthouse/i);
      expect(lamp.hits.every((hit) => hit.url.startsWith('https://host') && hit.score > 0)).toBe(true);

      const filtered = await index.search(search('beacon site:host2.example.org -pier'));
      expect(filtered.total).toBe(12);
      expect(filtered.hits.every((hit) => hit.domain === 'host2.example.org')).toBe(true);

      // A replaced page is found by its new text only.
      await index.upsert([makePage('t0', 'https://host0.example.org/page/0', 'Moved', 'relocated foghorn')]);
      expect((await index.search(search('foghorn'))).hits.map((hit) => hit.id)).toEqual(['t0']);
      expect((await index.search(search('lighthouse'))).total).toBe(59);
    } finally {
      await index.close();
    }
  });

  it('rejects a write that fails on the writer thread with its message, and keeps writing', async () => {
    const index = built.SqliteSearchIndex.open({ path });
    try {
      // A page without a URL passes the caller's side (nothing there reads it) but not the table's constraint.
      const broken = { ...pages(500, 1)[0]!, url: null as unknown as string };
      await expect(index.upsert([...pages(400, 3), broken])).rejects.toThrow(
        /^index writer: NOT NULL constraint failed: pages\.url$/,
      );
      // The failed batch was rolled back as a whole; the thread still serves the next write.
      expect(await index.has('t400')).toBe(false);
      await index.upsert(pages(400, 3));
      expect(await index.has('t400')).toBe(true);
    } finally {
      await index.close();
    }
  });

  it('rejects a search that fails on a search thread with its message', async () => {
    const brokenPath = join(dir, 'broken.db');
    const index = built.SqliteSearchIndex.open({ path: brokenPath });
    try {
      await index.upsert(pages(0, 5));
      const other = new Database(brokenPath);
      other.exec('DROP TABLE pages_fts');
      other.close();
      const failed = index.search(search('lighthouse'));
      await expect(failed).rejects.toThrow(/^index search: no such table: .*pages_fts/);
      await expect(failed).rejects.toBeInstanceOf(Error);
      // No stack trace crosses the thread: the message is all the caller gets.
      await failed.catch((error: Error) => expect(error.message).not.toMatch(/\n\s+at /));
    } finally {
      await index.close();
    }
  });

  it('lets searches in flight finish on close(), then refuses new ones', async () => {
    const index = built.SqliteSearchIndex.open({ path, searchThreads: 2 });
    const inFlight = Array.from({ length: 24 }, (_, i) => index.search(search(i % 2 === 0 ? 'tide' : 'beacon lamp')));
    const closed = index.close();
    const results = await Promise.all(inFlight);
    await closed;
    expect(results.every((result) => result.hits.length === 10)).toBe(true);
    await expect(index.search(search('tide'))).rejects.toThrow(/closed/);
    await expect(index.upsert(pages(900, 1))).rejects.toThrow(/closed/);
  });

  it('reopens after close with every committed write', async () => {
    const index = built.SqliteSearchIndex.open({ path });
    try {
      expect(await index.count()).toBe(121);
      const result = await index.search(search('tide', { limit: 100, offset: 20 }));
      // Every page but the one rewritten without the word.
      expect(result.total).toBe(120);
      expect(result.hits).toHaveLength(100);
    } finally {
      await index.close();
    }
  });
});
