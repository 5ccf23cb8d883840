import type { PageDocument } from '@quarry/core';
import type Database from 'better-sqlite3';
import { metaText, toFtsText } from './fts-text.js';
import { reverseHost } from './schema.js';

/** A page as the writer stores it: the `pages` row and the FTS5 columns, text already prepared. */
export interface PreparedPage {
  readonly row: {
    readonly id: string;
    readonly url: string;
    readonly title: string;
    readonly domain: string;
    readonly rhost: string;
    readonly site_name: string | null;
    readonly lang: string;
    readonly crawled_at: string;
    readonly crawled_ms: number;
    readonly published_at: string | null;
    readonly has_llms_txt: number;
    readonly filetype: string;
    readonly snippet_text: string;
  };
  readonly fts: readonly [title: string, body: string, site: string, meta: string];
}

/**
 * Prepares a page for the writer: the text analysis (`toFtsText`, `metaText`) runs here, on the
 * caller's thread, so that the writer thread does nothing but SQLite work. Keeps only the first
 * `snippetSourceChars` of the original body (for snippets).
 */
export function preparePage(doc: PageDocument, snippetSourceChars: number): PreparedPage {
  const parsedMs = Date.parse(doc.crawled_at);
  const crawledMs = Number.isNaN(parsedMs) ? 0 : parsedMs;
  const title = toFtsText(doc.title);
  return {
    row: {
      id: doc.id,
      url: doc.url,
      title: doc.title,
      domain: doc.domain,
      rhost: reverseHost(doc.domain),
      site_name: doc.site_name,
      lang: doc.lang,
      crawled_at: doc.crawled_at,
      crawled_ms: crawledMs,
      published_at: doc.published_at,
      has_llms_txt: doc.has_llms_txt ? 1 : 0,
      filetype: doc.filetype,
      snippet_text: doc.body_text.slice(0, snippetSourceChars),
    },
    fts: [
      title,
      toFtsText(doc.body_text),
      toFtsText(doc.site_name ?? ''),
      metaText({ ftsTitle: title, lang: doc.lang, filetype: doc.filetype, domain: doc.domain, crawledMs }),
    ],
  };
}

/**
 * Writes prepared pages into one database connection, every page of a call in one transaction.
 * Synchronous; runs on the writer thread, or on the caller's thread when there is none.
 */
export class PageWriter {
  readonly #db: Database.Database;
  readonly #statements;

  constructor(db: Database.Database) {
    this.#db = db;
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
    };
  }

  /** Inserts or replaces pages by id in one transaction; a replaced page gets a new rowid (newest). */
  upsert(pages: readonly PreparedPage[]): void {
    this.#db.transaction(() => {
      for (const { row, fts } of pages) {
        this.#remove(row.id);
        const { lastInsertRowid } = this.#statements.insertPage.run(row);
        this.#statements.insertFts.run(lastInsertRowid, ...fts);
      }
    })();
  }

  /** Removes pages by id in one transaction; unknown ids are ignored. */
  delete(ids: readonly string[]): void {
    this.#db.transaction(() => {
      for (const id of ids) this.#remove(id);
    })();
  }

  #remove(id: string): void {
    const rowid = this.#statements.rowidOf.get(id) as number | bigint | undefined;
    if (rowid === undefined) return;
    this.#statements.deleteFts.run(rowid);
    this.#statements.deletePage.run(rowid);
  }
}
