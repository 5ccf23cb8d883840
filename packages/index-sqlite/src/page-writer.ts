import type { PageDocument } from '@quarry/core';
import type Database from 'better-sqlite3';
import { metaText, toFtsText } from './fts-text.js';
import { reverseHost } from './schema.js';

/** A page as the writer stores it: the `pages` row and the short FTS5 columns, text already prepared. */
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
  };
  readonly fts: readonly [title: string, site: string, meta: string];
}

/**
 * Pages prepared for the writer. The two long texts of each page (the snippet source and the FTS
 * body) are UTF-8 in one buffer: it moves to the writer thread without a copy, and the writer
 * binds byte ranges of it, where converting JavaScript strings (and cloning them across threads)
 * took a tenth of the writer's time, the thread that bounds import speed.
 */
export interface PreparedBatch {
  readonly pages: readonly PreparedPage[];
  /** Page i's snippet source is `text[ends[2i - 1] ?? 0, ends[2i])`, its FTS body `text[ends[2i], ends[2i + 1])`. */
  readonly text: Uint8Array<ArrayBuffer>;
  readonly ends: Uint32Array;
}

const UTF8 = new TextEncoder();

/**
 * Prepares pages for the writer: the text analysis (`toFtsText`, `metaText`) and the UTF-8
 * encoding run here, on the caller's thread, so that the writer thread does nothing but SQLite
 * work. Keeps only the first `snippetSourceChars` of the original body (for snippets).
 */
export function prepareBatch(docs: readonly PageDocument[], snippetSourceChars: number): PreparedBatch {
  const texts: string[] = [];
  const pages = docs.map((doc) => {
    const parsedMs = Date.parse(doc.crawled_at);
    const crawledMs = Number.isNaN(parsedMs) ? 0 : parsedMs;
    const title = toFtsText(doc.title);
    texts.push(doc.body_text.slice(0, snippetSourceChars), toFtsText(doc.body_text));
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
      },
      fts: [
        title,
        toFtsText(doc.site_name ?? ''),
        metaText({ ftsTitle: title, lang: doc.lang, filetype: doc.filetype, domain: doc.domain, crawledMs }),
      ] as const,
    };
  });
  const ends = new Uint32Array(texts.length);
  let total = 0;
  texts.forEach((text, i) => {
    total += Buffer.byteLength(text, 'utf8');
    ends[i] = total;
  });
  // Its own ArrayBuffer (not a slice of Node's shared pool), so that it can be transferred.
  const bytes = new Uint8Array(total);
  texts.forEach((text, i) => {
    UTF8.encodeInto(text, bytes.subarray(i === 0 ? 0 : ends[i - 1]));
  });
  return { pages, text: bytes, ends };
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
          '@crawled_at, @crawled_ms, @published_at, @has_llms_txt, @filetype, CAST(@snippet_text AS TEXT))',
      ),
      // The long texts come as UTF-8 bytes: a cast makes them text without conversion.
      insertFts: db.prepare(
        'INSERT INTO pages_fts (rowid, title, body, site, meta) VALUES (?, ?, CAST(? AS TEXT), ?, ?)',
      ),
    };
  }

  /** Inserts or replaces pages by id in one transaction; a replaced page gets a new rowid (newest). */
  upsert({ pages, text, ends }: PreparedBatch): void {
    this.#db.transaction(() => {
      pages.forEach(({ row, fts }, i) => {
        const snippetText = text.subarray(i === 0 ? 0 : ends[2 * i - 1], ends[2 * i]);
        const body = text.subarray(ends[2 * i], ends[2 * i + 1]);
        this.#remove(row.id);
        const { lastInsertRowid } = this.#statements.insertPage.run({ ...row, snippet_text: snippetText });
        this.#statements.insertFts.run(lastInsertRowid, fts[0], body, fts[1], fts[2]);
      });
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
