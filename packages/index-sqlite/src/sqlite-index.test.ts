import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import Database from 'better-sqlite3';
import { SqliteSearchIndex } from './sqlite-index.js';

const pages = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    makePage(
      `p${i}`,
      `https://site${i % 7}.example.com/${i}`,
      i % 50 === 0 ? 'Widget catalogue' : `Page ${i}`,
      `widget number ${i} ${i % 3 === 0 ? 'gizmo' : ''}`,
    ),
  );

describe('SqliteSearchIndex bounds', () => {
  let index: SqliteSearchIndex;
  beforeAll(async () => {
    index = SqliteSearchIndex.open({ path: ':memory:', maxRankedCandidates: 100, maxRankedPhraseDocs: 50 });
    await index.upsert(pages(1500));
  });
  afterAll(() => index.close());

  it('estimates the total beyond the candidate bound and says so', async () => {
    const result = await index.search({ query: parseQuery('widget'), limit: 10, offset: 0 });
    expect(result.totalIsEstimate).toBe(true);
    expect(result.total).toBeGreaterThan(1400);
    expect(result.total).toBeLessThan(1600);
    const rare = await index.search({ query: parseQuery('gizmo site:site0.example.com'), limit: 10, offset: 0 });
    expect(rare.totalIsEstimate).toBe(false);
  });

  it('estimates within the crawl-time range when a time filter applies', async () => {
    const timed = SqliteSearchIndex.open({ path: ':memory:', maxRankedCandidates: 100 });
    const dayMs = 86_400_000;
    const now = Date.parse('2026-06-01T00:00:00Z');
    // Indexed in crawl order, one page a day for 1000 days.
    await timed.upsert(
      pages(1000).map((page, i) => ({ ...page, crawled_at: new Date(now - (999 - i) * dayMs).toISOString() })),
    );
    const after = new Date(now - 299.5 * dayMs).toISOString();
    const result = await timed.search({ query: parseQuery('widget'), crawledAfter: after, limit: 10, offset: 0 });
    expect(result.totalIsEstimate).toBe(true);
    expect(result.total).toBeGreaterThan(250);
    expect(result.total).toBeLessThan(350);
    await timed.close();
  });

  it('serves the deepest page (offset 990, limit 100) and keeps pages disjoint', async () => {
    const deep = await index.search({ query: parseQuery('widget'), limit: 100, offset: 990 });
    expect(deep.hits).toHaveLength(100);
    const first = await index.search({ query: parseQuery('widget'), limit: 100, offset: 0 });
    const seen = new Set(first.hits.map((h) => h.id));
    expect(deep.hits.some((h) => seen.has(h.id))).toBe(false);
  });

  it('ranks title matches of a common word first without BM25, with positive scores', async () => {
    const { hits } = await index.search({ query: parseQuery('widget'), limit: 5, offset: 0 });
    expect(hits[0]?.title).toBe('Widget catalogue');
    expect(hits.every((h) => h.score > 0)).toBe(true);
  });
});

describe('SqliteSearchIndex on disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-sqlite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('persists across reopen', async () => {
    const path = join(dir, 'index.db');
    const first = SqliteSearchIndex.open({ path });
    await first.upsert(pages(20));
    await first.close();
    const second = SqliteSearchIndex.open({ path });
    expect(await second.count()).toBe(20);
    expect((await second.search({ query: parseQuery('gizmo'), limit: 10, offset: 0 })).total).toBe(7);
    await second.close();
  });

  it('refuses an index written in another format, saying to re-import', () => {
    const path = join(dir, 'old.db');
    const old = new Database(path);
    old.exec("CREATE VIRTUAL TABLE pages_fts USING fts5(title, body, site, meta, content = '', tokenize = 'ascii')");
    old.close();
    expect(() => SqliteSearchIndex.open({ path })).toThrow(/re-import/);
  });
});
