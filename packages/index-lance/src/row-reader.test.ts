import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as lancedb from '@lancedb/lancedb';
import { columnOf } from './hits.js';
import { RowReader } from './row-reader.js';
import { countingCalls } from './testing/counting-table.js';

describe('RowReader', () => {
  let dir: string;
  let db: lancedb.Connection;
  let table: lancedb.Table;
  /** The table, counting its `takeRowIds` calls. */
  let counted: { table: lancedb.Table; calls: () => number };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-row-reader-'));
    db = await lancedb.connect(dir);
    const rows = Array.from({ length: 10 }, (_, i) => ({ a: `a${i}`, b: `b${i}` }));
    table = await db.createTable('t', rows);
    counted = countingCalls(table, 'takeRowIds');
  });
  afterAll(async () => {
    table.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The `column` of `rowIds` in an answer, by row id. */
  const values = (found: Awaited<ReturnType<RowReader['read']>>, column: string, rowIds: bigint[]) => {
    const ids = Array.from(columnOf<bigint>(found, '_rowid'));
    const texts = columnOf<string>(found, column);
    return rowIds.map((rowId) => texts[ids.indexOf(rowId)]);
  };

  it('merges the reads of one tick into one take of their rows and columns', async () => {
    const reader = new RowReader(counted.table);
    const before = counted.calls();
    const [first, second] = await Promise.all([reader.read([1n, 2n], ['a']), reader.read([2n, 7n], ['b'])]);
    expect(counted.calls() - before).toBe(1);
    expect(values(first, 'a', [1n, 2n])).toEqual(['a1', 'a2']);
    expect(values(second, 'b', [2n, 7n])).toEqual(['b2', 'b7']);
  });

  it('reads apart what is asked in different ticks', async () => {
    const reader = new RowReader(counted.table);
    const before = counted.calls();
    expect(values(await reader.read([3n], ['a']), 'a', [3n])).toEqual(['a3']);
    expect(values(await reader.read([4n], ['b']), 'b', [4n])).toEqual(['b4']);
    expect(counted.calls() - before).toBe(2);
  });

  it('fails every read of a take that fails', async () => {
    const reader = new RowReader(counted.table);
    const reads = [reader.read([1n], ['a']), reader.read([2n], ['no_such_column'])];
    for (const read of reads) await expect(read).rejects.toThrow();
  });
});
