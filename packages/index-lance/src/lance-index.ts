import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import {
  BackendUnavailableError,
  ConfigError,
  helperThreads,
  type IndexHit,
  type IndexQuery,
  type IndexSearchResult,
  MAX_SEARCH_DEPTH,
  type PageDocument,
  type SearchIndex,
} from '@quarry/core';
import { AnalysisPool } from './analysis-pool.js';
import { ANALYSIS_VERSION, analysisNotice, readAnalysisVersion, recordAnalysisVersion } from './analysis-version.js';
import { rowsToArrow } from './arrow-rows.js';
import { CjkPairs } from './cjk-pairs.js';
import { splitCjkWords } from './cjk-words.js';
import { exactWords, formsText, rerankByForms } from './exact-forms.js';
import { planFast } from './fast-plan.js';
import { FastSearch, type FreshPages, foldedPages, type VersionFacts } from './fast-search.js';
import { isStale, isVersionGone } from './fold.js';
import { FoldProcess } from './fold-process.js';
import {
  and,
  type FtsNode,
  type FtsPlan,
  formTokens,
  matchesNothing,
  planQuery,
  priorFactor,
  sqlString,
  stemsOnly,
  weighForms,
  wordForms,
} from './fts-query.js';
import { columnOf, HIT_COLUMNS, MIN_SCORE, rowsById, rowsByRowId, toHit, unpackHit } from './hits.js';
import { joinableWords, withJoinedWords } from './joined-words.js';
import { toLanceQuery } from './lance-query.js';
import { LANGUAGES_STEMMED_SINCE, languageReadings } from './language-forms.js';
import { MAINTENANCE_DEFAULTS, Maintainer, type MaintenanceOptions } from './maintenance.js';
import { COLUMNS, type PageRow, pagesSchema, QUALITY_BUCKETS, SAMPLE_BUCKETS } from './rows.js';
import { openTable, TABLE, unindexedRows } from './table.js';
import { forLanguages } from './tree-languages.js';
import { hasPhrase, hasPrefix, matchesRow, relax, withHeldPairs, withPairs } from './unindexed.js';
import { definedOnly, useEveryCore } from './util.js';

/** A page's quality prior below this lowers its score (the quality stored as a 32-bit float). */
const LOW_QUALITY = QUALITY_BUCKETS.at(-1)!.below;

/** Options of {@link LanceSearchIndex.open}. */
export interface LanceSearchIndexOptions extends Partial<MaintenanceOptions> {
  /** Directory of the LanceDB database (created if missing). */
  readonly path: string;
  /**
   * Seconds after which a search looks for commits made by other processes (another `quarry`
   * command writing the same data dir); this handle's own writes are visible at once.
   * @defaultValue 1
   */
  readonly readConsistencySecs?: number;
  /**
   * Memory for cached index data (posting lists, scalar indexes) and for file metadata; the engine's
   * own defaults are 6 GiB and 1 GiB. @defaultValue 1073741824 (1 GiB) and 268435456 (256 MiB)
   */
  readonly indexCacheBytes?: number;
  readonly metadataCacheBytes?: number;
  /** Body characters kept for snippets (the full text lives in the blob store). @defaultValue 8192 */
  readonly snippetSourceChars?: number;
  /** Body characters analysed and indexed per page. @defaultValue 1000000 */
  readonly maxIndexedChars?: number;
  /** Score multiplier for pages in the `lang_priority` language. @defaultValue 1.25 */
  readonly langPriorityBoost?: number;
  /**
   * Times a page's title is written into the search column, its BM25 weight relative to the body
   * (applies to pages written from then on). @defaultValue 2
   */
  readonly titleRepeat?: number;
  /**
   * Matches counted exactly per query (never fewer than offset + limit). Past this, `total` is
   * estimated from the matches in a fixed 1/64 sample of the pages (`totalIsEstimate: true`),
   * counted up to `maxSampledMatches`. @defaultValue 1091 (one past the deepest page a search lists)
   */
  readonly maxCountedMatches?: number;
  /** Matches counted in the sample; past this the estimate is a lower bound. @defaultValue 2000 */
  readonly maxSampledMatches?: number;
  /**
   * Answer the common query shapes with single engine queries (`fast-plan.ts`); off, every query
   * takes the general plan (for comparing the two). @defaultValue true
   */
  readonly fastPlan?: boolean;
  /**
   * Answer pages not folded yet from the in-memory fresh tier (`fresh.ts`) rather than the engine's
   * flat scan, in the fast plan. @defaultValue true
   */
  readonly freshTier?: boolean;
  /**
   * Re-rank the best matches by the word forms and titles they hold (`exact-forms.ts`); off, scores
   * are BM25 with the priors (for tests of the plans' arithmetic). @defaultValue true
   */
  readonly textRerank?: boolean;
  /**
   * Pages an excluded word (`-word`) may have for the fast plan to look them all up at once and
   * subtract them; past this, candidates are checked against it as they are read. @defaultValue 5000
   */
  readonly maxExcludedMatches?: number;
  /**
   * Worker threads that analyse shares of a large write (an import's batches) beside the calling
   * thread (`analysis-pool.ts`); 0 analyses every page on the calling thread. Each holds its own
   * stem cache (up to about 20 MB) and a share of the batch in flight, and the engine's writes and
   * index build want cores too, hence at most 3 by default.
   * @defaultValue the machine's cores minus one, at most 3
   */
  readonly analysisThreads?: number;
}

const DEFAULTS = {
  readConsistencySecs: 1,
  indexCacheBytes: 1 << 30,
  metadataCacheBytes: 256 << 20,
  snippetSourceChars: 8192,
  maxIndexedChars: 1_000_000,
  langPriorityBoost: 1.25,
  titleRepeat: 2,
  // One past the deepest page (offset 990, limit 100): a total past the count is more than any page lists.
  maxCountedMatches: MAX_SEARCH_DEPTH + 1,
  maxSampledMatches: 2000,
  maxExcludedMatches: 5000,
  analysisThreads: helperThreads(3),
  fastPlan: true,
  freshTier: true,
  textRerank: true,
} as const;

type Settings = Required<Omit<LanceSearchIndexOptions, keyof MaintenanceOptions>> & Partial<MaintenanceOptions>;

/** Ids per `IN (...)` list of a delete or an existence check. */
const DELETE_CHUNK = 1000;
/** Tries of a write that loses commit races (see `#serializedWrite`). */
const WRITE_ATTEMPTS = 5;
/** Reads (and opens) made on the newest version when the one they read was deleted by a fold. */
const VERSION_ATTEMPTS = 4;

/**
 * The most pairs a lone character's pages not folded yet may hold for the fresh tier to answer it
 * (see #tierPrefixMatches): the folded pages holding each are counted once a fold, one or two engine
 * queries a pair. At 100,000 pages with 1,800 unfolded, the first search of `记` (23 pairs held)
 * took 84 ms, of `中` (190) 0.7 s, of `的` (1,074) 14 s; the engine's scan of those pages answers
 * such a character as before.
 */
const MAX_TIER_PREFIX_PAIRS = 64;

/** Where the fold watermark is kept, in the index directory. */
const FOLD_STATE_FILE = 'fold.json';
/** Bound on unindexed candidates checked per phrase query (more unindexed pages than this are not expected between folds). */
const MAX_UNINDEXED_CANDIDATES = 50_000;
/** Pages read for the spellings they hold (see `heldSpellings`): about 15 KB of analysed text each. */
const SPELLING_ROWS = 30;
/**
 * The embedded search index: a LanceDB table with native full-text indexes (BM25, exact top-k by
 * block-max WAND over every match; no candidate set is truncated), fed Quarry's own analysed tokens.
 * Filters (language, sites with subdomains, file type, crawl time) are applied by the engine before
 * ranking; `lang_priority` and the quality prior are multiplicative boosts inside the engine's
 * top-k. Pages written since the last index update are searched by a flat scan until the
 * {@link Maintainer} folds them in (see `maintenance.ts`).
 */
export class LanceSearchIndex implements SearchIndex {
  readonly #db: lancedb.Connection;
  readonly #table: lancedb.Table;
  readonly #options: Required<Omit<LanceSearchIndexOptions, keyof MaintenanceOptions>>;
  readonly #maintainer: Maintainer;
  #writes: Promise<unknown> = Promise.resolve();
  #lastSeq = 0;
  readonly #schema = pagesSchema();
  #facts: { readonly version: number; readonly facts: Promise<VersionFacts>; settled: boolean } | undefined;
  /** Whether this process has searched the index (a writer that never does keeps no fresh tier). */
  #searched = false;
  readonly #fast: FastSearch;
  readonly #analysis: AnalysisPool;
  /** The CJK character pairs the pages hold, for searches of one character. */
  readonly #pairs: CjkPairs;
  /** Set when the index's oldest pages were analysed by an earlier release. */
  readonly #analysisNotice: string | null;
  /** The analysis version of the index's oldest pages: which joined spellings every page holds (see `joined-words.ts`). */
  readonly #analysisVersion: number;
  #closed = false;
  /** The reads and writes under way: closing waits for them, as the engine's handles must outlive them. */
  readonly #busy = new Set<Promise<unknown>>();

  private constructor(
    db: lancedb.Connection,
    table: lancedb.Table,
    options: Settings,
    fullyIndexed: boolean,
    analysisVersion: number,
    pairs: CjkPairs,
  ) {
    this.#db = db;
    this.#pairs = pairs;
    this.#analysisNotice = analysisNotice(options.path, analysisVersion);
    this.#analysisVersion = analysisVersion;
    this.#table = table;
    this.#options = options;
    const statePath = join(options.path, FOLD_STATE_FILE);
    const initial = fullyIndexed ? Date.now() : 0;
    const { autoMaintain, foldPriority } = { ...MAINTENANCE_DEFAULTS, ...definedOnly(options) };
    const foldProcess =
      autoMaintain && foldPriority !== null ? new FoldProcess(options.path, TABLE, foldPriority) : null;
    const serialize = <T>(job: () => Promise<T>) => this.#serialized(job);
    this.#maintainer = new Maintainer(table, options, serialize, statePath, initial, foldProcess);
    // A page written in the same millisecond as the watermark would count as folded and be found
    // by neither the index nor the fresh tier: this process's writes come strictly after it.
    this.#lastSeq = this.#maintainer.indexedThroughSeq();
    this.#fast = new FastSearch(
      table,
      options,
      (version) => this.#maintainer.indexedThroughSeq(version),
      analysisVersion < LANGUAGES_STEMMED_SINCE,
    );
    this.#analysis = new AnalysisPool(options, options.analysisThreads);
  }

  /**
   * Opens (creating if needed) the index in `options.path`. Opened again, up to VERSION_ATTEMPTS
   * times, when another process's fold deleted the version it was reading (see `keepVersionsMs`).
   */
  static async open(options: LanceSearchIndexOptions): Promise<LanceSearchIndex> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await LanceSearchIndex.#open(options);
      } catch (error) {
        const cause = error instanceof BackendUnavailableError ? error.cause : error;
        if (attempt >= VERSION_ATTEMPTS || !isVersionGone(cause)) throw error;
      }
    }
  }

  static async #open(options: LanceSearchIndexOptions): Promise<LanceSearchIndex> {
    const settings: Settings = { ...DEFAULTS, ...definedOnly(options), path: options.path };
    useEveryCore();
    try {
      mkdirSync(options.path, { recursive: true });
      const session = new lancedb.Session(BigInt(settings.indexCacheBytes), BigInt(settings.metadataCacheBytes));
      const db = await lancedb.connect(
        options.path,
        { readConsistencyInterval: settings.readConsistencySecs },
        session,
      );
      const { table, created } = await openTable(db, options.path);
      // Pages written from now on are analysed by this release; an index holding none is current
      // (recorded when the folder can be written: a reader of a read-only one needs no record).
      const empty = created || (await table.countRows()) === 0;
      if (empty) {
        try {
          recordAnalysisVersion(options.path);
        } catch {}
      }
      const analysisVersion = empty ? ANALYSIS_VERSION : readAnalysisVersion(options.path);
      return new LanceSearchIndex(
        db,
        table,
        settings,
        created || (await unindexedRows(table)) === 0,
        analysisVersion,
        CjkPairs.open(options.path, empty),
      );
    } catch (error) {
      if (error instanceof BackendUnavailableError || error instanceof ConfigError) throw error;
      throw new BackendUnavailableError(`cannot open the search index at ${options.path}`, error);
    }
  }

  /**
   * Inserts or replaces pages by id in one commit (the last of duplicate ids in a batch wins).
   * Resolves once the pages are searchable. Writes keep call order.
   */
  upsert(docs: readonly PageDocument[]): Promise<void> {
    return this.#whileOpen(() => this.#upsert(docs));
  }

  async #upsert(docs: readonly PageDocument[]): Promise<void> {
    if (docs.length === 0) return;
    const byId = new Map<string, PageRow>();
    for (const row of await this.#analysis.rows(docs)) byId.set(row.id, row);
    const rows = [...byId.values()];
    // Listed before the rows are committed: a search that sees them asks their pairs.
    this.#pairs.record(rows.map((row) => row.t_text));
    await this.#serializedWrite(async () => {
      const seq = this.#nextSeq();
      for (const row of rows) row.seq = seq;
      const data = rowsToArrow(rows, this.#schema);
      // New pages (nearly every write of a crawl or an import) are appended, at a fraction of the
      // cost of a merge; a batch replacing any stored page is merged by id.
      const replacing = await this.#anyStored(rows);
      // Read before the commit: facts settled by then cannot have counted its rows.
      const before = this.#facts?.settled ? this.#facts : undefined;
      const { version } = replacing
        ? await this.#maintainer.changingRows(() =>
            this.#table.mergeInsert(COLUMNS.id).whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data),
          )
        : await this.#table.add(data);
      if (this.#searched) {
        this.#fast.written(version, !replacing);
        this.#fast.wrote(rows);
      }
      if (!replacing && before?.version === version - 1) this.#appended(before.facts, version, rows);
    });
    this.#maintainer.written(rows.length);
    // A process that searches takes the pages into its fresh tier before the write resolves, so
    // that no search waits for that (10–30 ms; a writer that never searches keeps no tier).
    if (this.#searched && this.#options.fastPlan) {
      await this.#read(async () => this.#fast.prepare(await this.#versionFacts())).catch(() => undefined);
    }
  }

  delete(ids: readonly string[]): Promise<void> {
    return this.#whileOpen(() => this.#delete(ids));
  }

  async #delete(ids: readonly string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += DELETE_CHUNK) {
      const list = ids
        .slice(i, i + DELETE_CHUNK)
        .map(sqlString)
        .join(', ');
      await this.#serializedWrite(() =>
        this.#maintainer.changingRows(() => this.#table.delete(`${COLUMNS.id} IN (${list})`)),
      );
      this.#fast.deleted(ids.slice(i, i + DELETE_CHUNK));
    }
  }

  async search(asked: IndexQuery): Promise<IndexSearchResult> {
    // Searching a closed index is a programming error, not an outage of the backend.
    if (this.#closed) throw new Error('the search index is closed');
    this.#searched = true;
    const typed = splitCjkWords(asked);
    const typedPlan = planQuery(typed);
    if (matchesNothing(typed, typedPlan)) return { total: 0, totalIsEstimate: false, hits: [] };
    try {
      return await this.#read(async () => {
        const query = await this.#withJoinedWords(typed);
        const plan = query === typed ? typedPlan : planQuery(query);
        if (!plan.fts) return this.#filterOnly(query, plan);
        const fast = this.#options.fastPlan ? planFast(query) : null;
        const facts = await this.#versionFacts();
        const found =
          (fast && (await this.#fast.search(query, plan, fast, facts))) ?? (await this.#ranked(query, plan, facts));
        // An estimate never says fewer than the pages it lists: a client paging until `offset >=
        // total` stopped at 1,000 of 1,200 pages counted up to the bound and sampled below it.
        const listed = found.hits.length > 0 ? query.offset + found.hits.length : 0;
        return found.total >= listed ? found : { ...found, total: listed };
      });
    } catch (error) {
      throw new BackendUnavailableError('the search index could not answer', error);
    }
  }

  /**
   * The query with its words written in parts also found written as one (`e-mail` as `email`,
   * `10,000` as `10000`), those whose joined word some page holds (see `joined-words.ts`); the query
   * itself when none does, or when the count fails. Pages hold the joined spelling of their own such
   * words too, unless some were analysed before that (an index not reindexed since).
   */
  async #withJoinedWords(query: IndexQuery): Promise<IndexQuery> {
    const words = joinableWords(query);
    if (words.length === 0) return query;
    // Each word's joined forms (stemmed, as typed) in the column it is asked in.
    const asked = words.map((word) => {
      const column = word.term.field === 'title' ? COLUMNS.title : COLUMNS.text;
      return { word, pairs: wordForms(word.joined).map((tokens) => [column, tokens[0]!] as const) };
    });
    const counts = await this.#fast.formFrequencies(asked.flatMap(({ pairs }) => pairs)).catch(() => null);
    if (counts === null) return query;
    const held = asked
      .filter(({ pairs }) => pairs.some(([column, token]) => (counts.get(`${column} ${token}`) ?? 0) > 0))
      .map(({ word }) => word);
    return withJoinedWords(query, held, this.#analysisVersion);
  }

  /**
   * Of `words`, those held by the best {@link SPELLING_ROWS} folded pages holding any of their
   * forms (stemmed and as typed): one query of them all, its pages' analysed text read for which
   * forms it holds. Counting each word's pages apart took 500 ms for the 500 spellings of a word
   * (its forms' frequencies, one engine query each); this takes 10 ms. Pages not folded yet are
   * left out.
   */
  async heldSpellings(words: readonly string[]): Promise<string[]> {
    if (this.#closed) throw new Error('the search index is closed');
    // A form of a word: any page holding it, or one in the languages whose stem it is.
    const byForm = new Map<string, { word: string; languages?: readonly string[] }[]>();
    const present = await this.#fast.languages().catch(() => null);
    for (const word of words) {
      const forms = wordForms(word);
      const english = forms[0] ?? [];
      const readings = languageReadings(english, forms.at(-1) ?? english).filter(
        (reading) => present === null || reading.languages.some((lang) => present.has(lang)),
      );
      for (const { tokens, languages } of [...forms.map((tokens) => ({ tokens, languages: undefined })), ...readings]) {
        const form = tokens[0];
        if (tokens.length !== 1 || form === undefined) continue;
        const spellings = byForm.get(form);
        const spelling = languages ? { word, languages } : { word };
        if (spellings === undefined) byForm.set(form, [spelling]);
        else if (!spellings.some((known) => known.word === word)) spellings.push(spelling);
      }
    }
    if (byForm.size === 0) return [];
    const query = new lancedb.MatchQuery([...byForm.keys()].join(' '), COLUMNS.text, {
      operator: lancedb.Operator.Or,
    });
    try {
      const rows = await this.#read(() =>
        this.#table
          .query()
          .fullTextSearch(query)
          .fastSearch()
          .select([COLUMNS.text, COLUMNS.lang, '_score'])
          .limit(SPELLING_ROWS)
          .toArray(),
      );
      const held = new Set<string>();
      for (const row of rows as Record<string, unknown>[]) {
        const lang = String(row[COLUMNS.lang] ?? '');
        for (const token of String(row[COLUMNS.text] ?? '').split(' ')) {
          for (const { word, languages } of byForm.get(token) ?? []) {
            if (!languages || languages.includes(lang)) held.add(word);
          }
        }
      }
      return words.filter((word) => held.has(word));
    } catch (error) {
      throw new BackendUnavailableError('the search index could not answer', error);
    }
  }

  async has(id: string): Promise<boolean> {
    return (await this.#read(() => this.#table.countRows(`${COLUMNS.id} = ${sqlString(id)}`))) > 0;
  }

  async count(): Promise<number> {
    return this.#read(() => this.#table.countRows());
  }

  async ping(): Promise<void> {
    try {
      await this.#read(() => this.#table.countRows(`${COLUMNS.id} = ''`));
    } catch (error) {
      throw new BackendUnavailableError('the search index is not usable', error);
    }
  }

  /** Folds written pages into the full-text indexes now (otherwise done in the background). */
  async flush(): Promise<void> {
    await this.#maintainer.run();
  }

  notices(): readonly string[] {
    const notices = this.#analysisNotice === null ? [] : [this.#analysisNotice];
    const pairs = this.#pairs.notice();
    if (pairs !== null) notices.push(pairs);
    return notices;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // A search or write under way finishes first: closing the engine's handles under it fails it,
    // or crashes the process.
    await Promise.allSettled([...this.#busy]);
    await this.#maintainer.close();
    await this.#analysis.close();
    await this.#writes.catch(() => undefined);
    this.#table.close();
    this.#db.close();
  }

  /**
   * Full-text search: the engine's exact top (offset + limit) over every match, and a count. With a
   * phrase, pages not yet folded into the indexes are also searched by the relaxed query and checked
   * here (see `unindexed.ts`); those failing the check are dropped from the engine's answer.
   */
  async #ranked(query: IndexQuery, plan: FtsPlan, facts: VersionFacts): Promise<IndexSearchResult> {
    const qualityPrior = facts.lowQualityRows > 0;
    const tree = this.#listedPairs(await this.#weighed(plan.fts!, facts));
    const depth = query.offset + query.limit;
    const cap = Math.max(this.#options.maxCountedMatches, depth);
    // One ranked list of ids and scores serves both the page and the count; only the page's rows
    // are then read in full (by row id, checked against the id). The priors multiply the scores of
    // these matches (the best `cap` by BM25), and the page is cut after them.
    const { held, unfoldedTree, unfoldedWhere, folded, unfolded, unfoldedCount, unindexed } = await this.#treeMatches(
      tree,
      plan.where,
      cap,
      facts,
      query,
    );
    const score = (row: Record<string, unknown>) =>
      Number(row._score) *
      priorFactor(
        { lang: row.lang as string, quality: Number(row.quality) },
        query.langPriority,
        this.#options,
        qualityPrior,
      );
    let ranked = [...folded, ...unfolded]
      .map((match) => ({ id: match.id, rowId: match.rowId, score: score(match) }))
      // Equal scores in row order, as the fast plan breaks ties.
      .sort((a, b) => b.score - a.score || (a.rowId < b.rowId ? -1 : 1));
    const estimate = ranked.length >= cap;
    const fresh = new Map<string, Record<string, unknown>>();
    if (unindexed && (unindexed.matched.length > 0 || unindexed.rejected.size > 0)) {
      const { matched, rejected } = unindexed;
      const seen = new Set<string>();
      for (const row of matched) fresh.set(row.id as string, row);
      const freshHits = matched.map((row) => ({ id: row.id as string, rowId: -1n, score: score(row) }));
      ranked = [...ranked, ...freshHits]
        .filter((hit) => !rejected.has(hit.id))
        .sort((a, b) => b.score - a.score)
        .filter((hit) => !seen.has(hit.id) && seen.add(hit.id) !== undefined);
    }
    // Rows read for the word forms (and the fresh ones, read in full) serve the page too.
    const read = new Map(fresh);
    ranked = await rerankByForms(
      ranked,
      this.#options.textRerank ? exactWords(query) : [],
      (candidates) => this.#formsTexts(candidates, read),
      (a, b) => (a.rowId < b.rowId ? -1 : 1),
    );
    const page = ranked.slice(query.offset, depth);
    const rows = await this.#pageRows(page.filter((hit) => !read.has(hit.id)));
    for (const [id, row] of read) rows.set(id, row);
    const hits = page.flatMap((hit) => {
      const row = rows.get(hit.id);
      return row ? [toHit(row, Math.max(MIN_SCORE, hit.score), plan)] : [];
    });
    const total = estimate
      ? await this.#estimateTotal(
          tree,
          plan.where,
          ranked.length,
          facts.rows,
          held
            ? {
                tree: unfoldedTree,
                where: unfoldedWhere!,
                counted: unfoldedCount ?? (unfolded.length < cap ? unfolded.length : null),
              }
            : null,
        )
      : ranked.length;
    return { total, totalIsEstimate: estimate, hits };
  }

  /**
   * The tree with each one-character prefix asking only the pairs the index's pages hold (see
   * {@link CjkPairs}), rather than every pair the character may begin; as it is when they are not known.
   */
  #listedPairs(tree: FtsNode): FtsNode {
    if (!hasPrefix(tree) || !this.#pairs.complete) return tree;
    return withPairs(tree, (char) => this.#pairs.pairsOf(char));
  }

  /**
   * The engine's best `limit` matches of a tree, on folded pages and on pages not folded yet; with a
   * phrase, the latter are also searched by the relaxed tree and checked here (`unindexed`: those
   * passing the check, and those failing it, which the engine's answer must lose).
   */
  async #treeMatches(tree: FtsNode, where: string | null, limit: number, facts: VersionFacts, filters?: IndexQuery) {
    // A one-character prefix asks some 21,000 pairs, which the engine's scan of pages not folded
    // yet pays for on each page: those pages are asked apart, only the pairs they hold.
    const held = hasPrefix(tree) ? await this.#fast.freshTokens(facts).catch(() => null) : null;
    const unfoldedTree = held ? withHeldPairs(tree, held.holds) : tree;
    const unfoldedWhere = held ? and(where ?? undefined, `${COLUMNS.seq} > ${held.watermark}`) : null;
    // A lone character there from the fresh tier, whose matches are all there are (their number
    // is the count); anything else from the engine's scan of those pages.
    const unfoldedMatches = async () => {
      const fromTier = held && filters ? await this.#tierPrefixMatches(unfoldedTree, held, filters) : null;
      if (fromTier) return { unfolded: fromTier.slice(0, limit), unfoldedCount: fromTier.length };
      const scanned = unfoldedWhere ? await this.#matches(unfoldedTree, unfoldedWhere, limit) : [];
      return { unfolded: scanned, unfoldedCount: null };
    };
    const [folded, { unfolded, unfoldedCount }, unindexed] = await Promise.all([
      this.#matches(tree, where, limit, held?.watermark),
      unfoldedMatches(),
      hasPhrase(tree) ? this.#unindexedMatches(unfoldedTree, where) : null,
    ]);
    return { held, unfoldedTree, unfoldedWhere, folded, unfolded, unfoldedCount, unindexed };
  }

  /**
   * A lone one-character prefix (a search of `记`) on the pages not folded yet, answered by the
   * fresh tier as a match of any of the pairs they hold, best first; null for any other tree (or
   * when the tier cannot answer), which the engine's scan of those pages answers. The scan costs
   * in proportion to the pages it reads (about 0.07 ms a page, 100 ms at 1,500 pages beside 100,000
   * folded ones while a crawl writes), the tier in proportion to the pages holding the pairs, once
   * it knows how many folded pages hold each pair (one or two engine queries a pair, kept until the
   * next fold): so only for a character whose unfolded pages hold at most
   * {@link MAX_TIER_PREFIX_PAIRS} pairs.
   */
  async #tierPrefixMatches(
    tree: FtsNode,
    fresh: FreshPages,
    filters: IndexQuery,
  ): Promise<{ id: string; rowId: bigint; _score: number; lang: string; quality: number }[] | null> {
    if (tree.kind !== 'match' || !tree.prefix || tree.boost !== 1 || !tree.pairs) return null;
    if (tree.pairs.length > MAX_TIER_PREFIX_PAIRS) return null;
    const found = await fresh.anyOf(tree.column, tree.pairs, filters);
    if (found === null) return null;
    return found
      .sort((a, b) => b.score - a.score || (a.rowId < b.rowId ? -1 : 1))
      .map((match) => ({
        id: match.id,
        rowId: match.rowId,
        _score: match.score,
        lang: match.lang,
        quality: match.quality,
      }));
  }

  /**
   * The general plan's tree with each word of several forms weighed as one word (see weighForms), on
   * the folded pages' counts as the fast plan weighs them; in its stems only when every page is
   * English. A failed count leaves the engine's weights.
   */
  async #weighed(tree: FtsNode, facts: VersionFacts): Promise<FtsNode> {
    // A language's stems only while the index has pages of it (see tree-languages.ts).
    const present = await this.#fast.languages().catch(() => null);
    const asked = present === null ? tree : forLanguages(tree, present);
    const wanted = formTokens(asked);
    if (wanted.length === 0) return asked;
    // Every page English, indexed by stems: a word is asked in its stem only (see stemsOnly), whose
    // BM25 is the engine's own.
    if (present !== null && [...present].every((lang) => lang === 'en')) return stemsOnly(asked);
    const counts = await this.#fast.formFrequencies(wanted).catch(() => null);
    if (counts === null) return asked;
    return weighForms(asked, (column, token) => counts.get(`${column} ${token}`) ?? 0, foldedPages(facts));
  }

  /**
   * The hit columns of a page of the general plan, by id: read by row id (a positional read), and
   * by id through the id index for any row whose row id no longer holds it (a fold moved it).
   */
  async #pageRows(
    page: readonly { readonly id: string; readonly rowId: bigint }[],
  ): Promise<Map<string, Record<string, unknown>>> {
    // A row id of a version a fold has since compacted away may name no row at all.
    const byRowId = await rowsByRowId(
      this.#table,
      page.map((hit) => hit.rowId),
    ).catch(() => new Map<bigint, Record<string, unknown>>());
    const rows = new Map<string, Record<string, unknown>>();
    const moved: string[] = [];
    for (const hit of page) {
      const row = byRowId.get(hit.rowId);
      if (row?.id === hit.id) rows.set(hit.id, row);
      else moved.push(hit.id);
    }
    for (const [id, row] of await rowsById(this.#table, moved)) rows.set(id, row);
    return rows;
  }

  /**
   * The text the word forms of general-plan candidates are read on (null where a fold moved the
   * row), their hit columns read into `read` by id.
   */
  async #formsTexts(
    candidates: readonly { readonly id: string; readonly rowId: bigint }[],
    read: Map<string, Record<string, unknown>>,
  ): Promise<(string | null)[]> {
    const missing = candidates.filter((hit) => !read.has(hit.id));
    const byRowId = await rowsByRowId(
      this.#table,
      missing.map((hit) => hit.rowId),
    ).catch(() => new Map<bigint, Record<string, unknown>>());
    for (const hit of missing) {
      const row = byRowId.get(hit.rowId);
      if (row?.id === hit.id) read.set(hit.id, row);
    }
    return candidates.map((hit) => formsText(read.get(hit.id)));
  }

  /**
   * The matches in one bucket of {@link SAMPLE_BUCKETS}, scaled up, at most the `pages` the index
   * holds; never below what was counted exactly. Counting to `maxCountedMatches` costs more than
   * the top-k itself (every match must be scored), so past it a sample a sixty-fourth the size is
   * counted instead.
   */
  async #estimateTotal(
    tree: FtsNode,
    where: string | null,
    counted: number,
    pages: number,
    unfolded: { readonly tree: FtsNode; readonly where: string; readonly counted: number | null } | null,
  ): Promise<number> {
    const inSample = (where: string | null) => and(where ?? undefined, `${COLUMNS.bucket} = 0`);
    // `_score` selected: a full-text search whose columns leave it out logs Lance's deprecation
    // warning (the score will stop being added), once a query.
    const sampled = (q: lancedb.Query) =>
      q
        .select(['_score'])
        .limit(this.#options.maxSampledMatches)
        .toArray()
        .then((rows) => rows.length);
    // Pages not folded yet asked apart (see #ranked): counted when all were, or sampled too.
    const [folded, fresh] = await Promise.all([
      sampled(unfolded ? this.#fts(tree, inSample(where)).fastSearch() : this.#fts(tree, inSample(where))),
      unfolded === null
        ? 0
        : (unfolded.counted ??
          sampled(this.#fts(unfolded.tree, inSample(unfolded.where))).then((n) => n * SAMPLE_BUCKETS)),
    ]);
    return Math.max(counted, Math.min(folded * SAMPLE_BUCKETS + fresh, pages));
  }

  #fts(tree: FtsNode, where: string | null): lancedb.Query {
    const q = this.#table.query().fullTextSearch(toLanceQuery(tree));
    return where ? q.where(where) : q;
  }

  /**
   * The engine's best `limit` matches of a tree, scored, with what the priors read. With
   * `foldedThrough`, folded pages only: the indexes alone are asked, and a page written after that
   * watermark (folded since, by another process) is left to the search of unfolded pages.
   */
  async #matches(tree: FtsNode, where: string | null, limit: number, foldedThrough?: number) {
    let q = this.#fts(tree, where)
      .select([COLUMNS.id, '_score', COLUMNS.lang, 'quality', COLUMNS.seq])
      .withRowId()
      .limit(limit);
    if (foldedThrough !== undefined) q = q.fastSearch();
    const found = await q.toArrow();
    const [ids, rowIds, scores, langs, quality, seqs] = [
      columnOf<string>(found, COLUMNS.id),
      columnOf<bigint>(found, '_rowid'),
      columnOf<number>(found, '_score'),
      columnOf<string>(found, COLUMNS.lang),
      columnOf<number>(found, 'quality'),
      columnOf<number>(found, COLUMNS.seq),
    ];
    const matches: { id: string; rowId: bigint; _score: number; lang: string; quality: number }[] = [];
    for (let i = 0; i < found.numRows; i++) {
      if (foldedThrough !== undefined && seqs[i]! > foldedThrough) continue;
      matches.push({ id: ids[i]!, rowId: rowIds[i]!, _score: scores[i]!, lang: langs[i]!, quality: quality[i]! });
    }
    return matches;
  }

  /** Pages not yet folded in that the relaxed query finds, split into true matches and the rest. */
  async #unindexedMatches(tree: FtsNode, where: string | null) {
    if ((await this.#versionFacts()).unindexedRows === 0) return null;
    const fresh = `${COLUMNS.seq} > ${this.#maintainer.indexedThroughSeq()}`;
    const rows = (await this.#fts(relax(tree), where ? `(${where}) AND ${fresh}` : fresh)
      .select([...HIT_COLUMNS, 'quality', COLUMNS.title, COLUMNS.text, '_score'])
      .limit(MAX_UNINDEXED_CANDIDATES)
      .toArray()) as Record<string, unknown>[];
    const matched: Record<string, unknown>[] = [];
    const rejected = new Set<string>();
    for (const row of rows.map(unpackHit)) {
      if (matchesRow(tree, row)) matched.push(row);
      else rejected.add(row.id as string);
    }
    return { matched, rejected };
  }

  /**
   * Facts read once per table version: how many rows the body's full-text index does not cover (a
   * search of a fully folded index skips the unindexed path), and how many rows have a quality
   * below 1 (without any, the quality prior is left out of the query).
   */
  async #versionFacts(): Promise<VersionFacts> {
    const version = await this.#table.version();
    if (this.#facts?.version !== version) {
      this.#factsOf(
        version,
        Promise.all([
          unindexedRows(this.#table),
          this.#table.countRows(`quality < ${LOW_QUALITY}`),
          this.#table.countRows(),
        ]).then(([unindexed, lowQuality, rows]) => ({
          version,
          unindexedRows: unindexed,
          lowQualityRows: lowQuality,
          rows,
        })),
      );
    }
    return this.#facts!.facts;
  }

  /**
   * The facts of `version`, which this process's append of `rows` committed right after the version
   * of `before` (no other commit between): those facts and the new rows, none of them folded. A
   * crawl appends several times a second, and each new version's three counts, calls into the
   * engine behind its other work, held up the searches made meanwhile (up to 0.9 s).
   */
  #appended(before: Promise<VersionFacts>, version: number, rows: readonly PageRow[]): void {
    const low = rows.filter((row) => Math.fround(row.quality) < LOW_QUALITY).length;
    this.#factsOf(
      version,
      before.then((facts) => ({
        version,
        unindexedRows: facts.unindexedRows + rows.length,
        lowQualityRows: facts.lowQualityRows + low,
        rows: facts.rows + rows.length,
      })),
    );
  }

  #factsOf(version: number, facts: Promise<VersionFacts>): void {
    const entry = { version, facts, settled: false };
    this.#facts = entry;
    facts.then(
      () => {
        entry.settled = true;
      },
      () => {
        if (this.#facts === entry) this.#facts = undefined;
      },
    );
  }

  /** Whether any of these rows' ids is stored (the id column has a B-tree index). */
  async #anyStored(rows: readonly PageRow[]): Promise<boolean> {
    for (let i = 0; i < rows.length; i += DELETE_CHUNK) {
      const list = rows
        .slice(i, i + DELETE_CHUNK)
        .map((row) => sqlString(row.id))
        .join(', ');
      if ((await this.#table.countRows(`${COLUMNS.id} IN (${list})`)) > 0) return true;
    }
    return false;
  }

  /** A write's `seq`: the time, strictly increasing within this process. */
  #nextSeq(): number {
    this.#lastSeq = Math.max(Date.now(), this.#lastSeq + 1);
    return this.#lastSeq;
  }

  /**
   * A query of operators only (`site:x.org`), or of operators and exclusions (`site:x.org -draft`):
   * every page passing the filters (less those an exclusion matches), newest crawl first (pages in
   * the `lang_priority` language first), scored by rank; the total is exact.
   */
  async #filterOnly(query: IndexQuery, plan: FtsPlan): Promise<IndexSearchResult> {
    const where = plan.where ?? undefined;
    const filtered = await this.#table.countRows(where);
    const excluded =
      plan.exclude && filtered > 0
        ? await this.#excludedPages(plan.exclude, plan.where, filtered, await this.#versionFacts())
        : new Map<string, string>();
    const groups: { filter: string | undefined; excluded: number }[] = [];
    if (query.langPriority === undefined) groups.push({ filter: where, excluded: excluded.size });
    else {
      const lang = `${COLUMNS.lang} = ${sqlString(query.langPriority)}`;
      let inLang = 0;
      for (const pageLang of excluded.values()) if (pageLang === query.langPriority) inLang++;
      groups.push(
        { filter: and(where, lang), excluded: inLang },
        { filter: and(where, `NOT (${lang})`), excluded: excluded.size - inLang },
      );
    }
    const hits: IndexHit[] = [];
    let skip = query.offset;
    let rank = query.offset;
    for (const group of groups) {
      const want = query.limit - hits.length;
      if (want <= 0) break;
      const size = (groups.length === 1 ? filtered : await this.#table.countRows(group.filter)) - group.excluded;
      if (skip >= size) {
        skip -= size;
        continue;
      }
      const rows = await this.#listed(group.filter, skip, want, excluded, group.excluded);
      skip = 0;
      // 1/2, 1/3, …: below 1 and never a whole number, which JSON writes as an integer (`1`) that
      // a typed client (Python's json) reads as one, where the spec's score is a decimal number.
      for (const row of rows) hits.push(toHit(row, 1 / (2 + rank++), plan));
    }
    return { total: filtered - excluded.size, totalIsEstimate: false, hits };
  }

  /**
   * Rows `skip` to `skip + want` of the pages passing `filter` newest crawl first, less the
   * `excluded` ones (`excludedHere` of which pass the filter), hits unpacked. Pages crawled at the
   * same time are ordered by id: otherwise each cut (offset, limit) may break their tie another way.
   */
  async #listed(
    filter: string | undefined,
    skip: number,
    want: number,
    excluded: ReadonlyMap<string, string>,
    excludedHere: number,
  ): Promise<Record<string, unknown>[]> {
    // Only the ids are sorted, and the page's rows then read by row id: a sort carrying the stored
    // hits took 85–105 ms at 20,000 pages where the ids and the take took 9–16 ms. The excluded pages
    // may stand anywhere in the order, so the first `skip + want` of the others are among the first
    // `skip + want + excludedHere` (rather than an SQL list of the excluded ids, which cost 220–240
    // ms for 8,000). With the row id in the plan, a scalar-index filter followed by a sort works
    // (LanceDB 0.37 fails to plan the take of such a query without it).
    let q = this.#table.query().select([COLUMNS.id]).withRowId();
    if (filter) q = q.where(filter);
    const order = await q
      .orderBy([
        { columnName: COLUMNS.crawledMs, ascending: false },
        { columnName: COLUMNS.id, ascending: true },
      ])
      .limit(skip + want + excludedHere)
      .toArrow();
    const [ids, rowIds] = [columnOf<string>(order, COLUMNS.id), columnOf<bigint>(order, '_rowid')];
    const page: { id: string; rowId: bigint }[] = [];
    let kept = 0;
    for (let i = 0; i < order.numRows && page.length < want; i++) {
      if (excluded.has(ids[i]!) || kept++ < skip) continue;
      page.push({ id: ids[i]!, rowId: rowIds[i]! });
    }
    const rows = await this.#pageRows(page);
    return page.flatMap((hit) => {
      const row = rows.get(hit.id);
      return row ? [row] : [];
    });
  }

  /**
   * The pages passing `where` (`pages` of them) that an exclusion tree matches, by id, with their
   * language: every one, found as a search finds words (stems, phrases, title words), on folded
   * pages and on pages not folded yet.
   */
  async #excludedPages(
    tree: FtsNode,
    where: string | null,
    pages: number,
    facts: VersionFacts,
  ): Promise<Map<string, string>> {
    const { folded, unfolded, unindexed } = await this.#treeMatches(this.#listedPairs(tree), where, pages, facts);
    const excluded = new Map<string, string>();
    for (const match of [...folded, ...unfolded]) excluded.set(match.id, match.lang);
    for (const row of unindexed?.matched ?? []) excluded.set(row.id as string, row.lang as string);
    for (const id of unindexed?.rejected ?? []) excluded.delete(id);
    return excluded;
  }

  /**
   * A write in the write queue, tried again when it loses a commit race: a fold in the fold process
   * (or another process's write) may commit first, and an update or delete touching the rows that
   * commit rewrote must then be made again on the new version (nothing of the failed try is kept).
   */
  #serializedWrite<T>(job: () => Promise<T>): Promise<T> {
    return this.#serialized(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await job();
        } catch (error) {
          if (attempt >= WRITE_ATTEMPTS || !isStale(error)) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50 * attempt * attempt));
          await this.#table.checkoutLatest();
        }
      }
    });
  }

  /**
   * A read, made once more on the newest version when the version it read was deleted meanwhile: a
   * fold's cleanup keeps only the newest version (see `keepVersionsMs`), and this handle looks for
   * other processes' commits once per read-consistency interval.
   */
  #read<T>(job: () => Promise<T>): Promise<T> {
    return this.#tracked(async () => {
      // More than once: a fold in another process can delete the newest version this handle saw
      // between its checkout and the read (a second fold, or one committing as it looked).
      for (let attempt = 1; ; attempt++) {
        try {
          return await job();
        } catch (error) {
          if (attempt >= VERSION_ATTEMPTS || !isVersionGone(error)) throw error;
          await this.#serialized(() => this.#table.checkoutLatest());
        }
      }
    });
  }

  /** A write, refused once the index is closing. */
  #whileOpen<T>(work: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('the search index is closed'));
    return this.#tracked(work);
  }

  /** Runs `work`, which {@link close} waits for. */
  #tracked<T>(work: () => Promise<T>): Promise<T> {
    const running = work();
    this.#busy.add(running);
    const done = () => this.#busy.delete(running);
    running.then(done, done);
    return running;
  }

  #serialized<T>(job: () => Promise<T>): Promise<T> {
    const done = this.#writes.then(job);
    this.#writes = done.catch(() => undefined);
    return done;
  }
}
