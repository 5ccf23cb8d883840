import { MAX_QUERY_CLAUSES } from '@quarry/query';

/** Tuning of the query translation; every field has its default in {@link TRANSLATION_DEFAULTS}. */
export interface TranslationOptions {
  /**
   * Most conjunctions an OR query may expand to (each one is a query of a federated multi-search).
   * A query that expands to more is rejected with a `ValidationError` rather than answered in part.
   * The default is the parser's clause limit, so any flat `a OR b OR ...` the parser accepts fits;
   * products of OR groups (`(a OR b) (c OR d) ...`) hit it quickly.
   * @defaultValue 64
   */
  readonly maxOrBranches?: number;
  /**
   * Federation weight of the `lang_priority` language's queries; the other languages' queries weigh 1.
   * @defaultValue 1.2
   */
  readonly langPriorityWeight?: number;
  /** Words Meilisearch keeps around the match when cropping a space-separated body. @defaultValue 40 */
  readonly cropLengthWords?: number;
  /** Words kept when cropping a Chinese or Japanese body, whose words are one to three characters. @defaultValue 120 */
  readonly cjkCropLengthWords?: number;
}

/** Options of {@link MeiliSearchIndex.open}. */
export interface MeiliIndexOptions extends TranslationOptions {
  /** Base URL of the Meilisearch server, e.g. `http://127.0.0.1:7700`. */
  readonly url: string;
  /** Master key or an API key allowed to manage the index; never logged. */
  readonly apiKey?: string;
  /** Index uid: letters, digits, `-` and `_`. */
  readonly indexName: string;
  /** Timeout of each HTTP request to Meilisearch. @defaultValue 10_000 */
  readonly requestTimeoutMs?: number;
  /** How long to wait for an indexing or settings task before failing. @defaultValue 120_000 */
  readonly taskTimeoutMs?: number;
  /** Interval between task status polls. @defaultValue 50 */
  readonly taskPollIntervalMs?: number;
  /** Most documents per upsert request. @defaultValue 1000 */
  readonly batchSize?: number;
  /** Most JSON bytes per upsert request (Meilisearch refuses payloads over 100 MB by default). @defaultValue 20_000_000 */
  readonly maxBatchBytes?: number;
  /** Body characters indexed for search and snippets; the full text lives in the blob store. @defaultValue 100_000 */
  readonly maxIndexedBodyChars?: number;
  /** Meilisearch's `searchCutoffMs` setting: a search stops ranking after this long. @defaultValue 150 */
  readonly searchCutoffMs?: number;
  /** Meilisearch's `pagination.maxTotalHits`; must reach offset 990 + limit 100. @defaultValue 1090 */
  readonly maxTotalHits?: number;
}

/** The defaults of {@link TranslationOptions}, in one place. */
export const TRANSLATION_DEFAULTS: Required<TranslationOptions> = {
  maxOrBranches: MAX_QUERY_CLAUSES,
  langPriorityWeight: 1.2,
  cropLengthWords: 40,
  cjkCropLengthWords: 120,
};

/** The defaults of the server-facing {@link MeiliIndexOptions}, in one place. */
export const INDEX_DEFAULTS = {
  requestTimeoutMs: 10_000,
  taskTimeoutMs: 120_000,
  taskPollIntervalMs: 50,
  batchSize: 1000,
  maxBatchBytes: 20_000_000,
  maxIndexedBodyChars: 100_000,
  searchCutoffMs: 150,
  maxTotalHits: 1090,
} as const;
