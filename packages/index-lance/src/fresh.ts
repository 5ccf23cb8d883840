import type * as lancedb from '@lancedb/lancedb';
import { type IndexQuery, passesIndexFilters } from '@quarry/core';
import type { FastQuery } from './fast-plan.js';
import { bm25Idf } from './fts-query.js';
import { COLUMNS, type PageRow } from './rows.js';

/** LanceDB's BM25 parameters (the engine's scorer: k1 1.2, b 0.75, idf ln(1 + (N − n + 0.5) / (n + 0.5))). */
const K1 = 1.2;
const B = 0.75;
/** Term frequencies kept per posting (a page saying a word more often counts as saying it this often). */
const MAX_TF = 1023;
/**
 * How long after taking its `seq` another process's write may still commit (as the fold's margin,
 * see maintenance.ts): the rows of that window are looked at again at each sync.
 */
const LATE_COMMIT_MS = 10_000;

/** Rows this process wrote that wait for a sync at most (about 10 KB of text each). */
const MAX_WRITTEN = 1000;

/** A written row's key: its page and its `seq` (a page written again is another row). */
function writtenKey(id: unknown, seq: unknown): string {
  return `${String(id)} ${Number(seq)}`;
}

/** A page written since the last fold, as the fresh tier holds it: its filter facts and its length. */
interface FreshPage {
  readonly id: string;
  /**
   * Its row's id when the tier read it: a fold's compaction may move the row, so a read by it is
   * checked (see rowsByKnownRowId).
   */
  readonly rowId: bigint;
  readonly seq: number;
  readonly lang: string;
  readonly filetype: string;
  readonly crawledMs: number;
  readonly sites: readonly string[];
  readonly quality: number;
  /** Tokens in the search column. */
  readonly length: number;
  /** Tokens in the title column. */
  readonly titleLength: number;
  /** The analysed search and title columns as stored, for phrases (emptied when the page goes). */
  text: string;
  title: string;
  dead: boolean;
}

/** Statistics of the folded pages, for scoring fresh pages on the same scale as the engine does them. */
export interface FoldedStats {
  readonly pages: number;
  /** Their mean length in tokens of a column (estimated), or null when unknown. */
  averageLength(column: string): Promise<number | null>;
  /** Pages holding a token in a column (counted, or estimated when many do). */
  documentFrequency(token: string, column: string): Promise<number>;
}

/** One fresh page matching a query, scored. */
export interface FreshMatch {
  readonly id: string;
  /** Its row's id when the tier read it (see FreshPage). */
  readonly rowId: bigint;
  readonly seq: number;
  readonly score: number;
  readonly lang: string;
  readonly quality: number;
}

/**
 * The fresh tier: an in-memory inverted index of the pages written since the last fold. LanceDB
 * searches such pages by reading and tokenizing every one of them for every query (500 add about
 * 50 ms to a search at 100,000 pages, 2,000 about 400 ms), and a fold at that size takes minutes.
 * The fast plan asks the engine for folded pages only and this tier for the rest: postings (page,
 * term frequency) per token, scored by BM25 with the folded pages' statistics added to the tier's
 * own. Each process reads the new rows from the table when its version moves, so pages written by
 * another process are found too; it starts over when the fold watermark moves.
 */
export class FreshTier {
  #watermark = Number.NaN;
  #version = -1;
  #maxSeq = Number.NEGATIVE_INFINITY;
  #pages: FreshPage[] = [];
  readonly #byId = new Map<string, number>();
  #text = new Map<string, number[]>();
  #title = new Map<string, number[]>();
  #totalLength = 0;
  #totalTitleLength = 0;
  #live = 0;
  /** Live pages held per language. */
  readonly #languages = new Map<string, number>();

  /**
   * Rows this process wrote that no sync has taken in yet, by {@link writtenKey}: a sync takes them
   * from here instead of reading their text back from the table (a read a crawl made several times
   * a second, which searches waited behind).
   */
  readonly #written = new Map<string, PageRow>();

  /** Pages held (live). */
  get size(): number {
    return this.#live;
  }

  /** The languages of the pages held (live). */
  languages(): string[] {
    return [...this.#languages].flatMap(([lang, pages]) => (pages > 0 ? [lang] : []));
  }

  /** Whether a page held (or one dropped since the tier last started or compacted) has a token in a column. */
  holds(column: string, token: string): boolean {
    return (column === COLUMNS.title ? this.#title : this.#text).has(token);
  }

  /** Mean length of the pages held, in tokens of a column (0 when empty). */
  averageLength(column: string): number {
    const total = column === COLUMNS.title ? this.#totalTitleLength : this.#totalLength;
    return this.#live === 0 ? 0 : total / this.#live;
  }

  /** The watermark the tier was built for: pages with a higher `seq` are in it. */
  get watermark(): number {
    return this.#watermark;
  }

  /**
   * Brings the tier to the table's version: pages written since the tier last looked are added (a
   * page written again replaces its earlier row), pages a fold has taken in are dropped (and
   * cleared away once they outnumber the live ones). The tier is loaded whole only when it starts
   * or when the watermark goes back; a load of more than `maxLoad` pages is refused. Returns false
   * when the tier is not to be used (too many pages unfolded).
   */
  async sync(
    table: lancedb.Table,
    version: number,
    watermark: number,
    { maxPages, maxLoad }: { readonly maxPages: number; readonly maxLoad: number },
  ): Promise<boolean> {
    if (Number.isNaN(this.#watermark) || watermark < this.#watermark) {
      // A stale or missing watermark can name far more pages than are unfolded: never read them all.
      if ((await table.countRows(`${COLUMNS.seq} > ${watermark}`)) > maxLoad) return false;
      this.#reset(watermark);
    } else {
      if (watermark > this.#watermark) {
        for (let ordinal = 0; ordinal < this.#pages.length; ordinal++) {
          if (this.#pages[ordinal]!.seq <= watermark) this.#kill(ordinal);
        }
        this.#watermark = watermark;
      } else if (version === this.#version) return this.#live <= maxPages;
      if (this.#pages.length - this.#live > this.#live + 1000) this.#compact();
    }
    // Another process's write may commit after a row of a higher `seq` was taken in (each process
    // takes its own clock's time): the rows of the last LATE_COMMIT_MS are looked at again, by their
    // id and seq only, and those not held are read.
    const from = Math.max(watermark, this.#maxSeq - LATE_COMMIT_MS);
    let where: string | null = `${COLUMNS.seq} > ${from}`;
    // Rows this process wrote are taken as it wrote them (their row ids from the look below).
    const taken: Record<string, unknown>[] = [];
    if (Number.isFinite(this.#maxSeq)) {
      const recent = (await table
        .query()
        .where(where)
        .select([COLUMNS.id, COLUMNS.seq])
        .withRowId()
        .toArray()) as Record<string, unknown>[];
      const unread: unknown[] = [];
      for (const row of recent) {
        if (this.#holds(row.id as string, Number(row.seq))) continue;
        const key = writtenKey(row.id, row.seq);
        const own = this.#written.get(key);
        this.#written.delete(key);
        if (own) taken.push({ ...own, quality: Math.fround(own.quality), _rowid: row._rowid });
        else unread.push(row._rowid);
      }
      if (taken.length === 0 && unread.length === 0) {
        this.#version = version;
        return this.#live <= maxPages;
      }
      where = unread.length === 0 ? null : `_rowid IN (${unread.join(', ')})`;
    }
    const rows =
      where === null
        ? taken
        : [
            ...taken,
            ...((await table
              .query()
              .where(where)
              .select([
                COLUMNS.id,
                COLUMNS.seq,
                COLUMNS.lang,
                COLUMNS.filetype,
                COLUMNS.crawledMs,
                COLUMNS.sites,
                'quality',
                COLUMNS.title,
                COLUMNS.text,
              ])
              .withRowId()
              .toArray()) as Record<string, unknown>[]),
          ];
    rows.sort((a, b) => Number(a.seq) - Number(b.seq));
    for (const row of rows) this.#add(row);
    this.#version = version;
    return this.#live <= maxPages;
  }

  /** The fresh pages matching a fast-plan query and the query's filters, scored by BM25. */
  async search(
    query: FastQuery,
    filters: IndexQuery,
    folded: FoldedStats,
    exclude: FastQuery | null,
  ): Promise<FreshMatch[]> {
    // The tier as it is now: a sync may renumber its pages (a compaction) or start it over while
    // this search waits for the folded pages' statistics below.
    const held = this.#pages;
    const postings = query.column === COLUMNS.title ? this.#title : this.#text;
    const title = query.column === COLUMNS.title;
    const pages = folded.pages + this.#live;
    const ownLength = title ? this.#totalTitleLength : this.#totalLength;
    const ownAverage = this.averageLength(query.column);
    // A phrase: the pages holding every token, then those holding them in a row (scored as the
    // engine scores a phrase: the BM25 of its tokens).
    const candidates = this.#candidates({ ...query, all: query.kind === 'phrase' || query.all }, postings);
    for (const ordinal of candidates) {
      const page = held[ordinal]!;
      if (page.dead || !passesIndexFilters(page, filters)) candidates.delete(ordinal);
    }
    if (exclude) for (const ordinal of this.#candidates(exclude, this.#text)) candidates.delete(ordinal);
    // A phrase, or phrases beside other words: the pages holding each run of tokens (checked last,
    // on the fewest pages: it reads their text).
    const runs = query.kind === 'phrase' ? [query.tokens] : (query.phrases ?? []);
    for (const tokens of runs) {
      const run = tokens.join(' ');
      for (const ordinal of candidates) {
        const page = held[ordinal]!;
        if (!holdsRun(query.column === COLUMNS.title ? page.title : page.text, run)) candidates.delete(ordinal);
      }
    }
    if (candidates.size === 0) return [];
    // The tier's own pages holding each token.
    const own = query.tokens.map((token) =>
      (postings.get(token) ?? []).reduce((count, entry) => count + (held[Math.floor(entry / 1024)]!.dead ? 0 : 1), 0),
    );
    // The engine answers the counts of several tokens at once.
    const [average, frequencies] = await Promise.all([
      folded.averageLength(query.column),
      Promise.all(query.tokens.map((token) => folded.documentFrequency(token, query.column))),
    ]);
    // The folded pages' mean length, or (unknown) the tier's as an estimate of it.
    const foldedAverage = average ?? ownAverage;
    const averageLength = (foldedAverage * folded.pages + ownLength) / Math.max(1, pages);
    const scores = new Map<number, number>();
    for (const [i, token] of query.tokens.entries()) {
      const list = postings.get(token) ?? [];
      const df = Math.min(pages, frequencies[i]! + own[i]!);
      const idf = bm25Idf(df, pages);
      for (const entry of list) {
        const ordinal = Math.floor(entry / 1024);
        if (!candidates.has(ordinal)) continue;
        const tf = entry % 1024;
        const page = held[ordinal]!;
        const length = title ? page.titleLength : page.length;
        const norm = K1 * (1 - B + (B * length) / Math.max(1, averageLength));
        scores.set(ordinal, (scores.get(ordinal) ?? 0) + (idf * tf * (K1 + 1)) / (tf + norm));
      }
    }
    return [...scores].map(([ordinal, score]) => {
      const page = held[ordinal]!;
      return { id: page.id, rowId: page.rowId, seq: page.seq, score, lang: page.lang, quality: page.quality };
    });
  }

  /** Pages holding every token (`all`) or any of them. */
  #candidates(query: FastQuery, postings: Map<string, number[]>): Set<number> {
    const lists = query.tokens.map((token) => postings.get(token) ?? []);
    const ordinals = (list: readonly number[]) => list.map((entry) => Math.floor(entry / 1024));
    if (!query.all) return new Set(lists.flatMap(ordinals));
    const [shortest, ...rest] = [...lists].sort((a, b) => a.length - b.length);
    let set = new Set(ordinals(shortest ?? []));
    for (const list of rest) {
      const next = new Set(ordinals(list));
      set = new Set([...set].filter((ordinal) => next.has(ordinal)));
    }
    return set;
  }

  /**
   * Drops the pages gone (folded, written again, deleted) and their postings, the live ones
   * renumbered in order: once they outnumber the live ones, as after most folds. The tier was read
   * again whole from the table then, which a search waited for (0.2–1.2 s while a crawl writes).
   */
  #compact(): void {
    const renumbered = new Int32Array(this.#pages.length).fill(-1);
    const pages: FreshPage[] = [];
    this.#byId.clear();
    for (const [ordinal, page] of this.#pages.entries()) {
      if (page.dead) continue;
      renumbered[ordinal] = pages.length;
      this.#byId.set(page.id, pages.length);
      pages.push(page);
    }
    this.#pages = pages;
    this.#text = renumberedPostings(this.#text, renumbered);
    this.#title = renumberedPostings(this.#title, renumbered);
  }

  #reset(watermark: number): void {
    // Rows written before are read with the others.
    this.#written.clear();
    this.#watermark = watermark;
    this.#version = -1;
    this.#maxSeq = Number.NEGATIVE_INFINITY;
    this.#pages = [];
    this.#byId.clear();
    this.#text = new Map();
    this.#title = new Map();
    this.#totalLength = 0;
    this.#totalTitleLength = 0;
    this.#live = 0;
    this.#languages.clear();
  }

  /**
   * Rows this process has just written (as stored: the table's columns, `seq` set), for the next
   * sync to take in without reading them back. At most {@link MAX_WRITTEN} wait; past that (rows
   * never committed, or deleted first) they are forgotten and read from the table if they are there.
   */
  wrote(rows: readonly PageRow[]): void {
    if (this.#written.size + rows.length > MAX_WRITTEN) this.#written.clear();
    if (rows.length > MAX_WRITTEN) return;
    for (const row of rows) this.#written.set(writtenKey(row.id, row.seq), row);
  }

  /**
   * Drops pages deleted from the table: by this process (told when its delete commits), or by
   * another (found gone when a search read them). A later write of such a page is taken in again.
   */
  forget(ids: Iterable<string>): void {
    for (const id of ids) {
      const ordinal = this.#byId.get(id);
      if (ordinal !== undefined) this.#kill(ordinal);
    }
  }

  /** Whether the tier holds this row (or a later write of its page). */
  #holds(id: string, seq: number): boolean {
    const ordinal = this.#byId.get(id);
    return ordinal !== undefined && this.#pages[ordinal]!.seq >= seq;
  }

  #add(row: Record<string, unknown>): void {
    const id = row.id as string;
    if (this.#holds(id, Number(row.seq))) return;
    const earlier = this.#byId.get(id);
    if (earlier !== undefined) this.#kill(earlier);
    const ordinal = this.#pages.length;
    const text = typeof row[COLUMNS.text] === 'string' ? (row[COLUMNS.text] as string) : '';
    const title = typeof row[COLUMNS.title] === 'string' ? (row[COLUMNS.title] as string) : '';
    const tokens = splitTokens(text);
    const titleTokens = splitTokens(title);
    const page: FreshPage = {
      id,
      rowId: BigInt(row._rowid as bigint | number),
      seq: Number(row.seq),
      lang: row.lang as string,
      filetype: row.filetype as string,
      crawledMs: Number(row.crawled_ms),
      sites: [...((row.sites as Iterable<string> | null) ?? [])],
      quality: Number(row.quality),
      length: tokens.length,
      titleLength: titleTokens.length,
      text,
      title,
      dead: false,
    };
    this.#pages.push(page);
    this.#byId.set(id, ordinal);
    this.#maxSeq = Math.max(this.#maxSeq, page.seq);
    this.#totalLength += page.length;
    this.#totalTitleLength += page.titleLength;
    this.#live++;
    this.#languages.set(page.lang, (this.#languages.get(page.lang) ?? 0) + 1);
    addPostings(this.#text, ordinal, tokens);
    addPostings(this.#title, ordinal, titleTokens);
  }

  #kill(ordinal: number): void {
    const page = this.#pages[ordinal]!;
    if (page.dead) return;
    page.dead = true;
    page.text = '';
    page.title = '';
    this.#totalLength -= page.length;
    this.#totalTitleLength -= page.titleLength;
    this.#live--;
    this.#languages.set(page.lang, (this.#languages.get(page.lang) ?? 0) - 1);
  }
}

/**
 * Whether space-separated tokens hold `run` (tokens joined by spaces) as whole tokens: the run's
 * first and last tokens are not the ends of longer ones. Reads `text` in place (`' ' + text + ' '`
 * copied each page's text for every check).
 */
export function holdsRun(text: string, run: string): boolean {
  if (run === '') return true;
  for (let at = text.indexOf(run); at !== -1; at = text.indexOf(run, at + 1)) {
    const end = at + run.length;
    if ((at === 0 || text.charCodeAt(at - 1) === 32) && (end === text.length || text.charCodeAt(end) === 32))
      return true;
  }
  return false;
}

/** The tokens of an analysed column's value (space-separated, as the engine splits it). */
export function splitTokens(value: unknown): string[] {
  return typeof value === 'string' && value !== '' ? value.split(' ') : [];
}

/** Postings of the pages `renumbered` keeps (ordinal → new ordinal, -1 for a page dropped). */
function renumberedPostings(postings: Map<string, number[]>, renumbered: Int32Array): Map<string, number[]> {
  const kept = new Map<string, number[]>();
  for (const [token, list] of postings) {
    const entries: number[] = [];
    for (const entry of list) {
      const ordinal = renumbered[Math.floor(entry / 1024)]!;
      if (ordinal >= 0) entries.push(ordinal * 1024 + (entry % 1024));
    }
    if (entries.length > 0) kept.set(token, entries);
  }
  return kept;
}

function addPostings(postings: Map<string, number[]>, ordinal: number, tokens: readonly string[]): void {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  for (const [token, tf] of counts) {
    let list = postings.get(token);
    if (!list) {
      list = [];
      postings.set(token, list);
    }
    list.push(ordinal * 1024 + Math.min(tf, MAX_TF));
  }
}
