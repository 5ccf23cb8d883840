import { readFileSync, statSync } from 'node:fs';
import type { Table } from '@lancedb/lancedb';
import { type FoldResult, foldOnce, isStale } from './fold.js';
import type { FoldProcess } from './fold-process.js';
import { COLUMNS } from './rows.js';
import { definedOnly, writeFileAtomically } from './util.js';

export { foldedThrough } from './fold.js';

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
   * Table versions older than this are deleted at each fold, after its compaction. A fold
   * compacts, and compaction rewrites every file under the engine's target size (a million rows):
   * each fold's version holds a whole copy of the table, and every version written
   * before the compaction committed (the crawl's writes go on during it) points at the previous
   * copy. So any retention keeps that copy until the next fold: 2.17× the live data at 100,000
   * pages with a minute. With 0 only the newest version is kept and the previous copy goes in the
   * same fold. A reader of this or another process still at a deleted version (it looks for new
   * commits once a second) gets the engine's "not found", and the index reads and writes once more
   * on the newest version (`isVersionGone`). Written-but-uncommitted files are never deleted (the
   * engine keeps unreferenced files for a week), so a write racing a fold is retried, not lost.
   * @defaultValue 0
   */
  readonly keepVersionsMs: number;
  /**
   * Background folds run in a child process at this CPU priority (a nice value, 0 to 19), so that
   * they never take the cores searches need; `null` runs them in this process. Folds asked for
   * with `flush()` (after an import) always run here, at full speed. @defaultValue 10
   */
  readonly foldPriority: number | null;
}

export const MAINTENANCE_DEFAULTS: MaintenanceOptions = {
  autoMaintain: true,
  maxUnindexedRows: 2000,
  maxUnindexedAgeMs: 30_000,
  gapFactor: 3,
  keepVersionsMs: 0,
  foldPriority: 10,
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
/**
 * A table with more files under the engine's target size than this is folded even with no page to
 * fold in: a bulk import leaves one file per write (20 at 100,000 pages), its first fold builds the
 * indexes without compacting them, and every search pays for each file (about 0.08 ms; a fifth
 * slower at 100,000 pages) until a fold compacts them.
 */
const MAX_SMALL_FILES = 8;

/** What `fold.json` holds. */
interface FoldState {
  /** Rows whose `seq` is at most this are in the full-text indexes. */
  readonly indexedThroughSeq: number;
  /**
   * The table version of the fold that reached it: a reader still at an older version (another
   * process's commits are seen within a second) keeps the watermark it had. Absent: any version.
   */
  readonly version?: number;
}

/**
 * Pages written since the last fold are searched by a flat scan or the fresh tier (found at once,
 * but each such page costs every query a little), so the maintainer folds them into the indexes
 * with the engine's `optimize()` (compaction, index update, cleanup of old versions) once there are
 * enough of them or they are old enough. Background folds run in a low-priority child process
 * ({@link FoldProcess}) beside this process's writes; a fold asked for with {@link run} runs here,
 * in the write queue. Searches never wait for a fold: they read the previous version until it
 * commits, and the fold watermark moves only once this process reads that version.
 */
export class Maintainer {
  readonly #table: Table;
  readonly #options: MaintenanceOptions;
  readonly #serialize: <T>(job: () => Promise<T>) => Promise<T>;
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #statePath: string;
  readonly #foldProcess: FoldProcess | null;
  /** The watermark usable at the version this process reads. */
  #indexedThroughSeq: number;
  /** A watermark reached by a fold whose version this process may not read yet. */
  #pending: FoldResult | null = null;
  #stateCheckedAt = 0;
  #stateMtimeMs = 0;
  #unindexed = 0;
  /** The table has more small files than {@link MAX_SMALL_FILES}: the next fold compacts them. */
  #compactionDue = false;
  #oldestWriteAt: number | null = null;
  #notBefore = 0;
  #running: Promise<void> | null = null;
  /**
   * Set when a background fold lost its commit to a write that changed rows it rewrote (a delete,
   * a replacing merge): such writes wait at `promise` until the next fold, which starts once those
   * under way are done, has ended (see {@link changingRows}).
   */
  #hold: { readonly promise: Promise<void>; readonly release: () => void } | null = null;
  /** Row-changing writes under way. */
  #changing = 0;
  /** The first look at the table (see lookAtTable), which close() waits for. */
  #looking: Promise<void> = Promise.resolve();
  #closed = false;

  /**
   * @param statePath - the file recording which rows are indexed, shared by every process using the
   *   index; `initialIndexedThroughSeq` is used when it does not exist yet.
   * @param foldProcess - where background folds run (null: in this process).
   */
  constructor(
    table: Table,
    options: Partial<MaintenanceOptions>,
    serialize: <T>(job: () => Promise<T>) => Promise<T>,
    statePath: string,
    initialIndexedThroughSeq: number,
    foldProcess: FoldProcess | null = null,
  ) {
    this.#table = table;
    this.#statePath = statePath;
    const saved = readState(statePath);
    this.#indexedThroughSeq = saved?.indexedThroughSeq ?? initialIndexedThroughSeq;
    if (saved === null) this.#saveState(undefined);
    this.#options = { ...MAINTENANCE_DEFAULTS, ...definedOnly(options) };
    this.#serialize = serialize;
    this.#foldProcess = foldProcess;
    if (this.#options.autoMaintain) {
      this.#timer = setInterval(() => this.#check(), CHECK_INTERVAL_MS);
      this.#timer.unref();
      // In turn with the writes, and waited for by close(): the engine's handles closed under its
      // reads crashed the process (a panic in lance's cache, then a corrupted heap).
      this.#looking = this.#serialize(() => this.#lookAtTable());
    }
  }

  /**
   * Rows whose `seq` is above this may not be in the full-text indexes of table version `version`
   * (this process's folds, and other processes' as recorded in the state file, looked at once a
   * second). Without a version, the watermark of the last version this process is known to read.
   */
  indexedThroughSeq(version?: number): number {
    const now = Date.now();
    if (now - this.#stateCheckedAt >= STATE_REFRESH_MS) {
      this.#stateCheckedAt = now;
      this.#readTheirState();
    }
    const pending = this.#pending;
    if (pending !== null && version !== undefined && version >= pending.version) {
      this.#pending = null;
      this.#indexedThroughSeq = Math.max(this.#indexedThroughSeq, pending.through);
    }
    return this.#indexedThroughSeq;
  }

  /** Records that `rows` pages were written. */
  written(rows: number): void {
    this.#unindexed += rows;
    this.#oldestWriteAt ??= Date.now();
  }

  /** Folds now, in this process (waits for a fold already running, then runs another if anything is left). */
  async run(): Promise<void> {
    if (this.#running) await this.#running.catch(() => undefined);
    this.#running = this.#foldHere().finally(() => {
      this.#running = null;
    });
    await this.#running;
  }

  /**
   * Runs a write that changes stored rows (a delete, a merge replacing pages). Appends never
   * preempt a background fold's commit, but such a write on the rows its compaction rewrites does,
   * and the whole fold is thrown away: a crawl deleting a page every few seconds (a duplicate
   * displaced by a better URL) preempted fold after fold while the unfolded pages piled up (the
   * soak benchmark, 2026-12-05). So after a fold lost so, the next one holds these writes until it
   * ends: they wait (at most one fold), and the fold commits.
   */
  async changingRows<T>(write: () => Promise<T>): Promise<T> {
    while (this.#hold) await this.#hold.promise;
    this.#changing++;
    try {
      return await write();
    } finally {
      this.#changing--;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#release();
    // A background fold is cut short (it commits nothing); one asked for with run() is waited for.
    this.#foldProcess?.close();
    await this.#running?.catch(() => undefined);
    await this.#looking;
  }

  #check(): void {
    if (this.#closed || this.#running) return;
    const holding = this.#hold !== null;
    if (holding) {
      // The fold made again after one was preempted: at once, as soon as the writes it holds are done.
      if (this.#changing > 0) return;
    } else {
      if (this.#unindexed === 0 && !this.#compactionDue) return;
      const now = Date.now();
      if (now < this.#notBefore) return;
      const old = this.#oldestWriteAt !== null && now - this.#oldestWriteAt >= this.#options.maxUnindexedAgeMs;
      if (this.#unindexed < this.#options.maxUnindexedRows && !old && !this.#compactionDue) return;
    }
    const fold = this.#foldProcess ? this.#foldThere(this.#foldProcess, holding) : this.#foldHere();
    this.#running = fold
      .catch((error: unknown) => {
        // A background fold preempted by a write changing rows it rewrote is made again holding
        // such writes; any other failure (a commit race with another process) is retried later.
        if (this.#foldProcess && isStale(error) && !holding && !this.#closed) this.#holdChanges();
        else this.#notBefore = Date.now() + CHECK_INTERVAL_MS * 5;
      })
      .finally(() => {
        if (holding) this.#release();
        this.#running = null;
      });
  }

  #holdChanges(): void {
    let release = () => {};
    const promise = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#hold = { promise, release };
  }

  #release(): void {
    const hold = this.#hold;
    this.#hold = null;
    hold?.release();
  }

  /** A fold in the write queue: writes wait for it, so whatever was counted before it is folded. */
  async #foldHere(): Promise<void> {
    const started = Date.now();
    const pending = this.#unindexed;
    const { through, version } = await this.#serialize(() =>
      foldOnce(this.#table, this.#options.keepVersionsMs, started - FOLD_MARGIN_MS),
    );
    // This handle made the fold's commit, so it reads that version already.
    this.#indexedThroughSeq = Math.max(this.#indexedThroughSeq, through);
    this.#saveState(version);
    this.#unindexed = Math.max(0, this.#unindexed - pending);
    this.#folded(started);
  }

  /**
   * A fold in the fold process, while this process goes on writing: the watermark it reaches is
   * used once this handle reads the fold's version (asked for at once), and the pages written
   * meanwhile are counted again. `holding`: it holds the row-changing writes (see changingRows).
   */
  async #foldThere(foldProcess: FoldProcess, holding: boolean): Promise<void> {
    const started = Date.now();
    let result: FoldResult;
    try {
      result = await foldProcess.fold(this.#options.keepVersionsMs, started - FOLD_MARGIN_MS);
    } finally {
      // The held writes go on once the fold has committed (or failed): one of them may be ahead
      // of this process's look at the new version in the write queue.
      if (holding) this.#release();
    }
    if (this.#closed) return;
    this.#pending = result;
    await this.#serialize(() => this.#table.checkoutLatest());
    this.indexedThroughSeq(await this.#table.version());
    this.#saveState(result.version);
    const left = await this.#table.countRows(`${COLUMNS.seq} > ${this.#indexedThroughSeq}`);
    this.#unindexed = left;
    this.#folded(started);
  }

  /** After a fold that began at `started`: the next waits `gapFactor` times as long as it took. */
  #folded(started: number): void {
    this.#compactionDue = false;
    this.#oldestWriteAt = this.#unindexed > 0 ? Date.now() : null;
    this.#notBefore = Date.now() + (Date.now() - started) * this.#options.gapFactor;
  }

  /** Another process's fold, recorded in the state file, becomes pending here. */
  #readTheirState(): void {
    try {
      const mtime = statSync(this.#statePath).mtimeMs;
      if (mtime === this.#stateMtimeMs) return;
      this.#stateMtimeMs = mtime;
      const theirs = readState(this.#statePath);
      if (theirs === null || theirs.indexedThroughSeq <= this.#indexedThroughSeq) return;
      const version = theirs.version ?? 0;
      if (this.#pending === null || theirs.indexedThroughSeq > this.#pending.through) {
        this.#pending = { through: theirs.indexedThroughSeq, version };
      }
    } catch {
      // No state file: keep what this process knows.
    }
  }

  #saveState(version: number | undefined): void {
    const state: FoldState = {
      indexedThroughSeq: this.#indexedThroughSeq,
      ...(version === undefined ? {} : { version }),
    };
    writeFileAtomically(this.#statePath, JSON.stringify(state));
  }

  /** Pages left unindexed by an earlier process count too, and so do the small files a bulk import left. */
  async #lookAtTable(): Promise<void> {
    try {
      const indices = await this.#table.listIndices();
      const fts = indices.find((index) => index.indexType === 'FTS');
      if (!fts) return;
      const stats = await this.#table.indexStats(fts.name);
      if (stats && stats.numUnindexedRows > 0) this.written(stats.numUnindexedRows);
      const files = (await this.#table.stats()).fragmentStats;
      this.#compactionDue = files.numSmallFragments > MAX_SMALL_FILES;
    } catch {
      // Only an optimization: the next write starts the count anyway.
    }
  }
}

function readState(path: string): FoldState | null {
  try {
    const state = JSON.parse(readFileSync(path, 'utf8')) as Partial<FoldState>;
    if (typeof state.indexedThroughSeq !== 'number') return null;
    const version = typeof state.version === 'number' ? { version: state.version } : {};
    return { indexedThroughSeq: state.indexedThroughSeq, ...version };
  } catch {
    return null;
  }
}
