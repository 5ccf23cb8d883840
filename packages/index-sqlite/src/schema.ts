import type Database from 'better-sqlite3';

/**
 * `pages` keeps what a hit needs (and a bounded body prefix for snippets); `pages_fts` is a
 * contentless FTS5 table (the text lives only in its inverted index, rowids shared with `pages`).
 * Columns title, body and site are searched; `meta` holds filter tokens (see fts-text.ts).
 * `rhost` is the host with its labels reversed (`com.example.www.`), so a site and all its
 * subdomains form one range of an index.
 */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS pages (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  url TEXT NOT NULL,
  title TEXT NOT NULL,
  domain TEXT NOT NULL,
  rhost TEXT NOT NULL,
  site_name TEXT,
  lang TEXT NOT NULL,
  crawled_at TEXT NOT NULL,
  crawled_ms INTEGER NOT NULL,
  published_at TEXT,
  has_llms_txt INTEGER NOT NULL,
  filetype TEXT NOT NULL,
  snippet_text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS pages_crawled ON pages (crawled_ms);
CREATE INDEX IF NOT EXISTS pages_rhost ON pages (rhost);
CREATE VIRTUAL TABLE IF NOT EXISTS pages_fts USING fts5 (
  title, body, site, meta,
  content = '', contentless_delete = 1, tokenize = 'ascii'
);
`;

/**
 * Write settings. FTS5 buffers new postings in memory and writes them out as a segment whenever
 * the buffer exceeds `hashsize` (1 MiB by default) and at every commit; each segment must later be
 * merged into larger ones. A 64 MiB buffer makes a typical batch (1,000 pages, ~8 MB of text) one
 * segment instead of eight, which cut import CPU by about a fifth; it is only filled while a
 * transaction is open. By default FTS5 also merges segments so eagerly that bulk imports spend most
 * of their time rewriting the index; merging 8 segments at a time (and forcing it only at 64)
 * roughly doubled import speed with little effect on query time.
 */
const FTS_WRITE_SQL = `
INSERT INTO pages_fts (pages_fts, rank) VALUES ('hashsize', ${64 * 1024 * 1024});
INSERT INTO pages_fts (pages_fts, rank) VALUES ('automerge', 8);
INSERT INTO pages_fts (pages_fts, rank) VALUES ('crisismerge', 64);
`;

/**
 * Version of the index format, kept in `PRAGMA user_version`. 2: filter tokens start with `§`,
 * titles are repeated as `¶` tokens in `meta`, CJK text is indexed as character pairs.
 */
const FORMAT_VERSION = 2;

/** The database holds an index written in another format (an older Quarry): it cannot be searched. */
export class IndexFormatError extends Error {
  constructor(found: number, supported: number) {
    super(`the search index has format ${found}, this version reads format ${supported}: re-import into a new index`);
    this.name = 'IndexFormatError';
  }
}

/** Per-connection settings, for every connection to an index (the searching one and the writer's). */
export function configureConnection(db: Database.Database, busyTimeoutMs: number, cacheSizeKib: number): void {
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  db.pragma(`cache_size = -${Math.trunc(cacheSizeKib)}`);
  db.pragma('temp_store = MEMORY');
}

/** Applies pragmas and creates the schema if needed. */
export function initSchema(db: Database.Database, busyTimeoutMs: number, cacheSizeKib: number): void {
  // Only takes effect on a new database; larger pages suit FTS5's long doclists.
  db.pragma('page_size = 8192');
  db.pragma('journal_mode = WAL');
  configureConnection(db, busyTimeoutMs, cacheSizeKib);
  const existing = db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'pages_fts'").pluck().get() as number;
  const version = db.pragma('user_version', { simple: true }) as number;
  if (existing > 0 && version !== FORMAT_VERSION) {
    throw new IndexFormatError(version, FORMAT_VERSION);
  }
  db.exec(SCHEMA_SQL);
  db.exec(FTS_WRITE_SQL);
  if (existing === 0) db.pragma(`user_version = ${FORMAT_VERSION}`);
}

/** `www.example.com` → `com.example.www.`; the trailing dot keeps `example.com` from prefixing `example.community`. */
export function reverseHost(host: string): string {
  return `${host.split('.').reverse().join('.')}.`;
}
