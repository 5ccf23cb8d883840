import type { ParsedQuery } from './query-ast.js';
import type { PageDocument } from './types.js';

/** The deepest a search reaches: offset 990 plus limit 100 (`offset + limit` is never more). */
export const MAX_SEARCH_DEPTH = 1090;

/** What a search asks of an index backend, already validated and normalized by the API. */
export interface IndexQuery {
  readonly query: ParsedQuery;
  /** Hard language filter, primary subtag (`zh`). */
  readonly lang?: string;
  /** The `site` parameter: host or any subdomain; ANDed with `query.sites`. */
  readonly site?: string;
  /** Only pages crawled at or after this ISO time (from `time_range`). */
  readonly crawledAfter?: string;
  /** Soft boost for this language over the whole result set; not a filter. */
  readonly langPriority?: string;
  /**
   * `all` (default, the spec's AND): every word must match. `any`: every word is optional, pages
   * matching more and rarer words rank first; operators (phrases, `-word`, `intitle:`, `site:`,
   * `filetype:`) stay hard constraints.
   */
  readonly match?: 'all' | 'any';
  /** 1 to 100. */
  readonly limit: number;
  /** 0 to 990. */
  readonly offset: number;
  /**
   * False when the caller makes the snippets of the hits it shows (the API re-ranks the first
   * results of a question and shows a page of them): a backend that hands over each hit's
   * {@link IndexHit.opening} may then leave `snippet` empty and give the words to centre it on
   * ({@link IndexHit.snippetTerms}). A backend without openings makes snippets whatever this says.
   * Default true.
   */
  readonly snippets?: boolean;
}

/** One local hit, ready to become a `source: "local"` search result. */
export interface IndexHit {
  readonly id: string;
  readonly url: string;
  readonly title: string;
  /** Plain text, about 160 to 320 characters, around the query terms when they occur. */
  readonly snippet: string;
  readonly domain: string;
  readonly site_name: string | null;
  readonly lang: string;
  /** Positive, higher is better, comparable within one response. */
  readonly score: number;
  readonly has_llms_txt: boolean;
  readonly published_at: string | null;
  readonly crawled_at: string;
  readonly filetype: string;
  /** The document's SimHash ({@link PageDocument.simhash}), for collapsing near-copies. */
  readonly simhash?: string;
  /**
   * True when the snippet was cut from the first part of a longer body (a backend keeps only the
   * body's first characters for snippets): the rest of the body may show the query's words, and
   * the API then cuts the snippet from the whole text in the blob store.
   */
  readonly snippetSourceCut?: boolean;
  /**
   * The body's opening as the backend keeps it for snippets (the embedded index: its first 8,192
   * characters), when it has it at hand: what the API reads a page's words from for feedback
   * (apps/api feedback.ts) without reading the page store. Never shown to clients.
   */
  readonly opening?: string;
  /**
   * Present when the backend left the snippet to the caller (the query asked `snippets: false`):
   * the words it centres snippets on, as it read the query (its words split and joined as it
   * searched them). The snippet is then `makeSnippet(opening, snippetTerms)` (`@quarry/text`).
   */
  readonly snippetTerms?: readonly string[];
}

export interface IndexSearchResult {
  /** Number of matching documents; exact when `totalIsEstimate` is false. */
  readonly total: number;
  /** True when the backend stopped counting at its bound and estimated the rest. */
  readonly totalIsEstimate: boolean;
  readonly hits: readonly IndexHit[];
}

/**
 * A search index backend (LanceDB embedded, Meilisearch distributed). Every backend passes the
 * shared contract suite in `@quarry/index-contract`.
 */
export interface SearchIndex {
  /** Inserts or replaces documents by `id`. Resolves once the documents are searchable. */
  upsert(docs: readonly PageDocument[]): Promise<void>;
  /** Removes documents by id; unknown ids are ignored. */
  delete(ids: readonly string[]): Promise<void>;
  search(query: IndexQuery): Promise<IndexSearchResult>;
  /** Whether a document with this id is indexed. */
  has(id: string): Promise<boolean>;
  /** Number of indexed documents. */
  count(): Promise<number>;
  /**
   * Makes everything written so far fully indexed now, instead of in the background (a backend
   * that indexes on write has nothing to do). Bulk writers (`quarry import`, `quarry reindex`)
   * call it once at the end.
   */
  flush?(): Promise<void>;
  /**
   * Of `words` (spellings of one word, each a single word), those the pages most likely to hold
   * one of them hold (the API's spelling correction asks it for a word no page holds; see
   * `apps/api/src/spelling.ts`). A spelling only a few pages hold may be missed. Optional: a
   * backend that forgives typos itself (Meilisearch) has none, and its searches are not corrected.
   */
  heldSpellings?(words: readonly string[]): Promise<string[]>;
  /** Throws a `BackendUnavailableError` when the backend cannot serve. */
  ping(): Promise<void>;
  /**
   * What the operator should act on, each a sentence naming the action (an index whose older pages
   * need `quarry reindex`); logged at startup, shown by `quarry status` and the dashboard.
   */
  notices?(): readonly string[];
  close(): Promise<void>;
}
