import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as lancedb from '@lancedb/lancedb';
import { rowsByKnownRowId } from './hits.js';
import { COLUMNS } from './rows.js';
import { countingCalls } from './testing/counting-table.js';

describe('rowsByKnownRowId', () => {
  let dir: string;
  let db: lancedb.Connection;
  let table: lancedb.Table;
  /** Each page's row id when first read, as the fresh tier keeps it. */
  let seen: Map<string, bigint>;
  /** The table, counting its `query` calls (a read by id; a take by row id is `takeRowIds`). */
  let counted: { table: lancedb.Table; queries: () => number };

  const row = (id: string) => ({ id, [COLUMNS.hit]: JSON.stringify({ id, url: `https://example.com/${id}` }) });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-hits-'));
    db = await lancedb.connect(dir);
    table = await db.createTable('t', [row('a'), row('b')]);
    // Written apart, as a crawl writes: each write its own fragment.
    await table.add([row('c')]);
    await table.add([row('d')]);
    const rows = await table.query().select(['id']).withRowId().toArray();
    seen = new Map(rows.map((r) => [r.id as string, BigInt(r._rowid as bigint)]));
    const counting = countingCalls(table, 'query');
    counted = { table: counting.table, queries: counting.calls };
  });
  afterAll(async () => {
    table.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const urls = (rows: Map<string, Record<string, unknown>>) =>
    Object.fromEntries([...rows].map(([id, hit]) => [id, hit.url]));

  it('reads rows by the row ids they were seen with, without a query by id', async () => {
    const before = counted.queries();
    const rows = await rowsByKnownRowId(counted.table, new Map([...seen].filter(([id]) => id !== 'a')));
    expect(urls(rows)).toEqual({
      b: 'https://example.com/b',
      c: 'https://example.com/c',
      d: 'https://example.com/d',
    });
    expect(counted.queries() - before).toBe(0);
  });

  it('reads by id the rows a compaction moved, and never a deleted one', async () => {
    await table.delete("id = 'b'");
    // Compaction rewrites the fragments: the row ids seen before name no row, or another one.
    await table.optimize({ cleanupOlderThan: new Date() });
    const after = await table.query().select(['id']).withRowId().toArray();
    expect(after.some((r) => seen.get(r.id as string) === BigInt(r._rowid as bigint))).toBe(false);
    // And `d` is given the row id `c` has now: a row that is there, but another page's.
    const cNow = BigInt(after.find((r) => r.id === 'c')?._rowid as bigint);
    const stale = new Map([...seen, ['d', cNow]]);
    const before = counted.queries();
    const rows = await rowsByKnownRowId(counted.table, stale);
    expect(urls(rows)).toEqual({ a: 'https://example.com/a', c: 'https://example.com/c', d: 'https://example.com/d' });
    expect(counted.queries() - before).toBe(1);
  });
});
