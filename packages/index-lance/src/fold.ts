import { MatchQuery, type Table } from '@lancedb/lancedb';
import { COLUMNS, META_ALL } from './rows.js';
import { buildIndexes, nothingIndexedYet } from './table.js';

/** The engine's error for a commit that another commit preempted (the operation may be made again). */
function isCommitConflict(error: unknown): boolean {
  return /commit conflict/i.test(messageOf(error));
}

/**
 * The engine's error for a file that is no longer there: the version this handle read was deleted
 * by a fold's cleanup (see `keepVersionsMs`). The operation may be made again on the newest version.
 */
export function isVersionGone(error: unknown): boolean {
  const message = messageOf(error);
  return /not found/i.test(message) && /\.lance\b/.test(message);
}

/**
 * The engine's panic, which the Node binding turns into this error without its cause. Seen once in
 * a CI run of fold-conflict.int.test.ts: a write's commit, rebased over a fold's, read a version
 * manifest the fold's cleanup had just deleted, and the engine unwrapped the not-found error
 * (lance 10, `conflict_resolver.rs`) where it returns it elsewhere (see {@link isVersionGone}).
 */
function isEnginePanic(error: unknown): boolean {
  return /^Panic in async function/.test(messageOf(error));
}

/**
 * Whether an operation failed only because its version is no longer the newest: made again there,
 * it may pass. The engine's panic counts (see {@link isEnginePanic}): the operations made again are
 * idempotent writes and folds, each tried a bounded number of times.
 */
export function isStale(error: unknown): boolean {
  return isCommitConflict(error) || isVersionGone(error) || isEnginePanic(error);
}

/** An error's message; not by `instanceof Error`, which fails for errors made in another realm (the engine's, under a test runner's VM). */
function messageOf(error: unknown): string {
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : '';
}

/** What one fold did: the watermark it reached and the table version it committed. */
export interface FoldResult {
  /** Rows whose `seq` is at most this are in the full-text indexes. */
  readonly through: number;
  /** The table version after the fold: a reader at an older version must not use `through`. */
  readonly version: number;
}

/**
 * Folds the rows written since the last fold into the full-text indexes with the engine's
 * `optimize()` (compaction, index update, deletion of versions older than `keepVersionsMs`), then
 * finds how far the watermark may move: at least `floor` (rows written before it are folded).
 * When the indexes hold nothing yet (the fold after a bulk import into a new index, or the first
 * of a crawl) they are built over the table as it is, which skips the compaction; the next fold
 * compacts, as every fold does.
 */
export async function foldOnce(table: Table, keepVersionsMs: number, floor: number): Promise<FoldResult> {
  await foldLatest(table, keepVersionsMs).catch(async (error: unknown) => {
    // A write that touched the rows being compacted committed first, or another fold deleted the
    // version this one read: once more, on the newest version.
    if (!isStale(error)) throw error;
    await table.checkoutLatest();
    await foldLatest(table, keepVersionsMs);
  });
  const version = await table.version();
  const through = await foldedThrough(table, floor).catch(() => floor);
  return { through, version };
}

async function foldLatest(table: Table, keepVersionsMs: number): Promise<void> {
  if (await nothingIndexedYet(table)) await buildIndexes(table);
  else await table.optimize({ cleanupOlderThan: new Date(Date.now() - keepVersionsMs) });
}

/**
 * The highest `seq` through which every row is folded, at least `floor`. The rows written since
 * `floor` (the margin's window) are looked at: those the full-text indexes hold (found by an
 * indexed-only search of the token every page has) are folded; the watermark stops just below the
 * first that is not. So a fold after a bulk import leaves nothing of it counted as unfolded.
 */
export async function foldedThrough(table: Table, floor: number): Promise<number> {
  const recent = (await table
    .query()
    .where(`${COLUMNS.seq} > ${floor}`)
    .select([COLUMNS.seq])
    .withRowId()
    .toArray()) as {
    _rowid: bigint;
    seq: number;
  }[];
  if (recent.length === 0) return floor;
  const indexed = (await table
    .query()
    .fullTextSearch(new MatchQuery(META_ALL, COLUMNS.meta))
    .fastSearch()
    .where(`${COLUMNS.seq} > ${floor}`)
    .select(['_score'])
    .withRowId()
    .limit(recent.length)
    .toArray()) as { _rowid: bigint }[];
  const folded = new Set(indexed.map((row) => BigInt(row._rowid)));
  let firstUnfolded = Number.POSITIVE_INFINITY;
  let last = floor;
  for (const row of recent) {
    const seq = Number(row.seq);
    if (folded.has(BigInt(row._rowid))) last = Math.max(last, seq);
    else firstUnfolded = Math.min(firstUnfolded, seq);
  }
  return Number.isFinite(firstUnfolded) ? Math.max(floor, Math.min(last, firstUnfolded - 1)) : last;
}
