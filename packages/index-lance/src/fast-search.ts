import type * as lancedb from '@lancedb/lancedb';
import { type IndexQuery, type IndexSearchResult, MAX_SEARCH_DEPTH } from '@quarry/core';
import { stemmedLanguages, stemsLanguage } from '@quarry/text';
import { exactWords, formsText, RERANK_WINDOW, rerankByForms } from './exact-forms.js';
import { type FastPlan, type FastQuery, forLanguages, isSplit, unfiltered } from './fast-plan.js';
import { type FoldedStats, type FreshMatch, FreshTier, splitTokens } from './fresh.js';
import { and, bm25Idf, type FtsPlan, priorFactor, qualityFactor, sqlString } from './fts-query.js';
import { columnOf, HIT_COLUMNS, HitRows, MIN_SCORE, readHits, toHit, utf8Of } from './hits.js';
import { toFastLanceQuery } from './lance-query.js';
import { type LanguageFilter, passesLanguages, UNSTEMMED } from './language-forms.js';
import { RowReader } from './row-reader.js';
import { COLUMNS, type PageRow, SAMPLE_BUCKETS } from './rows.js';

/** With the quality prior on, the top (this × offset + limit) matches are re-ranked by it. */
const QUALITY_RERANK_DEPTH = 4;
/**
 * How far a run of equal scores at the cut of the top matches is read at most: the same for every
 * `k` a first round asks (the re-ranked window and the page read again for exclusions, at the
 * deepest page), so that every page of one query sees the same part of an endless run.
 */
const TIE_RUN_READ = (QUALITY_RERANK_DEPTH + 1) * MAX_SEARCH_DEPTH + 1;
/** Fast-plan attempts when the table's version moves between finding matches and reading them. */
const FAST_ATTEMPTS = 3;
/**
 * What a fast-plan attempt answers when rows of its page were not found: fresh pages deleted since
 * the tier read them (forgotten now), or folded ones a commit moved; the search is made again.
 */
const AGAIN = Symbol('rows not found');
/** This process's appends remembered (see {@link FastSearch.written}): the latest versions only. */
const MAX_OWN_APPENDS = 1000;

/** A top query reads its matches' hits along when it asks for at most this many (small pages). */
const MAX_TOP_WITH_HITS = 64;
/** Rounds of reading more matches when excluded words or phrases are checked among candidates. */
const EXCLUSION_ROUNDS = 3;
/** Candidates checked for phrases on their stored text at most; more are checked by phrase queries. */
const MAX_TEXT_CHECKS = 200;

/** The pages excluded words remove, known in full (`complete`) or found among checked candidates. */
interface Exclusion {
  readonly complete: boolean;
  readonly excluded: Set<bigint>;
  readonly checked: Set<bigint>;
  /** The excluded words' matches in the sample bucket, when they were read to decide (for the count). */
  readonly sampled: Matches | null;
}

/** The matches of each alternative in the sample bucket, and those of the excluded words there. */
type SampleLists = [Matches[], readonly Match[]];

/** One match of a fast-plan query: the engine's row id (valid within one table version) and score. */
interface Match {
  readonly rowId: bigint;
  readonly score: number;
  readonly quality: number;
}

/** Pages holding a token are counted up to this many; past it, estimated from the sample (formScales). */
const EXACT_FREQUENCY_LIMIT = 2048;
/**
 * Folded pages read, once a fold, for their mean length in tokens (the fresh tier's BM25 needs it):
 * those of the first buckets (a fixed random sample), as many buckets as give about this many.
 */
const LENGTH_SAMPLE_PAGES = 256;

/** Row ids per `_rowid IN (...)` list. */
const ROW_ID_CHUNK = 1000;
/** Unfolded pages the fresh tier holds at most; past this the engine's flat scan finds them. */
const MAX_FRESH_PAGES = 20_000;
/** Pages the fresh tier reads at once when it (re)starts (about a second a thousand); more wait for the next fold. */
const MAX_FRESH_LOAD = 5000;

/** Matches as read: `full` when the engine returned as many as asked (there may be more). */
type Matches = Match[] & { readonly full: boolean };

/**
 * What a top query reads along with its matches when it asks for few (see MAX_TOP_WITH_HITS): their
 * hits, keyed `r` and the row id; and with `texts`, their stored analysed text and packed hit by
 * row id, for runs of tokens or excluded words to be checked without reading the rows again (the
 * hit of a query with runs is unpacked once its row passes them).
 */
interface Along {
  readonly hits: HitRows;
  readonly texts?: Map<bigint, StoredText>;
}

/** A candidate's analysed text (of the column its runs are looked for in) and its packed hit. */
interface StoredText {
  /** The analysed text's UTF-8 bytes (see utf8Of). */
  readonly text: Uint8Array | null;
  /** The packed hit (see HitRows). */
  readonly hit: Uint8Array;
}

/**
 * How a search treats unfolded pages: the engine's flat scan finds them (`tier` null), or the engine
 * is asked for folded pages only (`fastSearch`; those written after `watermark` are dropped, being
 * in the tier too) and the fresh tier for the others.
 */
interface View {
  readonly tier: FreshTier | null;
  readonly watermark: number;
  readonly stats: FoldedStats | null;
}

const FLAT: View = { tier: null, watermark: Number.POSITIVE_INFINITY, stats: null };

/** Limits and weights of the fast plan; see `LanceSearchIndexOptions`. */
export interface FastSearchOptions {
  readonly maxCountedMatches: number;
  readonly maxSampledMatches: number;
  readonly maxExcludedMatches: number;
  readonly langPriorityBoost: number;
  readonly freshTier: boolean;
  readonly textRerank: boolean;
}

/** What the index knows of its current version. */
export interface VersionFacts {
  /** The table version these facts are of. */
  readonly version: number;
  /** Pages not yet folded into the full-text indexes. */
  readonly unindexedRows: number;
  /** Pages with a quality prior below 1 (without any, the prior is left out). */
  readonly lowQualityRows: number;
  /** Pages in all. */
  readonly rows: number;
}

/** The pages folded into the full-text indexes at a version (the statistics' page count). */
export function foldedPages(facts: VersionFacts): number {
  return Math.max(0, facts.rows - facts.unindexedRows);
}

/** The pages not folded yet, as the fresh tier holds them (see FastSearch.freshTokens). */
export interface FreshPages {
  readonly holds: (column: string, token: string) => boolean;
  /** Pages with a higher `seq` are the tier's. */
  readonly watermark: number;
  /**
   * The tier's pages holding any of `tokens` in `column` and passing the query's filters, each
   * scored by BM25 on the folded pages' scale as the fast plan scores them; null when that cannot
   * be done (the tier has no statistics, or a fold moved it meanwhile).
   */
  readonly anyOf: (column: string, tokens: readonly string[], filters: IndexQuery) => Promise<FreshMatch[] | null>;
}

/**
 * Runs a fast plan (`fast-plan.ts`) against the table: single engine queries that read row ids and
 * scores only, merged, re-ranked by the priors, counted, and the page's rows read by row id.
 */
export class FastSearch {
  readonly #table: lancedb.Table;
  readonly #options: FastSearchOptions;
  readonly #watermark: (version: number) => number;
  readonly #typedLanguages: boolean;
  readonly #tier = new FreshTier();
  /** Pages holding a token (see #frequency): per fold watermark, by pages counted, column and token. */
  #frequencies = { watermark: Number.NaN, byToken: new Map<string, Promise<number>>() };
  /** The folded pages' mean lengths (text and title columns), per fold watermark. */
  #lengths: { readonly watermark: number; readonly value: Promise<FoldedLengths | null> } | null = null;
  /** The stemmed languages the table holds pages of (and UNSTEMMED for any other), per fold watermark. */
  #present: { readonly watermark: number; readonly found: Promise<ReadonlySet<string>> } | null = null;
  /** The fresh tier's view of the last version it was brought to, with that version's fold watermark. */
  #ready: { readonly version: number; readonly watermark: number; readonly view: View } | null = null;
  /** The version the tier is being brought to: its searches share the one sync. */
  #pending: { readonly version: number; readonly view: Promise<View> } | null = null;
  /** Versions committed by this process's writes of pages, newer than the tier's (see {@link written}). */
  readonly #ownWrites = new Set<number>();
  /** Versions committed by this process's appends of new pages only (see {@link written}). */
  readonly #ownAppends = new Set<number>();

  /**
   * @param watermark - the fold watermark at a table version: pages with a higher `seq` may not be
   *   folded in that version yet.
   * @param typedLanguages - pages of the stemmed languages other than English may hold their words
   *   as typed (the index's oldest pages predate their stems: see forLanguages).
   */
  constructor(
    table: lancedb.Table,
    options: FastSearchOptions,
    watermark: (version: number) => number,
    typedLanguages = false,
  ) {
    this.#table = table;
    this.#options = options;
    this.#watermark = watermark;
    this.#typedLanguages = typedLanguages;
  }

  /**
   * The fast plan's answer (see `fast-plan.ts`), or null when the general plan must answer: while
   * pages wait for a fold and the fresh tier cannot hold them, a phrase (the engine's scan finds none
   * on those) or `lang_priority` (a filtered query scores those pages against the filtered set, so
   * its scores are not comparable); an excluded word on too many pages; or the table's version
   * moving under every attempt (row ids are valid within one version).
   */
  async search(
    query: IndexQuery,
    general: FtsPlan,
    plan: FastPlan,
    facts: VersionFacts,
  ): Promise<IndexSearchResult | null> {
    const phrase = plan.alternatives.some((alternative) => alternative.kind === 'phrase' || hasRuns(alternative));
    for (let attempt = 0; attempt < FAST_ATTEMPTS; attempt++) {
      // The version the facts were read at, first: each look at the version is a call into the engine,
      // which waits behind its other work (up to 0.3 s while a crawl writes).
      const version = attempt === 0 ? facts.version : await this.#table.version();
      const view = facts.unindexedRows > 0 && this.#options.freshTier ? await this.#viewAt(version, facts) : FLAT;
      // The engine's scan of unfolded pages finds no phrase and scores a filtered query apart.
      if (view.tier === null && facts.unindexedRows > 0 && (phrase || query.langPriority !== undefined)) return null;
      const watermark = this.#watermark(version);
      const asked = await this.#asked(plan, view, facts, watermark, query.lang);
      const scales = this.#formScales(view, asked, watermark, foldedPages(facts));
      const result = await this.#once(view, query, general, asked, facts.lowQualityRows > 0, scales, facts.rows);
      if (result === AGAIN) continue;
      if (result === null) return null;
      // Appends of new pages move no row, so the row ids read stay valid, and with the fresh tier the
      // engine is asked for folded pages only, so the new pages are missed whole (as by any search
      // that began before a write resolved), never scored in part; anything else is read again.
      const now = await this.#table.version();
      if (now === version || (view.tier !== null && this.#onlyOwnAppends(version, now))) return result;
    }
    return null;
  }

  /**
   * The pages not folded yet, from the fresh tier brought to this version (see {@link search}):
   * whether one of them holds a token in a column, the fold watermark it holds the pages after, and
   * its matches of any of some tokens (see {@link FreshPages}). Null when the tier is off or too many
   * pages are unfolded for it.
   */
  async freshTokens(facts: VersionFacts): Promise<FreshPages | null> {
    if (facts.unindexedRows === 0 || !this.#options.freshTier) return null;
    const view = await this.#viewAt(facts.version, facts);
    const { tier, stats, watermark } = view;
    if (!tier) return null;
    return {
      holds: (column, token) => tier.holds(column, token),
      watermark,
      anyOf: async (column, tokens, filters) => {
        if (!stats) return null;
        const found = await tier.search({ kind: 'match', tokens, all: false, column }, filters, stats, null);
        // A fold taken in meanwhile moved the tier past the folded pages the search was asked with.
        return tier.watermark === watermark ? found : null;
      },
    };
  }

  /**
   * Brings the fresh tier to the facts' version (the table's, just read), as a search would (see
   * {@link search}), and resolves once it holds that version's pages: after a write, so that
   * searches need not wait for it (reading a write's pages and indexing them takes 10–30 ms).
   */
  async prepare(facts: VersionFacts): Promise<void> {
    if (facts.unindexedRows === 0 || !this.#options.freshTier) return;
    await this.#brought(facts.version, facts);
  }

  /**
   * Records that a write of this process committed table version `version` (pages added or
   * replaced), which {@link prepare} then brings the tier to before the write resolves. `appended`:
   * the write only added new pages (no row moved or removed), so a search that read the version
   * before it need not be made again (a crawl commits such versions several times a second, and a
   * tenth of the searches made while it ran were made twice or more, some giving up on the fast plan).
   */
  written(version: number, appended = false): void {
    if (this.#options.freshTier) this.#ownWrites.add(version);
    if (!appended) return;
    this.#ownAppends.add(version);
    if (this.#ownAppends.size > MAX_OWN_APPENDS) {
      const oldest = this.#ownAppends.values().next().value;
      if (oldest !== undefined) this.#ownAppends.delete(oldest);
    }
  }

  /**
   * The rows of a write of this process's that committed (as stored), which {@link prepare} then
   * takes into the tier without reading them back (see FreshTier.wrote).
   */
  wrote(rows: readonly PageRow[]): void {
    if (this.#options.freshTier) this.#tier.wrote(rows);
  }

  /** Forgets pages this process deleted (see FreshTier.forget), once the delete has committed. */
  deleted(ids: readonly string[]): void {
    this.#tier.forget(ids);
  }

  /** Whether every version after `from` up to `to` was committed by this process's appends. */
  #onlyOwnAppends(from: number, to: number): boolean {
    if (to < from || to - from > MAX_OWN_APPENDS) return false;
    for (let version = from + 1; version <= to; version++) if (!this.#ownAppends.has(version)) return false;
    return true;
  }

  /**
   * The view a search of this version uses: the tier brought to it, or, while it takes in pages
   * that only this process's unresolved writes added (no fold, no other commit between), the view
   * before them: a search that began before a write resolved may miss its pages, never those of a
   * write that had resolved (LanceSearchIndex's upsert waits for {@link prepare}). A version moved
   * by another process's commit is waited for: that write resolved in its own process, perhaps
   * long before this one looked (it sees other commits only when it reads, once per read-consistency
   * interval), so the view before it would miss pages for as long as no search came to bring it.
   */
  #viewAt(version: number, facts: VersionFacts): Promise<View> {
    const ready = this.#ready;
    if (ready?.version === version) return Promise.resolve(ready.view);
    const brought = this.#brought(version, facts);
    const ownOnly =
      ready !== null &&
      ready.version < version &&
      ready.watermark === this.#watermark(version) &&
      this.#onlyOwnWrites(ready.version, version);
    return ownOnly ? Promise.resolve(ready.view) : brought;
  }

  /** Whether every version after `from` up to `to` was committed by this process's writes. */
  #onlyOwnWrites(from: number, to: number): boolean {
    for (let version = from + 1; version <= to; version++) if (!this.#ownWrites.has(version)) return false;
    return true;
  }

  /** The tier brought to this version: one version at a time, each once for all its searches. */
  #brought(version: number, facts: VersionFacts): Promise<View> {
    const pending = this.#pending;
    if (pending?.version === version) return pending.view;
    const view = (pending?.view ?? Promise.resolve(FLAT))
      .catch(() => FLAT)
      .then(async () => {
        const brought = await this.#bring(version, facts);
        this.#ready = brought.tier ? { version, watermark: brought.watermark, view: brought } : null;
        for (const own of this.#ownWrites) if (own <= version) this.#ownWrites.delete(own);
        return brought;
      });
    this.#pending = { version, view };
    // A failed sync is tried again by the next search of the version.
    view.catch(() => {
      if (this.#pending?.view === view) this.#pending = null;
    });
    return view;
  }

  /** The fresh tier brought to this version, or the flat scan when too many pages are unfolded. */
  async #bring(version: number, facts: VersionFacts): Promise<View> {
    const watermark = this.#watermark(version);
    if (
      !(await this.#tier.sync(this.#table, version, watermark, { maxPages: MAX_FRESH_PAGES, maxLoad: MAX_FRESH_LOAD }))
    ) {
      return FLAT;
    }
    if (this.#frequencies.watermark !== watermark) this.#frequencies = { watermark, byToken: new Map() };
    const tier = this.#tier;
    const folded = foldedPages(facts);
    const lengths = this.#foldedLengths(watermark, folded);
    const stats: FoldedStats = {
      pages: folded,
      averageLength: async (column) => {
        const found = await lengths;
        return found === null ? null : column === COLUMNS.title ? found.title : found.text;
      },
      documentFrequency: (token, column) => this.#frequency({ tier, watermark, stats: null }, column, token),
    };
    return { tier, watermark: tier.watermark, stats };
  }

  /**
   * The plan as this index is asked it. Optional words are asked of English pages, of the others,
   * and of each stemmed language with stems of its own, apart (see fast-plan.ts), and a language's
   * stems of required words of its pages only: parts whose languages have no page in the index
   * (folded, or in the fresh tier) are left out, and a part left alone is asked of every page (an
   * index of English pages only is asked as before there were other languages). The scan of
   * unfolded pages would score each part apart: every form is then asked of every page. A search
   * filtered to one language (`lang`) asks that language's part only.
   */
  async #asked(
    plan: FastPlan,
    view: View,
    facts: VersionFacts,
    watermark: number,
    lang: string | undefined,
  ): Promise<FastPlan> {
    if (!plan.alternatives.some((alternative) => alternative.languages) && !plan.excludedByLanguage) return plan;
    if (view.tier === null && facts.unindexedRows > 0) return unfiltered(plan);
    const present = new Set(await this.#languages(watermark));
    for (const held of view.tier?.languages() ?? []) present.add(stemsLanguage(held) ? held : UNSTEMMED);
    const filtered = lang === undefined ? null : stemsLanguage(lang) ? lang : UNSTEMMED;
    const asked = filtered === null ? present : new Set(present.has(filtered) ? [filtered] : []);
    return forLanguages(plan, asked, this.#typedLanguages);
  }

  /**
   * The factor of each alternative's scores (1 each unless the plan asks a word's forms apart, see
   * FastPlan's `forms`). English pages are indexed by stems, every other page as typed or by its own
   * language's stems, so in one shared index the typed form of an English word (`computing`) is
   * rare: only the other languages' pages hold it, and the engine's BM25 gives it a large IDF. A
   * German page mentioning `Cloud Computing` then outranked every English page about computing.
   * Every list is brought to the IDF of the word itself, from the pages holding any of its forms:
   * each is multiplied by Σ idf(pages holding any form) / Σ idf(its own form) over the query's
   * tokens (the same for a token all forms share). A factor for the whole list keeps its order, so
   * its top matches stay exact; within a page of several words it is exact when their
   * term-frequency parts are alike (one word: always).
   */
  async #formScales(view: View, plan: FastPlan, watermark: number, pages: number): Promise<readonly number[]> {
    const forms = plan.forms;
    const column = plan.alternatives[0]?.column;
    if (!forms || plan.alternatives.length < 2 || column === undefined || pages === 0) return [];
    if (this.#frequencies.watermark !== watermark) this.#frequencies = { watermark, byToken: new Map() };
    const frequency = (token: string) => this.#frequency(view, column, token);
    const counted = await Promise.all(
      forms.map(async (of) => {
        const distinct = [...new Set(of)];
        const counts = await Promise.all(distinct.map(frequency));
        const byForm = new Map(distinct.map((token, i) => [token, counts[i]!]));
        return { own: of.map((token) => byForm.get(token) ?? 0), any: counts.reduce((a, b) => a + b, 0) };
      }),
    ).catch(() => null);
    if (counted === null) return [];
    const any = counted.reduce((total, c) => total + bm25Idf(c.any, pages), 0);
    const own = plan.alternatives.map((_, i) => counted.reduce((total, c) => total + bm25Idf(c.own[i] ?? 0, pages), 0));
    if (!(any > 0 && own.every((sum) => sum > 0))) return [];
    return own.map((sum) => any / sum);
  }

  /**
   * Folded pages holding each `[column, token]` (see {@link #formFrequency}), keyed `column token`:
   * for the general plan's weights of words of two forms (fts-query.ts, weighForms). Unfolded
   * pages are scanned (the general plan scans them too).
   */
  async formFrequencies(
    wanted: readonly (readonly [column: string, token: string])[],
  ): Promise<ReadonlyMap<string, number>> {
    const watermark = this.#watermark(await this.#table.version());
    if (this.#frequencies.watermark !== watermark) this.#frequencies = { watermark, byToken: new Map() };
    const counted = await Promise.all(wanted.map(([column, token]) => this.#frequency(FLAT, column, token)));
    return new Map(wanted.map(([column, token], i) => [`${column} ${token}`, counted[i]!]));
  }

  /**
   * The folded pages' mean lengths in tokens, from about {@link LENGTH_SAMPLE_PAGES} of them (every
   * one in a small index), once a fold; null when none is folded or the read fails. The fresh tier
   * took its own pages' mean for it: a tier of short pages made every page of it look long.
   */
  #foldedLengths(watermark: number, folded: number): Promise<FoldedLengths | null> {
    if (this.#lengths?.watermark !== watermark) {
      const buckets = Math.min(SAMPLE_BUCKETS, Math.ceil((LENGTH_SAMPLE_PAGES * SAMPLE_BUCKETS) / Math.max(1, folded)));
      const value =
        folded === 0 || !Number.isFinite(watermark)
          ? Promise.resolve(null)
          : this.#table
              .query()
              .where(`${COLUMNS.bucket} < ${buckets} AND ${COLUMNS.seq} <= ${watermark}`)
              .select([COLUMNS.text, COLUMNS.title])
              .limit(2 * LENGTH_SAMPLE_PAGES)
              .toArray()
              .then((rows) => (rows.length === 0 ? null : meanLengths(rows)))
              .catch(() => null);
      this.#lengths = { watermark, value };
    }
    return this.#lengths.value;
  }

  /**
   * The stemmed languages the table holds pages of, now, and UNSTEMMED (see language-forms.ts) when
   * it holds a page of any other (read once a fold).
   */
  async languages(): Promise<ReadonlySet<string>> {
    return this.#languages(this.#watermark(await this.#table.version()));
  }

  /**
   * The stemmed languages the table holds pages of, and {@link UNSTEMMED} when it holds a page of any
   * other; asked once a fold (a bitmap index answers each language). Unknown (a failed read): every
   * language, whose parts are then asked apart, which is right either way.
   */
  #languages(watermark: number): Promise<ReadonlySet<string>> {
    if (this.#present?.watermark !== watermark) {
      const holds = (filter: LanguageFilter) =>
        this.#table
          .query()
          .where(languageFilterSql(filter)!)
          .select([COLUMNS.lang])
          .limit(1)
          .toArray()
          .then((rows) => rows.length > 0);
      const languages = stemmedLanguages();
      const found = Promise.all([
        ...languages.map((lang) => holds({ only: [lang] })),
        holds({ except: languages }),
      ]).then(
        (held) => new Set([...languages, UNSTEMMED].filter((_, i) => held[i])),
        () => new Set([...languages, UNSTEMMED]),
      );
      this.#present = { watermark, found };
    }
    return this.#present.found;
  }

  /**
   * Pages of `view` holding a token in `column` (see {@link #pagesHolding}): for the fresh tier's
   * BM25 and the weights of a word's two forms (only `intitle:` words of two forms are counted in
   * titles). Kept until the next fold.
   */
  #frequency(view: View, column: string, token: string): Promise<number> {
    // Counted among folded pages (with the fresh tier) or among all of them (the flat scan): apart.
    const key = `${view.tier ? 'folded' : 'all'} ${column} ${token}`;
    return cached(this.#frequencies.byToken, key, () => this.#pagesHolding(view, column, token));
  }

  /**
   * Pages of `view` holding a token in `column`: counted when they are few (at most
   * {@link EXACT_FREQUENCY_LIMIT}), else estimated from the sample column (its matches times 64). A
   * sample of a small index holds too few pages to estimate from: a word on 30 of 300 pages was
   * estimated at 0 or 64, and the fresh tier scored an unfolded page up to twice its folded score.
   * The title column has no sample: a count there stops at the limit, which makes a common title
   * word look rarer than it is.
   */
  async #pagesHolding(view: View, column: string, token: string): Promise<number> {
    const query: FastQuery = { kind: 'match', tokens: [token], all: true, column };
    const sample =
      column === COLUMNS.text
        ? await this.#matches(view, query, null, this.#options.maxSampledMatches, false, COLUMNS.sample)
        : null;
    if (sample !== null && sample.length * SAMPLE_BUCKETS > EXACT_FREQUENCY_LIMIT)
      return sample.length * SAMPLE_BUCKETS;
    const matches = await this.#matches(view, query, null, EXACT_FREQUENCY_LIMIT, false);
    return matches.full && sample !== null ? Math.max(matches.length, sample.length * SAMPLE_BUCKETS) : matches.length;
  }

  async #once(
    view: View,
    query: IndexQuery,
    general: FtsPlan,
    plan: FastPlan,
    qualityPrior: boolean,
    formScales: Promise<readonly number[]>,
    pages: number,
  ): Promise<IndexSearchResult | typeof AGAIN | null> {
    const where = general.where;
    const depth = query.offset + query.limit;
    // Which pages the excluded words remove is decided while the first round of top matches is read.
    const excluding = this.#exclusion(view, plan, where);
    // The matches in the sample bucket, for the count, read beside the top matches: most queries
    // either have few matches (the top query reads them all) or many (the sample estimates them).
    // The parts of a plan split by language together match what their one query matches: it counts.
    // (When the exclusion fails, the search fails below: never an unhandled rejection here.)
    // A run of LONG_RUN_TOKENS or more words is on few pages: its sample is read only when the top
    // matches show more than they read (most often they hold every match, and the count is theirs).
    const countedPlan = isSplit(plan) ? unfiltered(plan) : plan;
    const readSample = () =>
      excluding.then(
        (exclusion) => this.#sampleLists(view, countedPlan, where, exclusion),
        () => null,
      );
    let sampled = asksLongRuns(plan) ? null : readSample();
    const sample = () => (sampled ??= readSample());
    // Enough matches are read that the page and the window re-ranked by word forms (the same
    // whatever page is asked for, see exact-forms.ts) remain after removing those missing a phrase
    // and the excluded ones not known in advance (more in rounds, each new candidate checked), and
    // `base` after removing the excluded ones known in advance. The best matches are re-ranked by
    // the priors and by word forms: more than the page are read.
    const words = this.#options.textRerank ? exactWords(query) : [];
    const window = Math.max(depth, words.length > 0 ? RERANK_WINDOW : 0);
    const base = (qualityPrior ? QUALITY_RERANK_DEPTH : 1) * window;
    const runs = plan.alternatives.some(hasRuns);
    let k = base + (plan.exclude || runs ? depth : 0);
    const priority =
      query.langPriority === undefined
        ? null
        : and(where ?? undefined, `${COLUMNS.lang} = ${sqlString(query.langPriority)}`);
    const runChecks = plan.alternatives.map(() => new Map<bigint, boolean>());
    // The alternatives' phrase candidates are read from their stored text together.
    const reader = new RowReader(this.#table);
    // The hits of candidates, read while checking their phrases and for the word forms: keyed as in
    // `scores` below; they serve the page too.
    const rows = new HitRows();
    // The text of phrase candidates read along with them (by row id), for their runs.
    const texts = new Map<bigint, StoredText>();
    let lists: Matches[] = [];
    let preferred: Matches[] = [];
    let exclusion: Exclusion | null = null;
    for (let round = 1; ; round++) {
      // The first round's top matches bring their hits along (see MAX_TOP_WITH_HITS), or their
      // text to check their runs in, unless the page is made of titles, whose ties are read on past
      // the cut.
      const hitsAlong = round === 1 && plan.alternatives.every((a) => a.column === COLUMNS.text);
      const along = (alternative: FastQuery): Along | undefined =>
        hitsAlong ? { hits: rows, ...(hasRuns(alternative) || plan.exclude ? { texts } : {}) } : undefined;
      [lists, preferred, exclusion] = await Promise.all([
        Promise.all(
          plan.alternatives.map((alternative) =>
            this.#top(view, alternative, where, k, qualityPrior, along(alternative)),
          ),
        ),
        priority === null
          ? Promise.resolve([])
          : Promise.all(
              plan.alternatives.map((alternative) =>
                this.#top(view, alternative, priority, k, qualityPrior, along(alternative)),
              ),
            ),
        excluding,
      ]);
      if (!exclusion && !runs) break;
      if (runs) {
        [lists, preferred] = await Promise.all([
          Promise.all(
            lists.map((list, i) => this.#withRuns(plan.alternatives[i]!, list, runChecks[i]!, reader, rows, texts)),
          ),
          Promise.all(
            preferred.map((list, i) => this.#withRuns(plan.alternatives[i]!, list, runChecks[i]!, reader, rows, texts)),
          ),
        ]);
      }
      const candidates = new Set([...lists, ...preferred].flatMap((list) => list.map((match) => match.rowId)));
      if (exclusion && !exclusion.complete) {
        await this.#checkExclusion(view, plan.exclude!, exclusion, candidates, texts);
      }
      const left = [...candidates].filter((rowId) => !exclusion?.excluded.has(rowId)).length;
      const enough = exclusion?.complete && !runs ? base : window;
      if (left >= enough || lists.every((list) => !list.full)) break;
      // (The first round read before the excluded words were known does not count.)
      if (round >= EXCLUSION_ROUNDS + (plan.exclude ? 1 : 0)) return null;
      // Excluded pages known in advance: at most all of them are among the best matches.
      k = exclusion?.complete ? Math.max(4 * k, base + exclusion.excluded.size) : 4 * k;
    }
    const excluded = exclusion?.excluded ?? new Set<bigint>();
    const [fresh, scales] = await Promise.all([this.#fresh(view, query, plan, formScales), formScales]);
    // A page's score: BM25 times its quality factor, divided by the boost unless it is in the priority
    // language (those pages come back from both queries; their undivided score is the larger). Keys:
    // `r` and the row id for a folded page, `i` and the id for a page of the fresh tier.
    const scores = new Map<string, number>();
    const put = (key: string, score: number) => {
      if (score > (scores.get(key) ?? Number.NEGATIVE_INFINITY)) scores.set(key, score);
    };
    const boost = this.#options.langPriorityBoost;
    const add = (matches: readonly Match[], factor: number) => {
      for (const match of matches) {
        if (!excluded.has(match.rowId)) put(`r${match.rowId}`, match.score * factor * qualityFactor(match.quality));
      }
    };
    for (const [i, list] of lists.entries()) add(list, (scales[i] ?? 1) * (priority === null ? 1 : 1 / boost));
    for (const [i, list] of preferred.entries()) add(list, scales[i] ?? 1);
    for (const match of fresh.values()) {
      put(`i${match.id}`, match.score * priorFactor(match, query.langPriority, this.#options, qualityPrior));
    }
    const complete = lists.every((list) => !list.full);
    // The count does not depend on the page: it runs while the page is ranked and read.
    const counting = complete
      ? Promise.resolve({ total: scores.size, totalIsEstimate: false })
      : this.#count(view, countedPlan, where, exclusion, depth, sample, pages).then((count) => ({
          ...count,
          // An estimate for the folded pages, plus the fresh ones: never more than the index holds.
          total: count.totalIsEstimate
            ? Math.max(Math.min(count.total + fresh.size, pages), scores.size)
            : count.total + fresh.size,
        }));
    counting.catch(() => undefined);
    const byScore = (a: Scored, b: Scored) => b.score - a.score || compareKeys(a.key, b.key);
    const ranked = await rerankByForms(
      [...scores].map(([key, score]) => ({ key, score })).sort(byScore),
      words,
      async (candidates) => {
        const keys = candidates.map((candidate) => candidate.key);
        await this.#readRows(
          keys.filter((key) => !rows.has(key)),
          rows,
          fresh,
        );
        return keys.map((key) => formsText(rows.get(key)));
      },
      (a, b) => compareKeys(a.key, b.key),
    );
    const page = ranked.slice(query.offset, depth);
    await this.#readRows(
      page.map(({ key }) => key).filter((key) => !rows.has(key)),
      rows,
      fresh,
    );
    const counted = await counting;
    const hits = page.flatMap(({ key, score }) => {
      const row = rows.get(key);
      return row ? [toHit(row, Math.max(MIN_SCORE, score), general)] : [];
    });
    if (hits.length !== page.length) {
      // A fresh page deleted since the tier read it (a duplicate's removal, a page gone from its
      // site) is found neither by its row id nor by its id: before, every search it ranked in gave
      // up on this plan until the next fold (0.3–1 s each during a crawl).
      const gone = page.filter(({ key }) => key.startsWith('i') && !rows.has(key)).map(({ key }) => key.slice(1));
      view.tier?.forget(gone);
      return AGAIN;
    }
    return { ...counted, hits };
  }

  /**
   * Reads the hit columns of these candidates (keys as in `#once`) into `into`; a fresh page's by
   * the row id the tier read it with (`fresh`, by id). A fold committed meanwhile may have compacted
   * a folded page's row id away: those rows are missing, the caller sees the version move and asks
   * again.
   */
  async #readRows(keys: readonly string[], into: HitRows, fresh: ReadonlyMap<string, FreshMatch>): Promise<void> {
    if (keys.length === 0) return;
    const rowIds = keys.filter((key) => key.startsWith('r')).map((key) => BigInt(key.slice(1)));
    const freshRowIds = new Map<string, bigint>();
    for (const key of keys) {
      const match = key.startsWith('i') ? fresh.get(key.slice(1)) : undefined;
      if (match) freshRowIds.set(match.id, match.rowId);
    }
    const { byRowId, byId } = await readHits(this.#table, rowIds, freshRowIds);
    for (const [rowId, row] of byRowId) into.set(`r${rowId}`, row);
    for (const [id, row] of byId) into.set(`i${id}`, row);
  }

  /** The fresh tier's matches of every alternative, by id (the best score where several match). */
  async #fresh(
    view: View,
    query: IndexQuery,
    plan: FastPlan,
    formScales: Promise<readonly number[]>,
  ): Promise<Map<string, FreshMatch>> {
    const matches = new Map<string, FreshMatch>();
    if (!view.tier || !view.stats) return matches;
    const scales = await formScales;
    for (const [i, alternative] of plan.alternatives.entries()) {
      const scale = scales[i] ?? 1;
      for (const found of await view.tier.search(alternative, query, view.stats, plan.exclude)) {
        if (!passesLanguages(found.lang, alternative.languages)) continue;
        const match = scale === 1 ? found : { ...found, score: found.score * scale };
        const known = matches.get(match.id);
        if (!known || match.score > known.score) matches.set(match.id, match);
      }
    }
    return matches;
  }

  /**
   * How many pages match a fast plan. The matches in the sample bucket (`sample`, read beside the
   * top matches; the sample column's index is a sixty-fourth the size) are counted first; when they
   * stand for `maxCountedMatches` or more, that is the estimate (at most the index's `pages`), otherwise the matches are counted exactly up to that bound, which
   * costs little when they are few.
   */
  async #count(
    view: View,
    plan: FastPlan,
    where: string | null,
    exclusion: Exclusion | null,
    atLeast: number,
    sample: () => Promise<SampleLists | null>,
    pages: number,
  ): Promise<{ total: number; totalIsEstimate: boolean }> {
    const { maxCountedMatches } = this.#options;
    // The sample stands for its share of the pages; scaled up, it never stands for more than all.
    const sampled = new Set<bigint>();
    const sampleLists = await sample();
    if (sampleLists !== null) {
      const [positives, sampleExcluded] = sampleLists;
      const out = new Set(sampleExcluded.map((match) => match.rowId));
      for (const list of positives) {
        for (const match of list) {
          if (!out.has(match.rowId) && !exclusion?.excluded.has(match.rowId)) sampled.add(match.rowId);
        }
      }
      const estimate = Math.min(sampled.size * SAMPLE_BUCKETS, pages);
      if (estimate >= maxCountedMatches) return { total: Math.max(atLeast, estimate), totalIsEstimate: true };
    }
    // Matches are read past the bound by as many as are excluded (or, when those are checked among
    // candidates, up to four times the bound), so that what is left can still be counted exactly.
    const bound =
      maxCountedMatches +
      (exclusion === null ? 0 : exclusion.complete ? exclusion.excluded.size : 3 * maxCountedMatches);
    const reader = new RowReader(this.#table);
    const lists = await Promise.all(
      plan.alternatives.map(async (alternative) =>
        this.#withRuns(alternative, await this.#matches(view, alternative, where, bound, false), new Map(), reader),
      ),
    );
    const matched = new Set(lists.flatMap((list) => list.map((match) => match.rowId)));
    if (exclusion && !exclusion.complete) await this.#checkExclusion(view, plan.exclude!, exclusion, matched);
    for (const rowId of exclusion?.excluded ?? []) matched.delete(rowId);
    if (lists.every((list) => !list.full)) return { total: matched.size, totalIsEstimate: false };
    return {
      total: Math.max(atLeast, matched.size, Math.min(sampled.size * SAMPLE_BUCKETS, pages)),
      totalIsEstimate: true,
    };
  }

  /**
   * Each alternative's matches in the sample bucket, and the excluded words' there when not all
   * excluded pages are known; null when the query is not on the sampled column (or failed: the
   * count then reads the matches themselves).
   */
  #sampleLists(
    view: View,
    plan: FastPlan,
    where: string | null,
    exclusion: Exclusion | null,
  ): Promise<SampleLists | null> {
    if (!plan.alternatives.every((alternative) => alternative.column === COLUMNS.text)) return Promise.resolve(null);
    const { maxSampledMatches } = this.#options;
    return Promise.all([
      Promise.all(
        plan.alternatives.map((alternative) => this.#sampleMatches(view, alternative, where, maxSampledMatches)),
      ),
      // Read already when the exclusion was decided.
      exclusion && !exclusion.complete
        ? (exclusion.sampled ?? this.#matches(view, plan.exclude!, where, maxSampledMatches, false, COLUMNS.sample))
        : Promise.resolve([]),
    ]).catch(() => null);
  }

  /**
   * An alternative's matches in the sample bucket. With phrases beside its words: the pages matching
   * every token that also match each phrase there (both read from the small sample index, rather
   * than checking hundreds of candidates).
   */
  async #sampleMatches(view: View, query: FastQuery, where: string | null, limit: number): Promise<Matches> {
    const runs = query.phrases ?? [];
    const [matches, ...phrases] = await Promise.all([
      this.#matches(view, query, where, limit, false, COLUMNS.sample),
      ...runs.map((tokens) =>
        this.#matches(
          view,
          { kind: 'phrase', tokens, all: true, column: query.column },
          where,
          limit,
          false,
          COLUMNS.sample,
        ),
      ),
    ]);
    if (phrases.length === 0) return matches!;
    const holding = phrases.map((list) => new Set(list.map((match) => match.rowId)));
    return Object.assign(
      matches!.filter((match) => holding.every((set) => set.has(match.rowId))),
      { full: matches!.full || phrases.some((list) => list.full) },
    );
  }

  /**
   * The pages an exclusion removes: every one of them when there are at most `maxExcludedMatches`
   * (one query), else none yet: candidates are then checked as they come ({@link #checkExclusion}).
   * Which of the two is decided first on the sample bucket (a sixty-fourth the size): reading
   * `maxExcludedMatches` matches of a common word only to find there are more costs more than the
   * rest of the query, and the sample's matches serve the count.
   */
  async #exclusion(view: View, plan: FastPlan, where: string | null): Promise<Exclusion | null> {
    if (!plan.exclude) return null;
    const { maxExcludedMatches, maxSampledMatches } = this.#options;
    const sampled = await this.#matches(view, plan.exclude, where, maxSampledMatches, false, COLUMNS.sample);
    if (sampled.full || sampled.length * SAMPLE_BUCKETS > maxExcludedMatches) {
      return { complete: false, excluded: new Set(), checked: new Set(), sampled };
    }
    const matches = await this.#matches(view, plan.exclude, where, maxExcludedMatches, false);
    const complete = !matches.full;
    return {
      complete,
      excluded: new Set(complete ? matches.map((match) => match.rowId) : []),
      checked: new Set(),
      sampled,
    };
  }

  /**
   * The matches of `list` that hold every run of tokens of the query in a row (all of them when it
   * has none), keeping the list's `full`. Candidates not in `checked` yet are looked at on their
   * stored analysed text: the text read along with them (`texts`, see {@link Along}), else read by
   * row id (the cost grows with the candidates, not the corpus) when they are few, else with one
   * phrase query per run over just their rows. With `hits`, the hits of the candidates looked at on
   * their text that pass are unpacked or read with it, into `hits` (keyed `r` and the row id).
   */
  async #withRuns(
    query: FastQuery,
    list: Matches,
    checked: Map<bigint, boolean>,
    reader: RowReader,
    hits?: HitRows,
    texts?: ReadonlyMap<bigint, StoredText>,
  ): Promise<Matches> {
    const runs = query.phrases ?? [];
    if (runs.length === 0) return list;
    const needles = runs.map(needleOf);
    const unchecked: bigint[] = [];
    for (const { rowId } of list) {
      if (checked.has(rowId)) continue;
      const stored = texts?.get(rowId);
      if (stored === undefined) {
        unchecked.push(rowId);
        continue;
      }
      const passes = needles.every(inText(stored.text));
      checked.set(rowId, passes);
      if (passes && hits) hits.setPacked(`r${rowId}`, stored.hit);
    }
    for (let i = 0; i < unchecked.length; i += ROW_ID_CHUNK) {
      const chunk = unchecked.slice(i, i + ROW_ID_CHUNK);
      const passing =
        chunk.length <= MAX_TEXT_CHECKS
          ? await this.#runsInText(query, needles, chunk, reader, hits).catch(() =>
              this.#runsByPhrase(runs, chunk, query.column),
            )
          : await this.#runsByPhrase(runs, chunk, query.column);
      for (const rowId of chunk) checked.set(rowId, passing.has(rowId));
    }
    return Object.assign(
      list.filter((match) => checked.get(match.rowId) === true),
      { full: list.full },
    );
  }

  /**
   * The rows holding every run, found in their stored analysed text (title column for `intitle:`);
   * with `hits`, the hits of those rows are read too, into `hits`.
   */
  async #runsInText(
    query: FastQuery,
    needles: readonly Buffer[],
    rowIds: bigint[],
    reader: RowReader,
    hits?: HitRows,
  ): Promise<Set<bigint>> {
    const column = textColumnOf(query);
    const found = await reader.read(rowIds, hits ? [column, ...HIT_COLUMNS] : [column]);
    const [ids, texts] = [columnOf<bigint>(found, '_rowid'), utf8Of(found, column)];
    const stored = hits ? utf8Of(found, COLUMNS.hit) : null;
    // The answer may hold rows other reads of the same tick asked for.
    const wanted = new Set(rowIds);
    const passing = new Set<bigint>();
    for (let i = 0; i < found.numRows; i++) {
      if (!wanted.has(ids[i]!)) continue;
      if (!needles.every(inText(texts[i] ?? null))) continue;
      passing.add(ids[i]!);
      if (stored?.[i]) hits!.setPacked(`r${ids[i]}`, stored[i]!);
    }
    return passing;
  }

  /** The rows holding every run, found by phrase queries over just those rows. */
  async #runsByPhrase(runs: readonly (readonly string[])[], rowIds: bigint[], column: string): Promise<Set<bigint>> {
    let passing = new Set(rowIds);
    for (const run of runs) {
      const found = await this.#table
        .query()
        .fullTextSearch(toFastLanceQuery({ kind: 'phrase', tokens: run, all: true, column }))
        // The candidates are folded pages (unfolded ones are the fresh tier's).
        .fastSearch()
        .where(`_rowid IN (${[...passing].join(', ')})`)
        .select(['_score'])
        .withRowId()
        .limit(passing.size)
        .toArrow();
      passing = new Set(Array.from(columnOf<bigint>(found, '_rowid')));
      if (passing.size === 0) break;
    }
    return passing;
  }

  /** Checks candidates not checked yet against the excluded words (a query over just those rows). */
  async #checkExclusion(
    view: View,
    exclude: FastQuery,
    exclusion: Exclusion,
    candidates: Iterable<bigint>,
    texts?: ReadonlyMap<bigint, StoredText>,
  ): Promise<void> {
    const needles = exclude.tokens.map((token) => needleOf([token]));
    const unchecked: bigint[] = [];
    for (const rowId of candidates) {
      if (exclusion.checked.has(rowId)) continue;
      const stored = texts?.get(rowId);
      if (stored === undefined) {
        unchecked.push(rowId);
        continue;
      }
      // Read along with the candidate: its text holds an excluded word or not.
      if (needles.some(inText(stored.text))) exclusion.excluded.add(rowId);
      exclusion.checked.add(rowId);
    }
    for (let i = 0; i < unchecked.length; i += ROW_ID_CHUNK) {
      const chunk = unchecked.slice(i, i + ROW_ID_CHUNK);
      const found = await this.#matches(view, exclude, `_rowid IN (${chunk.join(', ')})`, chunk.length, false);
      for (const match of found) exclusion.excluded.add(match.rowId);
      for (const rowId of chunk) exclusion.checked.add(rowId);
    }
  }

  /**
   * The best `k` matches of a fast-plan query (see {@link #matches}), the same on every search. When
   * the engine's cut falls inside a run of equal scores it returns any of the tied pages there
   * (another set from one search to the next), and the page, where ties are broken by row id, would
   * change with it (`intitle:` words on short titles tie by the dozen). The matches are then read on,
   * four times as far each time, until the whole run is in, and the `k` best by score and row id are
   * kept. A run longer than that read (up to {@link TIE_RUN_READ}) is cut where the engine cuts the
   * same read, whatever `k`: otherwise a page of 10 at offset 980 and one of 100 at 900 kept other
   * pages of a run of 1,150 equal scores, and paging repeated and skipped results.
   */
  async #top(
    view: View,
    query: FastQuery,
    where: string | null,
    k: number,
    withQuality: boolean,
    along?: Along,
  ): Promise<Matches> {
    const first = await this.#matches(view, query, where, k + 1, withQuality, undefined, along);
    const cut = first[k - 1];
    if (!first.full || first.length <= k || cut === undefined || first[k]!.score !== cut.score) {
      return first.full ? Object.assign(first.slice(0, k), { full: true }) : first;
    }
    const max = Math.max(k + 1, this.#options.maxCountedMatches, TIE_RUN_READ);
    let found = first;
    for (let limit = Math.min(4 * k, max); ; limit = Math.min(4 * limit, max)) {
      found = await this.#matches(view, query, where, limit, withQuality);
      const last = found.at(-1);
      if (!found.full || last === undefined || last.score < cut.score || limit >= max) break;
    }
    const ordered = [...found].sort(
      (a, b) => b.score - a.score || (a.rowId < b.rowId ? -1 : a.rowId > b.rowId ? 1 : 0),
    );
    return Object.assign(ordered.slice(0, k), { full: true });
  }

  /**
   * The best `limit` matches of a fast-plan query: row ids and scores only (and quality when asked).
   * With the fresh tier, folded pages only, less those the tier also holds.
   */
  async #matches(
    view: View,
    query: FastQuery,
    where: string | null,
    limit: number,
    withQuality: boolean,
    column?: string,
    along?: Along,
  ): Promise<Matches> {
    const withHits = along !== undefined && column === undefined && limit <= MAX_TOP_WITH_HITS;
    const textColumn = withHits && along.texts ? textColumnOf(query) : null;
    const columns = [
      '_score',
      ...(withQuality ? ['quality'] : []),
      ...(view.tier ? [COLUMNS.seq] : []),
      ...(withHits ? HIT_COLUMNS : []),
      ...(textColumn ? [textColumn] : []),
    ];
    let q = this.#table
      .query()
      .fullTextSearch(toFastLanceQuery(query, column))
      .select(columns)
      .withRowId()
      .limit(limit);
    if (view.tier) q = q.fastSearch();
    const languages = languageFilterSql(query.languages);
    const filter = languages === null ? where : and(where ?? undefined, languages);
    if (filter) q = q.where(filter);
    const found = await q.toArrow();
    const rowIds = columnOf<bigint>(found, '_rowid');
    const scores = columnOf<number>(found, '_score');
    const quality = withQuality ? columnOf<number>(found, 'quality') : null;
    const seqs = view.tier ? columnOf<number>(found, COLUMNS.seq) : null;
    const stored = withHits ? utf8Of(found, COLUMNS.hit) : null;
    const texts = textColumn ? utf8Of(found, textColumn) : null;
    const matches: Match[] = [];
    for (let i = 0; i < found.numRows; i++) {
      if (seqs && seqs[i]! > view.watermark) continue;
      if (stored?.[i] && texts) along!.texts!.set(rowIds[i]!, { text: texts[i] ?? null, hit: stored[i]! });
      // A hit waits for its runs to be checked (see #withRuns); otherwise it serves as it is.
      if (stored?.[i] && !(texts && hasRuns(query))) along!.hits.setPacked(`r${rowIds[i]}`, stored[i]!);
      matches.push({ rowId: rowIds[i]!, score: scores[i]!, quality: quality ? quality[i]! : 1 });
    }
    return Object.assign(matches, { full: found.numRows >= limit });
  }
}

/**
 * Words in a row from which a phrase is taken to be on few pages (see `#once`): a question's words
 * asked in a row (the API looks for the pages holding them so), a sentence pasted from a page. Each
 * language's reading of such a phrase is one more query of the sample for its count, five of the
 * ten engine queries of a question asked as a phrase, and nearly always none was needed.
 */
const LONG_RUN_TOKENS = 4;

/** Whether every part of a plan is a phrase of {@link LONG_RUN_TOKENS} words or more, or requires one. */
function asksLongRuns(plan: FastPlan): boolean {
  return plan.alternatives.every(
    (alternative) =>
      (alternative.kind === 'phrase' && alternative.tokens.length >= LONG_RUN_TOKENS) ||
      (alternative.phrases ?? []).some((run) => run.length >= LONG_RUN_TOKENS),
  );
}

/** Whether a fast-plan query also requires runs of tokens (phrases beside other words). */
function hasRuns(query: FastQuery): boolean {
  return (query.phrases?.length ?? 0) > 0;
}

/** The stored analysed text a query's runs are looked for in: the title's for `intitle:`, else the page's. */
function textColumnOf(query: FastQuery): string {
  return query.column === COLUMNS.title ? COLUMNS.title : COLUMNS.text;
}

/**
 * A run of tokens (or one token) as the UTF-8 bytes an analysed text holding it contains, its tokens
 * joined by single spaces and padded by one on each side (see {@link inText}).
 */
function needleOf(tokens: readonly string[]): Buffer {
  return Buffer.from(` ${tokens.join(' ')} `);
}

/**
 * Whether an analysed text (its UTF-8 bytes) holds a needle (see {@link needleOf}): inside, between
 * spaces, or at its start or end, as `needles.every(inText(text))`. The bytes are searched undecoded.
 */
function inText(text: Uint8Array | null): (needle: Buffer) => boolean {
  const bytes = text === null ? Buffer.alloc(0) : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  return (needle) => {
    if (bytes.indexOf(needle) !== -1) return true;
    const bare = needle.subarray(1, needle.length - 1);
    const starts = bytes.length >= bare.length && bytes.subarray(0, bare.length).equals(bare);
    if (starts && (bytes.length === bare.length || bytes[bare.length] === SPACE)) return true;
    const from = bytes.length - bare.length;
    return from > 0 && bytes[from - 1] === SPACE && bytes.subarray(from).equals(bare);
  };
}

/** The byte of a space, which joins an analysed text's tokens. */
const SPACE = 0x20;

/** Mean length in tokens of the text and title columns of some pages. */
interface FoldedLengths {
  readonly text: number;
  readonly title: number;
}

function meanLengths(rows: readonly Record<string, unknown>[]): FoldedLengths {
  let text = 0;
  let title = 0;
  for (const row of rows) {
    text += splitTokens(row[COLUMNS.text]).length;
    title += splitTokens(row[COLUMNS.title]).length;
  }
  return { text: text / rows.length, title: title / rows.length };
}

/** The promise cached under `key`, else `make()`'s, cached until it fails (a failed count is asked again). */
function cached(cache: Map<string, Promise<number>>, key: string, make: () => Promise<number>): Promise<number> {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    value.catch(() => cache.delete(key));
    cache.set(key, value);
  }
  return value;
}

/** A candidate of the fast plan: `r` and the row id for a folded page, `i` and the id for a fresh one. */
interface Scored {
  readonly key: string;
  readonly score: number;
}

/** Equal scores: folded pages in row order (as the general plan breaks ties), then fresh ones by id. */
function compareKeys(a: string, b: string): number {
  if (a[0] === 'r' && b[0] === 'r') {
    const [x, y] = [BigInt(a.slice(1)), BigInt(b.slice(1))];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** SQL filter of the pages a language filter passes (null: every page). */
function languageFilterSql(filter: LanguageFilter | undefined): string | null {
  if (filter === undefined) return null;
  const [list, op] = 'only' in filter ? [filter.only, 'IN'] : [filter.except, 'NOT IN'];
  return list.length === 0 ? null : `${COLUMNS.lang} ${op} (${list.map(sqlString).join(', ')})`;
}
