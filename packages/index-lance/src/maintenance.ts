import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { MatchQuery, type Table } from '@lancedb/lancedb';
import { COLUMNS, META_ALL } from './rows.js';
import { definedOnly } from './util.js';

/** When and how the index folds new pages into its full-text indexes and drops old versions. */
export interface MaintenanceOptions {
  /** Whether maintenance runs in the background (a bulk import turns it off and optimizes once). @defaultValue true */
  readonly autoMaintain: boolean;
  /** Fold written pages in once this many are not yet indexed. @defaultValue 2000 */
  readonly maxUnindexedRows: number;
  /** ...or once the oldest of them was written this long ago. @defaultValue 30000 */
  readonly maxUnindexedAgeMs: number;
  /**
   * After a fold that took T ms, the next one waits at least `gapFactor` × T, so that maintenance
   * takes at most about 1/(1 + gapFactor) of one core however large the index grows. @defaultValue 3
   */
  readonly gapFactor: number;
  /**
   * Table versions older than this are deleted at each fold. Readers in this process always use the
   * newest version; readers in other processes move on within their read-consistency interval
   * (seconds), so ten minutes is far beyond any reader's use. @defaultValue 600000
   */
  readonly keepVersionsMs: number;
}

export const MAINTENANCE_DEFAULTS: MaintenanceOptions = {
  autoMaintain: true,
  maxUnindexedRows: 2000,
  maxUnindexedAgeMs: 30_000,
  gapFactor: 3,
  keepVersionsMs: 600_000,
};

/** How often the background check runs. */
const CHECK_INTERVAL_MS = 1000;
/**
 * Rows written this long before a fold started still count as possibly unindexed after it: a write
 * by another process may have taken its `seq` before the fold began and committed after it (a write
 * commits within a second or two; this process's own writes never overlap its folds).
 */
const FOLD_MARGIN_MS = 10_000;
/** How often the fold state written by other processes is looked at. */
const STATE_REFRESH_MS = 1000;

/** What `fold.json` holds. */
interface FoldState {
  /** Rows whose `seq` is at most this are in the full-text indexes. */
  readonly indexedThroughSeq: number;
}

/**
 * Pages written since the last fold are searched by a flat scan (found at once, but each such page
 * costs every query a little), so the maintainer folds them into the indexes with the engine's
 * `optimize()` (compaction, index update, cleanup of old versions) once there are enough of them or
 * they are old enough. A fold runs in the engine's own threads, in the write queue (so it never
 * races a write), and never blocks searches, which keep reading the previous version until it
 * commits.
 */
export class Maintainer {
  readonly #table: Table;
  readonly #options: MaintenanceOptions;
  readonly #serialize: <T>(job: () => Promise<T>) => Promise<T>;
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #statePath: string;
  #indexedThroughSeq: number;
  #stateCheckedAt = 0;
  #stateMtimeMs = 0;
  #unindexed = 0;
  #oldestWriteAt: number | null = null;
  #notBefore = 0;
  #running: Promise<void> | null = null;
  #closed = false;

  /**
   * @param statePath - the file recording which rows are indexed, shared by every process using the
   *   index; `initialIndexedThroughSeq` is used when it does not exist yet.
   */
  constructor(
    table: Table,
    options: Partial<MaintenanceOptions>,
    serialize: <T>(job: () => Promise<T>) => Promise<T>,
    statePath: string,
    initialIndexedThroughSeq: number,
  ) {
    this.#table = table;
    this.#statePath = statePath;
    const saved = readState(statePath);
    this.#indexedThroughSeq = saved?.indexedThroughSeq ?? initialIndexedThroughSeq;
    if (saved === null) this.#saveState();
    this.#options = { ...MAINTENANCE_DEFAULTS, ...definedOnly(options) };
    this.#serialize = serialize;
    if (this.#options.autoMaintain) {
      this.#timer = setInterval(() => this.#check(), CHECK_INTERVAL_MS);
      this.#timer.unref();
      void this.#countUnindexed();
    }
  }

  /**
   * Rows whose `seq` is above this may not be in the full-text indexes yet (this process's folds,
   * and other processes' as recorded in the state file, looked at once a second).
   */
  indexedThroughSeq(): number {
    const now = Date.now();
    if (now - this.#stateCheckedAt >= STATE_REFRESH_MS) {
      this.#stateCheckedAt = now;
      try {
        const mtime = statSync(this.#statePath).mtimeMs;
        if (mtime !== this.#stateMtimeMs) {
          this.#stateMtimeMs = mtime;
          const theirs = readState(this.#statePath)?.indexedThroughSeq ?? 0;
          this.#indexedThroughSeq = Math.max(this.#indexedThroughSeq, theirs);
        }
      } catch {
        // No state file: keep what this process knows.
      }
    }
    return this.#indexedThroughSeq;
  }

  /** Records that `rows` pages were written. */
  written(rows: number): void {
    this.#unindexed += rows;
    this.#oldestWriteAt ??= Date.now();
  }

  /** Folds now (waits for a fold already running, then runs another if anything is left). */
  async run(): Promise<void> {
    if (this.#running) await this.#running;
    this.#running = this.#fold().finally(() => {
      this.#running = null;
    });
    await this.#running;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#running?.catch(() => undefined);
  }

  #check(): void {
    if (this.#closed || this.#running || this.#unindexed === 0) return;
    const now = Date.now();
    if (now < this.#notBefore) return;
    const old = this.#oldestWriteAt !== null && now - this.#oldestWriteAt >= this.#options.maxUnindexedAgeMs;
    if (this.#unindexed < this.#options.maxUnindexedRows && !old) return;
    this.run().catch(() => {
      // A fold that lost a commit race with another process is retried at the next check.
      this.#notBefore = Date.now() + CHECK_INTERVAL_MS * 5;
    });
  }

  async #fold(): Promise<void> {
    const started = Date.now();
    const pending = this.#unindexed;
    await this.#serialize(() =>
      this.#table.optimize({ cleanupOlderThan: new Date(Date.now() - this.#options.keepVersionsMs) }),
    );
    const through = await foldedThrough(this.#table, started - FOLD_MARGIN_MS).catch(() => started - FOLD_MARGIN_MS);
    this.#indexedThroughSeq = Math.max(this.#indexedThroughSeq, through);
    this.#saveState();
    // Writes queue behind the fold, so whatever was counted before it is now indexed.
    this.#unindexed = Math.max(0, this.#unindexed - pending);
    this.#oldestWriteAt = this.#unindexed > 0 ? Date.now() : null;
    this.#notBefore = Date.now() + (Date.now() - started) * this.#options.gapFactor;
  }

  #saveState(): void {
    const state: FoldState = { indexedThroughSeq: this.#indexedThroughSeq };
    const temp = `${this.#statePath}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(state));
    renameSync(temp, this.#statePath);
  }

  /** Pages left unindexed by an earlier process count too. */
  async #countUnindexed(): Promise<void> {
    try {
      const indices = await this.#table.listIndices();
      const fts = indices.find((index) => index.indexType === 'FTS');
      if (!fts) return;
      const stats = await this.#table.indexStats(fts.name);
      if (stats && stats.numUnindexedRows > 0) this.written(stats.numUnindexedRows);
    } catch {
      // Only an optimization: the next write starts the count anyway.
    }
  }
}

function readState(path: string): FoldState | null {
  try {
    const state = JSON.parse(readFileSync(path, 'utf8')) as Partial<FoldState>;
    return typeof state.indexedThroughSeq === 'number' ? { indexedThroughSeq: state.indexedThroughSeq } : null;
  } catch {
    return null;
  }
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
