import type { IndexHit, IndexQuery, IndexSearchResult } from '@quarry/core';
import { makeSnippet } from '@quarry/text';
import type Database from 'better-sqlite3';
import { type FtsPlan, planFtsQuery } from './fts-query.js';

/** Tuning of the search path; see `SqliteSearchIndexOptions` for what each promises. */
export interface SearchTuning {
  readonly maxRankedCandidates: number;
  readonly exactCountLimit: number;
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

  constructor(db: Database.Database, tuning: SearchTuning) {
    this.#db = db;
    this.#tuning = tuning;
  }

  search(query: IndexQuery): IndexSearchResult {
    const bounds = this.#stmt(
      'SELECT max(crawled_ms) AS latest, min(rowid) AS low, max(rowid) AS high FROM pages',
    ).get() as {
      latest: number | null;
      low: number | null;
      high: number | null;
    };
    if (bounds.latest === null) return EMPTY;
    const plan = planFtsQuery(query, bounds.latest);
    if (plan.empty) return EMPTY;
    const params = {
      match: plan.match,
      after: plan.crawledAfterMs,
      boostLang: query.langPriority ?? null,
      boost: this.#tuning.langPriorityBoost,
      latest: bounds.latest,
      candidates: Math.max(this.#tuning.maxRankedCandidates, query.offset + query.limit),
      limit: query.limit,
      offset: query.offset,
      bound: this.#tuning.exactCountLimit,
    };
    const ranked = plan.hasText ? this.#rankedSql(plan, query) : this.#recentSql(plan);
    const page = this.#stmt(ranked.page).all(params) as { r: number; score: number }[];
    const counted = this.#stmt(ranked.count).get(params) as { n: number; edge: number | null };
    const estimate = counted.n >= params.bound && counted.edge !== null;
    const total = estimate ? extrapolate(counted.n, counted.edge!, ranked.span(bounds, plan)) : counted.n;
    return { total, totalIsEstimate: estimate, hits: this.#hits(page, plan) };
  }

  /** BM25 over the newest `maxRankedCandidates` matches; FTS5 drives, filters join outside it. */
  #rankedSql(plan: FtsPlan, query: IndexQuery): RankedSql {
    const { titleWeight, siteNameWeight } = this.#tuning;
    const joinPages = plan.crawledAfterMs !== null || query.langPriority !== undefined;
    const from = joinPages ? 'pages_fts CROSS JOIN pages AS p ON p.rowid = pages_fts.rowid' : 'pages_fts';
    const where = `pages_fts MATCH @match${plan.crawledAfterMs !== null ? ' AND p.crawled_ms >= @after' : ''}`;
    const bm25 = `bm25(pages_fts, ${titleWeight.toFixed(3)}, 1.0, ${siteNameWeight.toFixed(3)}, 0.0)`;
    const candidates =
      `SELECT pages_fts.rowid AS r, ${joinPages ? 'p.lang' : 'NULL'} AS lang, max(-${bm25}, 1e-9) AS s ` +
      `FROM ${from} WHERE ${where} ORDER BY pages_fts.rowid DESC LIMIT @candidates`;
    return {
      page: pageSql(candidates),
      count: `SELECT count(*) AS n, min(r) AS edge FROM (SELECT pages_fts.rowid AS r FROM ${from} WHERE ${where} ORDER BY pages_fts.rowid DESC LIMIT @bound)`,
      span: (bounds) => ({ low: bounds.low ?? 0, high: bounds.high ?? 0 }),
    };
  }

  /** Filter-only queries: newest pages first, with a positive recency score. */
  #recentSql(plan: FtsPlan): RankedSql {
    const conditions = [
      plan.match === null ? null : 'p.rowid IN (SELECT rowid FROM pages_fts WHERE pages_fts MATCH @match)',
      plan.crawledAfterMs === null ? null : 'p.crawled_ms >= @after',
    ].filter((c) => c !== null);
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const candidates =
      `SELECT p.rowid AS r, p.lang AS lang, 1.0 / (1.0 + max(0, @latest - p.crawled_ms) / ${YEAR_MS}.0) AS s ` +
      `FROM pages AS p ${where} ORDER BY p.crawled_ms DESC, p.rowid DESC LIMIT @candidates`;
    return {
      page: pageSql(candidates),
      count: `SELECT count(*) AS n, min(c) AS edge FROM (SELECT p.crawled_ms AS c FROM pages AS p ${where} ORDER BY p.crawled_ms DESC LIMIT @bound)`,
      span: (bounds, p) => ({ low: p.crawledAfterMs ?? this.#earliestCrawledMs(), high: bounds.latest ?? 0 }),
    };
  }

  #earliestCrawledMs(): number {
    return (this.#stmt('SELECT min(crawled_ms) AS v FROM pages').get() as { v: number | null }).v ?? 0;
  }

  #hits(page: readonly { r: number; score: number }[], plan: FtsPlan): IndexHit[] {
    if (page.length === 0) return [];
    const placeholders = page.map(() => '?').join(',');
    const rows = this.#db
      .prepare(`SELECT * FROM pages WHERE rowid IN (${placeholders})`)
      .all(...page.map((p) => p.r)) as PageRow[];
    const byRowid = new Map(rows.map((row) => [row.rowid, row]));
    const clauses = plan.snippetTerms.map((text) => ({ text }));
    return page.flatMap(({ r, score }) => {
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

  #stmt(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

interface RankedSql {
  readonly page: string;
  readonly count: string;
  /** The key range (rowid, or crawl time) the count walks from high to low when unbounded. */
  readonly span: (
    bounds: { latest: number | null; low: number | null; high: number | null },
    plan: FtsPlan,
  ) => {
    low: number;
    high: number;
  };
}

/** The soft language boost is applied to every candidate before the page is cut, so pages agree. */
function pageSql(candidates: string): string {
  return (
    'SELECT r, s * (CASE WHEN lang = @boostLang THEN @boost ELSE 1.0 END) AS score ' +
    `FROM (${candidates}) ORDER BY score DESC, r DESC LIMIT @limit OFFSET @offset`
  );
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
