import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import * as lancedb from '@lancedb/lancedb';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { isStale, isVersionGone } from './fold.js';
import { LanceSearchIndex } from './lance-index.js';

/** Even pages are about lighthouses, odd ones about harbours. */
const TOPICS = ['lighthouses', 'harbours'];
const page = (i: number) => makePage(`p${i}`, `https://example.org/${i}`, `Page ${i}`, `About ${TOPICS[i % 2]}, ${i}.`);
const batch = (start: number, n: number) => Array.from({ length: n }, (_, i) => page(start + i));
const search = (index: LanceSearchIndex, q: string) => index.search({ query: parseQuery(q), limit: 100, offset: 0 });
/** A handle that never looks for other handles' commits by itself (as a reader in another process between two looks). */
const STALE = { autoMaintain: false, readConsistencySecs: 3600 } as const;

let dir: string;
let opened: LanceSearchIndex[];
const open = async (options: Partial<Parameters<typeof LanceSearchIndex.open>[0]>) => {
  const index = await LanceSearchIndex.open({ path: dir, ...options });
  opened.push(index);
  return index;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-lance-cleanup-'));
  opened = [];
});
afterEach(async () => {
  for (const index of opened) await index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A table whose indexes are built, then more writes: the next fold compacts the files, and its cleanup runs. */
async function foldedTwice(writer: LanceSearchIndex, before: () => Promise<void>): Promise<void> {
  for (const start of [0, 10, 20]) await writer.upsert(batch(start, 10));
  await writer.flush();
  await before();
  for (const start of [30, 40]) await writer.upsert(batch(start, 10));
  await writer.flush();
}

/** The data files on disk, and those the newest version reads. */
async function dataFiles(): Promise<{ onDisk: number; live: number }> {
  const db = await lancedb.connect(dir);
  const table = await db.openTable('pages');
  try {
    const live = (await table.stats()).fragmentStats.numFragments;
    return { onDisk: readdirSync(join(dir, 'pages.lance', 'data')).length, live };
  } finally {
    table.close();
    db.close();
  }
}

describe('a fold keeps only the newest table version (the previous copy of the table goes at once)', () => {
  it('leaves no data file the newest version does not read', async () => {
    const writer = await open({ autoMaintain: false });
    await foldedTwice(writer, async () => undefined);
    const files = await dataFiles();
    expect(files.live).toBeLessThanOrEqual(2);
    expect(files.onDisk).toBe(files.live);
    expect((await search(writer, 'lighthouse')).total).toBe(25);
  });

  it('a reader still at a deleted version answers from the newest one', async () => {
    const writer = await open({ autoMaintain: false });
    let reader: LanceSearchIndex | undefined;
    await foldedTwice(writer, async () => {
      // The reader reads the version after the first fold, and stays there.
      reader = await open(STALE);
      expect((await search(reader, 'lighthouse')).total).toBe(15);
    });
    if (!reader) throw new Error('no reader');
    const after = await search(reader, 'lighthouse');
    expect(after.total).toBe(25);
    expect((await search(reader, '"page 42"')).hits.map((hit) => hit.id)).toEqual(['p42']);
    expect(await reader.count()).toBe(50);
    expect(await reader.has('p47')).toBe(true);
  });

  it('a writer still at a deleted version commits on the newest one and loses nothing', async () => {
    const writer = await open({ autoMaintain: false });
    let other: LanceSearchIndex | undefined;
    await foldedTwice(writer, async () => {
      other = await open(STALE);
      await other.upsert([page(100)]);
    });
    if (!other) throw new Error('no writer');
    // Replaces a stored page (a merge by id, which reads the table) and adds new ones.
    await other.upsert([page(3), page(101)]);
    await other.delete(['p5']);
    await writer.flush();
    const fresh = await open({ autoMaintain: false });
    expect(await fresh.count()).toBe(51);
    for (const id of ['p3', 'p100', 'p101', 'p49']) expect(await fresh.has(id)).toBe(true);
    expect(await fresh.has('p5')).toBe(false);
  });
});

describe('isVersionGone', () => {
  it('is the engine’s error for a deleted data file, not any other', () => {
    const gone = new Error(
      'lance error: Not found: tmp/q/pages.lance/data/0110000111.lance, /usr/local/cargo/registry/src/object_store.rs',
    );
    expect(isVersionGone(gone)).toBe(true);
    expect(isVersionGone(new Error('Table not found: pages'))).toBe(false);
    expect(isVersionGone(new Error('Commit conflict for version 7'))).toBe(false);
    expect(isVersionGone('Not found: x.lance')).toBe(false);
  });
});

describe('isStale', () => {
  it("takes the engine's panic for a stale version, as the not-found error it unwrapped", () => {
    expect(isStale(new Error('Panic in async function'))).toBe(true);
    expect(isStale(new Error('Commit conflict for version 7'))).toBe(true);
    expect(isStale(new Error('Table not found: pages'))).toBe(false);
    expect(isStale(new Error('Invalid user input: the column t_text is missing'))).toBe(false);
  });
});
