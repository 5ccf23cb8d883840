import { availableParallelism } from 'node:os';
import {
  BackendUnavailableError,
  type IndexQuery,
  type IndexSearchResult,
  type PageDocument,
  type SearchIndex,
} from '@quarry/core';
import Database from 'better-sqlite3';
import { SearchPool, startWriter, threadsAvailable, type WriteRequest } from './index-threads.js';
import { PageWriter, prepareBatch } from './page-writer.js';
import { IndexFormatError, initSchema } from './schema.js';
import { Searcher } from './search.js';
import type { WorkerClient } from './worker-client.js';

/** Options of {@link SqliteSearchIndex.open}. */
export interface SqliteSearchIndexOptions {
  /** Database file, or `':memory:'` for a throw-away index (tests). */
  readonly path: string;
  /** How long a write waits for another connection's lock. @defaultValue 5000 */
  readonly busyTimeoutMs?: number;
  /** SQLite page cache size. @defaultValue 262144 (256 MiB) */
  readonly cacheSizeKib?: number;
  /**
   * How many matches (the most recently indexed ones; for filter-only queries the most recently
   * crawled) are scored per query. FTS5 computes BM25 for every match it is given, so this bounds
   * the cost of very common words. Ranking, the `lang_priority` boost and pagination all work over
   * this candidate set, so pages agree with each other; `total` is exact up to it and estimated
   * beyond. Never smaller than offset + limit; the default covers the API's deepest page
   * (offset 990 + limit 100). @defaultValue 1100
   */
  readonly maxRankedCandidates?: number;
  /**
   * Phrases found in more pages than this are not scored with BM25 (whose IDF pass would walk all
   * their pages on every query; their IDF is low anyway): they only add a bonus when in the title.
   * @defaultValue 5000
   */
  readonly maxRankedPhraseDocs?: number;
  /**
   * Whether a file index runs SQLite on worker threads, each with its own connection: one writer
   * (so that SQLite's share of an import, most of it, overlaps the caller's parsing) and
   * `searchThreads` searchers (so that searches use every core and never block the caller's event
   * loop). `':memory:'` indexes, and sources run without a build (tests), use the calling thread.
   * @defaultValue true
   */
  readonly threads?: boolean;
  /** Search threads of a file index (see `threads`). @defaultValue the number of CPUs, at most 4 */
  readonly searchThreads?: number;
  /** Body characters kept for snippets (the full text lives in the blob store). @defaultValue 8192 */
  readonly snippetSourceChars?: number;
  /** Score multiplier for pages in the `lang_priority` language. @defaultValue 1.25 */
  readonly langPriorityBoost?: number;
  /** BM25 weight of the title relative to the body. @defaultValue 4 */
  readonly titleWeight?: number;
  /** BM25 weight of the site name relative to the body. @defaultValue 2 */
  readonly siteNameWeight?: number;
}

const DEFAULTS = {
  busyTimeoutMs: 5000,
  cacheSizeKib: 262_144,
  maxRankedCandidates: 1100,
  maxRankedPhraseDocs: 5000,
  threads: true,
  searchThreads: Math.min(4, availableParallelism()),
  snippetSourceChars: 8192,
  langPriorityBoost: 1.25,
  titleWeight: 4,
  siteNameWeight: 2,
} as const;

/**
 * The embedded search index: SQLite FTS5 through better-sqlite3 (WAL, synchronous=NORMAL). Text is
 * analysed with `@quarry/text` on both the index and the query side; Chinese and Japanese are
 * indexed as overlapping character pairs, so any character sequence is found (not only whole words).
 *
 * `total` is exact up to `maxRankedCandidates` matches. Beyond it the count stops and the total is
 * extrapolated: candidates are taken from the newest indexed page backwards (by rowid; by crawl
 * time for filter-only queries), and the count is divided by the share of that key range walked
 * before the bound was reached. That assumes matches are spread evenly over indexing order, so it
 * is an estimate (`totalIsEstimate: true`), never below the number actually counted.
 *
 * Ranking is bounded and approximate, so that no query walks a common word's whole match list:
 * - only the newest `maxRankedCandidates` matches are ranked (and paged through);
 * - a phrase in fewer than `maxRankedPhraseDocs` pages (judged on the newest 2,000 pages, cached
 *   until the index grows by 1%) is scored with BM25 (title × `titleWeight`, site name ×
 *   `siteNameWeight`); a more common phrase only adds a fixed bonus when it is in the title;
 * - stop words are dropped from an AND while another word remains (from matching, ranking and
 *   snippets), as the search API asks;
 * - `lang_priority` multiplies the score of matching pages by `langPriorityBoost`.
 * The ranking-quality check (Cranfield, `@quarry/index-contract`) measures nDCG@10 0.283 with them.
 */
export class SqliteSearchIndex implements SearchIndex {
  readonly #db: Database.Database;
  readonly #statements;
  /** Searches and writes on worker threads, when there are any. */
  readonly #pool: SearchPool | undefined;
  readonly #thread: WorkerClient<WriteRequest, null> | undefined;
  /** Otherwise on this thread; writes one after another. */
  readonly #searcher: Searcher;
  readonly #writer: PageWriter | undefined;
  readonly #snippetSourceChars: number;
  #writes: Promise<void> = Promise.resolve();

  private constructor(db: Database.Database, options: Required<SqliteSearchIndexOptions>) {
    this.#db = db;
    this.#searcher = new Searcher(db, options);
    this.#snippetSourceChars = options.snippetSourceChars;
    const threaded = options.threads && options.path !== ':memory:' && threadsAvailable();
    const connection = { path: options.path, busyTimeoutMs: options.busyTimeoutMs };
    // Each thread has its own page cache: searchers share the configured size, the writer only
    // walks the segments it merges.
    const searchThreads = Math.max(1, Math.trunc(options.searchThreads));
    this.#pool = threaded
      ? new SearchPool(
          { ...connection, cacheSizeKib: Math.ceil(options.cacheSizeKib / searchThreads), tuning: options },
          searchThreads,
        )
      : undefined;
    this.#thread = threaded
      ? startWriter({ ...connection, cacheSizeKib: Math.min(options.cacheSizeKib, WRITER_CACHE_KIB) })
      : undefined;
    this.#writer = threaded ? undefined : new PageWriter(db);
    this.#statements = {
      rowidOf: db.prepare('SELECT rowid FROM pages WHERE id = ?').pluck(),
      count: db.prepare('SELECT count(*) FROM pages').pluck(),
    };
  }

  /** Opens (creating if needed) an index at `options.path`; `':memory:'` gives a private in-memory index. */
  static open(options: SqliteSearchIndexOptions): SqliteSearchIndex {
    const settings = { ...DEFAULTS, ...stripUndefined(options), path: options.path };
    let db: Database.Database | undefined;
    try {
      db = new Database(options.path);
      initSchema(db, settings.busyTimeoutMs, settings.cacheSizeKib);
    } catch (error) {
      db?.close();
      if (error instanceof IndexFormatError) throw new BackendUnavailableError(error.message, error);
      throw new BackendUnavailableError('cannot open the SQLite search index', error);
    }
    return new SqliteSearchIndex(db, settings);
  }

  /**
   * Inserts or replaces pages by id in one transaction; a replaced page gets a new rowid (newest).
   * Text is analysed and encoded on the calling thread (about 0.1 ms a page), SQLite's work
   * happens on the writer thread. Writes keep call order; a caller may keep several in flight.
   */
  async upsert(docs: readonly PageDocument[]): Promise<void> {
    if (docs.length === 0) return;
    const batch = prepareBatch(docs, this.#snippetSourceChars);
    if (this.#thread) return void (await this.#thread.request({ op: 'upsert', batch }, [batch.text.buffer]));
    return this.#local((writer) => writer.upsert(batch));
  }

  async delete(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    if (this.#thread) return void (await this.#thread.request({ op: 'delete', ids }));
    return this.#local((writer) => writer.delete(ids));
  }

  async search(query: IndexQuery): Promise<IndexSearchResult> {
    return this.#pool ? this.#pool.search(query) : this.#searcher.search(query);
  }

  async has(id: string): Promise<boolean> {
    return this.#statements.rowidOf.get(id) !== undefined;
  }

  async count(): Promise<number> {
    return this.#statements.count.get() as number;
  }

  async ping(): Promise<void> {
    try {
      this.#db.prepare('SELECT 1').get();
    } catch (error) {
      throw new BackendUnavailableError('the SQLite search index is not usable', error);
    }
  }

  async close(): Promise<void> {
    await this.#writes;
    await Promise.all([this.#thread?.close(), this.#pool?.close()]);
    if (this.#db.open) this.#db.close();
  }

  #local(write: (writer: PageWriter) => void): Promise<void> {
    const writer = this.#writer!;
    const done = this.#writes.then(() => write(writer));
    this.#writes = done.catch(() => undefined);
    return done;
  }
}

/** Page cache of the writer thread's connection. */
const WRITER_CACHE_KIB = 65_536;

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
