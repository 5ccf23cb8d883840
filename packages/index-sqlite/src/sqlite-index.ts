import {
  BackendUnavailableError,
  type IndexQuery,
  type IndexSearchResult,
  type PageDocument,
  type SearchIndex,
} from '@quarry/core';
import Database from 'better-sqlite3';
import { PageWriter, preparePage } from './page-writer.js';
import { IndexFormatError, initSchema } from './schema.js';
import { Searcher } from './search.js';
import { WriteThread } from './write-thread.js';

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
   * Whether a file index writes on a worker thread with its own connection, so that SQLite's share
   * of an import (most of it) overlaps the caller's parsing and the searches of this connection.
   * `':memory:'` indexes, and sources run without a build (tests), always write on the calling
   * thread. @defaultValue true
   */
  readonly writerThread?: boolean;
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
  writerThread: true,
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
 */
export class SqliteSearchIndex implements SearchIndex {
  readonly #db: Database.Database;
  readonly #searcher: Searcher;
  readonly #statements;
  /** Writes on the writer thread, when there is one. */
  readonly #thread: WriteThread | undefined;
  /** Writes on this thread otherwise, one after another. */
  readonly #writer: PageWriter | undefined;
  readonly #snippetSourceChars: number;
  #writes: Promise<void> = Promise.resolve();

  private constructor(db: Database.Database, options: Required<SqliteSearchIndexOptions>) {
    this.#db = db;
    this.#searcher = new Searcher(db, options);
    const threaded = options.writerThread && options.path !== ':memory:' && WriteThread.available();
    this.#thread = threaded
      ? new WriteThread({
          path: options.path,
          busyTimeoutMs: options.busyTimeoutMs,
          // The writer only walks the segments it merges; the searching connection keeps the big cache.
          cacheSizeKib: Math.min(options.cacheSizeKib, WRITER_CACHE_KIB),
        })
      : undefined;
    this.#writer = threaded ? undefined : new PageWriter(db);
    this.#snippetSourceChars = options.snippetSourceChars;
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
   * Text is analysed on the calling thread (about 0.05 ms a page), SQLite's work happens on the
   * writer thread. Writes keep call order; a caller may keep several in flight.
   */
  async upsert(docs: readonly PageDocument[]): Promise<void> {
    if (docs.length === 0) return;
    const pages = docs.map((doc) => preparePage(doc, this.#snippetSourceChars));
    if (this.#thread) return this.#thread.run({ op: 'upsert', pages });
    return this.#local((writer) => writer.upsert(pages));
  }

  async delete(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    if (this.#thread) return this.#thread.run({ op: 'delete', ids });
    return this.#local((writer) => writer.delete(ids));
  }

  async search(query: IndexQuery): Promise<IndexSearchResult> {
    return this.#searcher.search(query);
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
    await this.#thread?.close();
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
