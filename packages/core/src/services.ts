import type { ParsedQuery } from './query-ast.js';
import type { PageDocument, SearchResult } from './types.js';

/** Full page text by id: JSON blobs in the data dir (or on a shared volume). */
export interface BlobStore {
  /** Writes atomically: a reader sees the old document or the new one, never a torn file. */
  put(doc: PageDocument): Promise<void>;
  /** Writes several documents (each atomically), with bounded parallelism. */
  putMany(docs: readonly PageDocument[]): Promise<void>;
  get(id: string): Promise<PageDocument | null>;
  has(id: string): Promise<boolean>;
  delete(id: string): Promise<void>;
}

/** What the API asks the external fallback for one search. */
export interface FallbackRequest {
  /** `q` as the user wrote it. */
  readonly q: string;
  readonly query: ParsedQuery;
  readonly lang?: string;
  readonly site?: string;
  /** `1d`, `7d`, `30d`, `1y` or `all`. */
  readonly timeRange?: string;
  /** How many external results are wanted. */
  readonly count: number;
}

/**
 * An external web-search fallback (SearXNG, Brave). `search` never rejects: on a timeout, an open
 * circuit, a bad answer or an abort it resolves to `[]`, so the API can always serve local results.
 * Results have `source: "external"` and `id: ""`.
 */
export interface FallbackSearcher {
  readonly name: string;
  search(request: FallbackRequest, signal?: AbortSignal): Promise<SearchResult[]>;
}

/** A dedicated API key as stored: never the key itself, only its hash and a display prefix. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly name: string;
  /** Requests per minute allowed for this key. */
  readonly limitPerMin: number;
  /** First characters of the key, for telling keys apart in listings. */
  readonly prefix: string;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

/** Operator-issued API keys, stored hashed. */
export interface KeyStore {
  /** Creates a key; the plain key is returned once and never stored. */
  create(name: string, limitPerMin: number): Promise<{ record: ApiKeyRecord; key: string }>;
  list(): Promise<ApiKeyRecord[]>;
  /** Revokes by id; false when there is no such key. Takes effect on every API process within seconds. */
  revoke(id: string): Promise<boolean>;
  /** The active record for a presented key, or null for an unknown or revoked key. */
  verify(key: string): Promise<ApiKeyRecord | null>;
  close(): Promise<void>;
}

/** Where URLs found outside the crawl (e.g. by the fallback) can be queued for crawling. */
export interface UrlSubmitter {
  submit(urls: readonly string[]): Promise<void>;
}
