import { availableParallelism } from 'node:os';
import {
  BackendUnavailableError,
  type IndexQuery,
  type IndexSearchResult,
  type PageDocument,
  type SearchIndex,
} from '@quarry/core';
import Database from 'better-sqlite3';
import { FtsTextPool } from './fts-pool.js';
import { metaText } from './fts-text.js';
import { IndexFormatError, initSchema, reverseHost } from './schema.js';
import { Searcher } from './search.js';

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
   * Worker threads that prepare text for the index (CJK segmentation is CPU-heavy), so that a caller
   * keeping two upserts in flight overlaps text analysis with SQLite writes. 0 analyses text on the
   * calling thread. @defaultValue the number of CPUs minus one, between 1 and 4
   */
  readonly textThreads?: number;
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
  textThreads: Math.max(1, Math.min(4, availableParallelism() - 1)),
  snippetSourceChars: 8192,
  langPriorityBoost: 1.25,
  titleWeight: 4,
  siteNameWeight: 2,
} as const;

interface PreparedPage {
  readonly doc: PageDocument;
  readonly crawledMs: number;
  readonly title: string;
  readonly body: string;
  readonly site: string;
  readonly meta: string;
}

/** Documents per message to a text worker: small enough to spread a batch over the workers. */
const TEXT_CHUNK_DOCS = 250;

/**
 * The embedded search index: SQLite FTS5 through better-sqlite3 (WAL, synchronous=NORMAL). Text is
 * analysed with `@quarry/text` on both the index and the query side, so Chinese and Japanese are
 * searched by words.
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
  readonly #snippetSourceChars: number;
  readonly #statements;
  readonly #pool: FtsTextPool;
  /** Writes run one after another; text preparation of later batches overlaps them. */
  #writes: Promise<void> = Promise.resolve();

  private constructor(db: Database.Database, options: Required<Omit<SqliteSearchIndexOptions, 'path'>>) {
    this.#db = db;
    this.#snippetSourceChars = options.snippetSourceChars;
    this.#searcher = new Searcher(db, options);
    this.#pool = new FtsTextPool(options.textThreads);
    this.#statements = {
      rowidOf: db.prepare('SELECT rowid FROM pages WHERE id = ?').pluck(),
      deletePage: db.prepare('DELETE FROM pages WHERE rowid = ?'),
      deleteFts: db.prepare('DELETE FROM pages_fts WHERE rowid = ?'),
      insertPage: db.prepare(
        'INSERT INTO pages (id, url, title, domain, rhost, site_name, lang, crawled_at, crawled_ms, published_at, ' +
          'has_llms_txt, filetype, snippet_text) VALUES (@id, @url, @title, @domain, @rhost, @site_name, @lang, ' +
          '@crawled_at, @crawled_ms, @published_at, @has_llms_txt, @filetype, @snippet_text)',
      ),
      insertFts: db.prepare('INSERT INTO pages_fts (rowid, title, body, site, meta) VALUES (?, ?, ?, ?, ?)'),
      count: db.prepare('SELECT count(*) FROM pages').pluck(),
    };
  }

  /** Opens (creating if needed) an index at `options.path`; `':memory:'` gives a private in-memory index. */
  static open(options: SqliteSearchIndexOptions): SqliteSearchIndex {
    const settings = { ...DEFAULTS, ...stripUndefined(options) };
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
   * Text is prepared on worker threads as soon as this is called; writes keep call order.
   */
  async upsert(docs: readonly PageDocument[]): Promise<void> {
    if (docs.length === 0) return;
    const prepared = this.#prepare(docs);
    const write = this.#writes.then(async () => this.#write(await prepared));
    this.#writes = write.catch(() => undefined);
    return write;
  }

  async delete(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const remove = this.#writes.then(() =>
      this.#db.transaction(() => {
        for (const id of ids) this.#remove(id);
      })(),
    );
    this.#writes = remove.catch(() => undefined);
    return remove;
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
    await this.#pool.close();
    if (this.#db.open) this.#db.close();
  }

  async #prepare(docs: readonly PageDocument[]): Promise<PreparedPage[]> {
    const chunks: Promise<PreparedPage[]>[] = [];
    for (let start = 0; start < docs.length; start += TEXT_CHUNK_DOCS) {
      chunks.push(this.#prepareChunk(docs.slice(start, start + TEXT_CHUNK_DOCS)));
    }
    return (await Promise.all(chunks)).flat();
  }

  async #prepareChunk(docs: readonly PageDocument[]): Promise<PreparedPage[]> {
    const texts = await this.#pool.run(docs.flatMap((doc) => [doc.title, doc.body_text, doc.site_name ?? '']));
    return docs.map((doc, i) => {
      const parsedMs = Date.parse(doc.crawled_at);
      const crawledMs = Number.isNaN(parsedMs) ? 0 : parsedMs;
      const title = texts[3 * i]!;
      return {
        doc,
        crawledMs,
        title,
        body: texts[3 * i + 1]!,
        site: texts[3 * i + 2]!,
        meta: metaText({ ftsTitle: title, lang: doc.lang, filetype: doc.filetype, domain: doc.domain, crawledMs }),
      };
    });
  }

  #write = (pages: readonly PreparedPage[]): void => {
    this.#db.transaction(() => {
      for (const page of pages) {
        const { doc } = page;
        this.#remove(doc.id);
        const { lastInsertRowid } = this.#statements.insertPage.run({
          id: doc.id,
          url: doc.url,
          title: doc.title,
          domain: doc.domain,
          rhost: reverseHost(doc.domain),
          site_name: doc.site_name,
          lang: doc.lang,
          crawled_at: doc.crawled_at,
          crawled_ms: page.crawledMs,
          published_at: doc.published_at,
          has_llms_txt: doc.has_llms_txt ? 1 : 0,
          filetype: doc.filetype,
          snippet_text: doc.body_text.slice(0, this.#snippetSourceChars),
        });
        this.#statements.insertFts.run(lastInsertRowid, page.title, page.body, page.site, page.meta);
      }
    })();
  };

  #remove(id: string): void {
    const rowid = this.#statements.rowidOf.get(id) as number | bigint | undefined;
    if (rowid === undefined) return;
    this.#statements.deleteFts.run(rowid);
    this.#statements.deletePage.run(rowid);
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
