import type { IndexHit, IndexQuery, IndexSearchResult } from '@quarry/core';
import { makeSnippet } from '@quarry/text';
import type Database from 'better-sqlite3';
import { type FtsPlan, planFtsQuery, quote } from './fts-query.js';
import { langToken } from './fts-text.js';

/** Tuning of the search path; see `SqliteSearchIndexOptions` for what each promises. */
export interface SearchTuning {
  readonly maxRankedCandidates: number;
  readonly maxRankedPhraseDocs: number;
  readonly langPriorityBoost: number;
  readonly titleWeight: number;
  readonly siteNameWeight: number;
}

interface PageRow {
  rowid: number;
  id: string;
  url: string;
  title: string;
  domain: string;
  site_name: string | null;
  lang: string;
  crawled_at: string;
  published_at: string | null;
  has_llms_txt: number;
  filetype: string;
  snippet_text: string;
}

const YEAR_MS = 365 * 86_400_000;
const EMPTY: IndexSearchResult = { total: 0, totalIsEstimate: false, hits: [] };

/** Runs searches against one database; statements are prepared once per query shape. */
export class Searcher {
  readonly #db: Database.Database;
  readonly #tuning: SearchTuning;
  readonly #statements = new Map<string, Database.Statement>();
  readonly #commonCache = new Map<string, { common: boolean; high: number }>();

  constructor(db: Database.Database, tuning: SearchTuning) {
    this.#db = db;
    this.#tuning = tuning;
  }

  search(query: IndexQuery): IndexSearchResult {
    // Subqueries: each aggregate is one index seek, where a combined aggregate would scan the table.
    const [latest, low, high] = this.#stmt(
      'SELECT (SELECT max(crawled_ms) FROM pages), (SELECT min(rowid) FROM pages), (SELECT max(rowid) FROM pages)',
    )
      .raw()
      .get() as [number | null, number | null, number | null];
    if (latest === null || low === null || high === null) return EMPTY;
    const bounds: Bounds = { latest, low, high };
    const plan = planFtsQuery(query, bounds.latest);
    if (plan.empty) return EMPTY;
    const limit = Math.max(this.#tuning.maxRankedCandidates, query.offset + query.limit);
    const candidates = plan.hasText
      ? this.#textCandidates(plan, bounds, limit, query.langPriority)
      : this.#recentCandidates(plan, bounds, limit, query.langPriority);
    // The soft language boost is in every candidate's score before the page is cut, so pages agree.
    const ranked = [...candidates].sort((a, b) => b.s - a.s || b.r - a.r);
    const edge = candidates.at(-1)?.k;
    const estimate = candidates.length >= limit && edge !== undefined;
    const span = plan.hasText
      ? { low: this.#firstRowidCrawledAfter(plan.crawledAfterMs) ?? low, high }
      : { low: plan.crawledAfterMs ?? this.#earliestCrawledMs(), high: latest };
    const total = estimate ? extrapolate(candidates.length, edge, span) : candidates.length;
    const page = ranked.slice(query.offset, query.offset + query.limit);
    return { total, totalIsEstimate: estimate, hits: this.#hits(page, plan) };
  }

  /**
   * Text queries: FTS5 yields the newest `limit` matches (filters joined outside it, no scoring),
   * then only those are scored. FTS5's bm25() first counts every document of every phrase to get
   * its IDF, which costs as much as the whole match list of a common word; so bm25() is asked only
   * about phrases in fewer than `maxRankedPhraseDocs` pages, and common phrases add a title bonus
   * (found through the marked title tokens, so no column filter has to decode position lists).
   *
   * The scoring passes walk their matches newest first and stop at the oldest candidate: FTS5
   * serves `rowid >= x` by stepping through every older entry of each doclist to reach x, which
   * cost more than the rest of the query for common words.
   */
  #textCandidates(plan: FtsPlan, bounds: Bounds, limit: number, langPriority: string | undefined): Candidate[] {
    const timed = plan.crawledAfterMs !== null;
    const from = timed ? 'pages_fts CROSS JOIN pages AS p ON p.rowid = pages_fts.rowid' : 'pages_fts';
    const sql =
      `SELECT pages_fts.rowid FROM ${from} ` +
      `WHERE pages_fts MATCH @match${timed ? ' AND p.crawled_ms >= @after' : ''} ` +
      'ORDER BY pages_fts.rowid DESC LIMIT @limit';
    const rowids = this.#stmt(sql)
      .pluck()
      .all({ match: plan.match, ...(timed ? { after: plan.crawledAfterMs } : {}), limit }) as number[];
    if (rowids.length === 0) return [];
    const edge = rowids.at(-1)!;
    const rare: string[] = [];
    const common: string[] = [];
    const seen = new Set<string>();
    for (const leaf of plan.positiveLeaves) {
      if (seen.has(leaf.expr)) continue;
      seen.add(leaf.expr);
      // An `intitle:` leaf matches marked title tokens: BM25 would only rank by the length of the
      // meta column (one size lookup per row inside FTS5, the heaviest pass of such queries), so it
      // takes the title bonus, like a common phrase, and its matches rank by recency among themselves.
      if (leaf.expr === leaf.title || this.#isCommon(leaf.expr, bounds)) common.push(leaf.title);
      else rare.push(leaf.expr);
    }
    const scores = new Map<number, number>();
    if (rare.length > 0) {
      const { titleWeight, siteNameWeight } = this.#tuning;
      // The meta column holds marked title tokens (what `intitle:` matches) and filter tokens,
      // which are never part of this expression: it weighs as the title.
      const title = titleWeight.toFixed(3);
      const bm25 = `bm25(pages_fts, ${title}, 1.0, ${siteNameWeight.toFixed(3)}, ${title})`;
      const scored = this.#stmt(`SELECT rowid, -${bm25} FROM pages_fts WHERE pages_fts MATCH ? ORDER BY rowid DESC`)
        .raw()
        .iterate(anyOf(rare)) as IterableIterator<[number, number]>;
      for (const [r, s] of scored) {
        if (r < edge) break;
        scores.set(r, Math.max(0, s));
      }
    }
    if (common.length > 0) {
      for (const r of this.#newestDown(anyOf(common), edge)) {
        scores.set(r, (scores.get(r) ?? 0) + COMMON_TITLE_BONUS);
      }
    }
    // Pages in the preferred language, found through their language token (no lookup per candidate).
    const preferred =
      langPriority === undefined ? null : new Set(this.#newestDown(quote(langToken(langPriority)), edge));
    const boost = this.#tuning.langPriorityBoost;
    return rowids.map((r) => {
      const s = (scores.get(r) ?? 0) + MIN_SCORE;
      return { r, k: r, s: preferred?.has(r) ? s * boost : s };
    });
  }

  /** Rowids matching an FTS5 expression, newest first, down to `edge` (inclusive). */
  *#newestDown(match: string, edge: number): Generator<number> {
    const rows = this.#stmt('SELECT rowid FROM pages_fts WHERE pages_fts MATCH ? ORDER BY rowid DESC')
      .pluck()
      .iterate(match) as IterableIterator<number>;
    for (const r of rows) {
      if (r < edge) return;
      yield r;
    }
  }

  /**
   * Whether a phrase occurs in more than `maxRankedPhraseDocs` pages, judged on the newest pages:
   * it is common when more of its matches than that share predicts fall among the newest
   * `COMMON_SAMPLE_DOCS` rowids (read newest first, so at most that many matches are walked).
   * Answers are cached until the index grows by 1%: term statistics move slowly.
   */
  #isCommon(leaf: string, { low, high }: Bounds): boolean {
    const { maxRankedPhraseDocs } = this.#tuning;
    const docs = high - low + 1;
    if (docs <= maxRankedPhraseDocs) return false;
    const cached = this.#commonCache.get(leaf);
    if (cached && high - cached.high <= docs / 100) return cached.common;
    const sample = Math.min(docs, COMMON_SAMPLE_DOCS);
    const threshold = Math.floor((maxRankedPhraseDocs * sample) / docs);
    const newest = this.#stmt('SELECT rowid FROM pages_fts WHERE pages_fts MATCH ? ORDER BY rowid DESC LIMIT ?')
      .pluck()
      .all(leaf, threshold + 1) as number[];
    const common = newest.length > threshold && newest.at(-1)! > high - sample;
    if (this.#commonCache.size >= COMMON_CACHE_ENTRIES) this.#commonCache.clear();
    this.#commonCache.set(leaf, { common, high });
    return common;
  }

  /** Filter-only queries: the newest pages first, with a positive recency score. */
  #recentCandidates(plan: FtsPlan, bounds: Bounds, limit: number, langPriority: string | undefined): Candidate[] {
    const conditions = [
      plan.match === null ? null : 'p.rowid IN (SELECT rowid FROM pages_fts WHERE pages_fts MATCH @match)',
      plan.crawledAfterMs === null ? null : 'p.crawled_ms >= @after',
    ].filter((c) => c !== null);
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const sql =
      `SELECT p.rowid AS r, p.crawled_ms AS k, p.lang AS lang, ` +
      `1.0 / (1.0 + max(0, @latest - p.crawled_ms) / ${YEAR_MS}.0) AS s ` +
      `FROM pages AS p ${where} ORDER BY p.crawled_ms DESC, p.rowid DESC LIMIT @limit`;
    const rows = this.#stmt(sql).all({
      match: plan.match,
      after: plan.crawledAfterMs,
      latest: bounds.latest,
      limit,
    }) as (Candidate & { lang: string })[];
    if (langPriority === undefined) return rows;
    const boost = this.#tuning.langPriorityBoost;
    return rows.map((c) => (c.lang === langPriority ? { ...c, s: c.s * boost } : c));
  }

  /**
   * With a crawl-time filter only the part of the index crawled since then can match; its start in
   * rowid order is taken from the earliest page crawled in range (pages are indexed as crawled).
   */
  #firstRowidCrawledAfter(afterMs: number | null): number | null {
    if (afterMs === null) return null;
    const row = this.#stmt('SELECT rowid FROM pages WHERE crawled_ms >= ? ORDER BY crawled_ms LIMIT 1')
      .raw()
      .get(afterMs) as [number] | undefined;
    return row?.[0] ?? null;
  }

  #earliestCrawledMs(): number {
    return this.#value('SELECT min(crawled_ms) FROM pages') ?? 0;
  }

  #hits(page: readonly Candidate[], plan: FtsPlan): IndexHit[] {
    if (page.length === 0) return [];
    const placeholders = page.map(() => '?').join(',');
    const rows = this.#stmt(`SELECT * FROM pages WHERE rowid IN (${placeholders})`).all(
      ...page.map((p) => p.r),
    ) as PageRow[];
    const byRowid = new Map(rows.map((row) => [row.rowid, row]));
    const clauses = plan.snippetTerms.map((text) => ({ text }));
    return page.flatMap(({ r, s: score }) => {
      const row = byRowid.get(r);
      if (!row) return [];
      return [
        {
          id: row.id,
          url: row.url,
          title: row.title,
          snippet: makeSnippet(row.snippet_text, clauses),
          domain: row.domain,
          site_name: row.site_name,
          lang: row.lang,
          score,
          has_llms_txt: row.has_llms_txt === 1,
          published_at: row.published_at,
          crawled_at: row.crawled_at,
          filetype: row.filetype,
        },
      ];
    });
  }

  #value(sql: string): number | null {
    return (this.#stmt(sql).raw().get() as [number | null])[0];
  }

  #stmt(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

interface Bounds {
  /** Newest crawl time in the index (ms). */
  readonly latest: number;
  /** Lowest and highest rowid. */
  readonly low: number;
  readonly high: number;
}

interface Candidate {
  readonly r: number;
  /** The key candidates are taken in, descending: rowid, or crawl time for filter-only queries. */
  readonly k: number;
  /** Score, the `lang_priority` boost included. */
  readonly s: number;
}

/** Pages sampled (the newest) to judge whether a phrase is common. */
const COMMON_SAMPLE_DOCS = 2000;
/** Phrases whose commonness is remembered (the cache is dropped whole when full). */
const COMMON_CACHE_ENTRIES = 4096;
/** Score added when a common phrase is in the title (BM25 scores of rare words run from ~1 to ~20). */
const COMMON_TITLE_BONUS = 1;
/** Keeps every score positive. */
const MIN_SCORE = 1e-6;

/** The OR of FTS5 expressions. */
function anyOf(exprs: readonly string[]): string {
  return exprs.map((expr) => `(${expr})`).join(' OR ');
}

/**
 * Estimates the total when counting stopped at the bound: the count walked keys from `high` down to
 * `edge`; assuming matches are spread evenly over the key range, the total is the count scaled by
 * the share of the range walked. Never below the counted number.
 */
function extrapolate(counted: number, edge: number, span: { low: number; high: number }): number {
  const whole = span.high - span.low + 1;
  const walked = span.high - edge + 1;
  if (walked <= 0 || whole <= walked) return counted;
  return Math.max(counted, Math.round((counted * whole) / walked));
}
