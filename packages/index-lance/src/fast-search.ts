import type * as lancedb from '@lancedb/lancedb';
import type { IndexQuery, IndexSearchResult } from '@quarry/core';
import type { FastPlan, FastQuery } from './fast-plan.js';
import { and, type FtsPlan, sqlString } from './fts-query.js';
import { MIN_SCORE, rowsByRowId, toHit } from './hits.js';
import { toFastLanceQuery } from './lance-query.js';
import { COLUMNS, QUALITY_BUCKETS, SAMPLE_BUCKETS } from './rows.js';

/** With the quality prior on, the top (this × offset + limit) matches are re-ranked by it. */
const QUALITY_RERANK_DEPTH = 4;
/** Fast-plan attempts when the table's version moves between finding matches and reading them. */
const FAST_ATTEMPTS = 3;

/** Rounds of reading more matches when excluded words are checked among candidates. */
const EXCLUSION_ROUNDS = 3;

/** The pages excluded words remove, known in full (`complete`) or found among checked candidates. */
interface Exclusion {
  readonly complete: boolean;
  readonly excluded: Set<bigint>;
  readonly checked: Set<bigint>;
}

/** One match of a fast-plan query: the engine's row id (valid within one table version) and score. */
interface Match {
  readonly rowId: bigint;
  readonly score: number;
  readonly quality: number;
}

/** Row ids per `_rowid IN (...)` list. */
const ROW_ID_CHUNK = 1000;

/** Limits and weights of the fast plan; see `LanceSearchIndexOptions`. */
export interface FastSearchOptions {
  readonly maxCountedMatches: number;
  readonly maxSampledMatches: number;
  readonly maxExcludedMatches: number;
  readonly langPriorityBoost: number;
}

/** What the index knows of its current version. */
export interface VersionFacts {
  /** Pages not yet folded into the full-text indexes. */
  readonly unindexedRows: number;
  /** Pages with a quality prior below 1 (without any, the prior is left out). */
  readonly lowQualityRows: number;
}

/**
 * Runs a fast plan (`fast-plan.ts`) against the table: single engine queries that read row ids and
 * scores only, merged, re-ranked by the priors, counted, and the page's rows read by row id.
 */
export class FastSearch {
  readonly #table: lancedb.Table;
  readonly #options: FastSearchOptions;

  constructor(table: lancedb.Table, options: FastSearchOptions) {
    this.#table = table;
    this.#options = options;
  }

  /**
   * The fast plan's answer (see `fast-plan.ts`), or null when the general plan must answer: while
   * pages wait for a fold, a phrase (the engine finds none on those) or `lang_priority` (a filtered
   * query scores those pages against the filtered set, so its scores are not comparable); an excluded
   * word on too many pages; or the table's version moving under every attempt (row ids are valid
   * within one version).
   */
  async search(
    query: IndexQuery,
    general: FtsPlan,
    plan: FastPlan,
    facts: VersionFacts,
  ): Promise<IndexSearchResult | null> {
    if (facts.unindexedRows > 0) {
      if (query.langPriority !== undefined) return null;
      if (plan.alternatives.some((alternative) => alternative.kind === 'phrase')) return null;
    }
    for (let attempt = 0; attempt < FAST_ATTEMPTS; attempt++) {
      const version = await this.#table.version();
      const result = await this.#once(query, general, plan, facts.lowQualityRows > 0);
      if (result === null) return null;
      if ((await this.#table.version()) === version) return result;
    }
    return null;
  }

  async #once(
    query: IndexQuery,
    general: FtsPlan,
    plan: FastPlan,
    qualityPrior: boolean,
  ): Promise<IndexSearchResult | null> {
    const where = general.where;
    const depth = query.offset + query.limit;
    const exclusion = await this.#exclusion(plan, where);
    // Enough matches are read that `depth` remain after removing the excluded ones: all of them
    // when they are known, else more in rounds, each new candidate checked.
    const base = qualityPrior ? QUALITY_RERANK_DEPTH * depth : depth;
    let k = base + (exclusion?.complete ? exclusion.excluded.size : exclusion ? depth : 0);
    const priority =
      query.langPriority === undefined
        ? null
        : and(where ?? undefined, `${COLUMNS.lang} = ${sqlString(query.langPriority)}`);
    let lists: Match[][] = [];
    let preferred: Match[][] = [];
    for (let round = 1; ; round++) {
      [lists, preferred] = await Promise.all([
        Promise.all(plan.alternatives.map((alternative) => this.#matches(alternative, where, k, qualityPrior))),
        priority === null
          ? Promise.resolve([])
          : Promise.all(plan.alternatives.map((alternative) => this.#matches(alternative, priority, k, qualityPrior))),
      ]);
      if (!exclusion || exclusion.complete) break;
      const candidates = new Set([...lists, ...preferred].flatMap((list) => list.map((match) => match.rowId)));
      await this.#checkExclusion(plan.exclude!, exclusion, candidates);
      const left = [...candidates].filter((rowId) => !exclusion.excluded.has(rowId)).length;
      if (left >= depth || lists.every((list) => list.length < k)) break;
      if (round >= EXCLUSION_ROUNDS) return null;
      k *= 4;
    }
    const excluded = exclusion?.excluded ?? new Set<bigint>();
    // A page's score: BM25 times its quality factor, divided by the boost unless it is in the priority
    // language (those pages come back from both queries; their undivided score is the larger).
    const scores = new Map<bigint, number>();
    const add = (matches: readonly Match[], factor: number) => {
      for (const match of matches) {
        if (excluded.has(match.rowId)) continue;
        const score = match.score * factor * qualityFactor(match.quality);
        if (score > (scores.get(match.rowId) ?? Number.NEGATIVE_INFINITY)) scores.set(match.rowId, score);
      }
    };
    for (const list of lists) add(list, priority === null ? 1 : 1 / this.#options.langPriorityBoost);
    for (const list of preferred) add(list, 1);
    const ranked = [...scores].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const page = ranked.slice(query.offset, depth);
    const complete = lists.every((list) => list.length < k);
    const [rows, counted] = await Promise.all([
      // A fold committed meanwhile may have compacted these row ids away: the caller sees the
      // version move and asks again.
      rowsByRowId(
        this.#table,
        page.map(([rowId]) => rowId),
      ).catch(() => new Map<bigint, Record<string, unknown>>()),
      complete ? { total: scores.size, totalIsEstimate: false } : this.#count(plan, where, exclusion, depth),
    ]);
    const hits = page.flatMap(([rowId, score]) => {
      const row = rows.get(rowId);
      return row ? [toHit(row, Math.max(MIN_SCORE, score), general.snippetTerms)] : [];
    });
    if (hits.length !== page.length) return null;
    return { ...counted, hits };
  }

  /**
   * How many pages match a fast plan. The matches in the sample bucket are counted first (the
   * sample column's index is a sixty-fourth the size); when they stand for `maxCountedMatches` or
   * more, that is the estimate, otherwise the matches are counted exactly up to that bound, which
   * costs little when they are few.
   */
  async #count(
    plan: FastPlan,
    where: string | null,
    exclusion: Exclusion | null,
    atLeast: number,
  ): Promise<{ total: number; totalIsEstimate: boolean }> {
    const { maxCountedMatches, maxSampledMatches } = this.#options;
    const sampled = new Set<bigint>();
    const sampleable = plan.alternatives.every((alternative) => alternative.column === COLUMNS.text);
    if (sampleable) {
      const [lists, sampleExcluded] = await Promise.all([
        Promise.all(
          plan.alternatives.map((alternative) =>
            this.#matches(alternative, where, maxSampledMatches, false, COLUMNS.sample),
          ),
        ),
        // The sample's excluded pages, when they are not all known.
        exclusion && !exclusion.complete
          ? this.#matches(plan.exclude!, where, maxSampledMatches, false, COLUMNS.sample)
          : Promise.resolve([]),
      ]);
      const out = new Set(sampleExcluded.map((match) => match.rowId));
      for (const list of lists) {
        for (const match of list) {
          if (!out.has(match.rowId) && !exclusion?.excluded.has(match.rowId)) sampled.add(match.rowId);
        }
      }
      const estimate = sampled.size * SAMPLE_BUCKETS;
      if (estimate >= maxCountedMatches) return { total: Math.max(atLeast, estimate), totalIsEstimate: true };
    }
    // Matches are read past the bound by as many as are excluded (or, when those are checked among
    // candidates, up to four times the bound), so that what is left can still be counted exactly.
    const bound =
      maxCountedMatches +
      (exclusion === null ? 0 : exclusion.complete ? exclusion.excluded.size : 3 * maxCountedMatches);
    const lists = await Promise.all(
      plan.alternatives.map((alternative) => this.#matches(alternative, where, bound, false)),
    );
    const matched = new Set(lists.flatMap((list) => list.map((match) => match.rowId)));
    if (exclusion && !exclusion.complete) await this.#checkExclusion(plan.exclude!, exclusion, matched);
    for (const rowId of exclusion?.excluded ?? []) matched.delete(rowId);
    if (lists.every((list) => list.length < bound)) return { total: matched.size, totalIsEstimate: false };
    return { total: Math.max(atLeast, matched.size, sampled.size * SAMPLE_BUCKETS), totalIsEstimate: true };
  }

  /**
   * The pages an exclusion removes: every one of them when there are at most `maxExcludedMatches`
   * (one query), else none yet: candidates are then checked as they come ({@link #checkExclusion}).
   */
  async #exclusion(plan: FastPlan, where: string | null): Promise<Exclusion | null> {
    if (!plan.exclude) return null;
    const { maxExcludedMatches } = this.#options;
    const matches = await this.#matches(plan.exclude, where, maxExcludedMatches, false);
    const complete = matches.length < maxExcludedMatches;
    return { complete, excluded: new Set(complete ? matches.map((match) => match.rowId) : []), checked: new Set() };
  }

  /** Checks candidates not checked yet against the excluded words (a query over just those rows). */
  async #checkExclusion(exclude: FastQuery, exclusion: Exclusion, candidates: Iterable<bigint>): Promise<void> {
    const unchecked = [...candidates].filter((rowId) => !exclusion.checked.has(rowId));
    for (let i = 0; i < unchecked.length; i += ROW_ID_CHUNK) {
      const chunk = unchecked.slice(i, i + ROW_ID_CHUNK);
      const found = await this.#matches(exclude, `_rowid IN (${chunk.join(', ')})`, chunk.length, false);
      for (const match of found) exclusion.excluded.add(match.rowId);
      for (const rowId of chunk) exclusion.checked.add(rowId);
    }
  }

  /** The best `limit` matches of a fast-plan query: row ids and scores only (and quality when asked). */
  async #matches(
    query: FastQuery,
    where: string | null,
    limit: number,
    withQuality: boolean,
    column?: string,
  ): Promise<Match[]> {
    let q = this.#table
      .query()
      .fullTextSearch(toFastLanceQuery(query, column))
      .select(withQuality ? ['_score', 'quality'] : ['_score'])
      .withRowId()
      .limit(limit);
    if (where) q = q.where(where);
    const rows = (await q.toArray()) as Record<string, unknown>[];
    return rows.map((row) => ({
      rowId: BigInt(row._rowid as bigint),
      score: Number(row._score),
      quality: withQuality ? Number(row.quality) : 1,
    }));
  }
}

/** The score factor of a page's quality prior (1 unless it falls in a low-quality bucket). */
function qualityFactor(quality: number): number {
  return QUALITY_BUCKETS.find((bucket) => quality < bucket.below)?.factor ?? 1;
}
