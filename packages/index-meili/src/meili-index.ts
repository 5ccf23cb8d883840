import {
  BackendUnavailableError,
  type IndexQuery,
  type IndexSearchResult,
  NonRetryableError,
  type PageDocument,
  type SearchIndex,
  ValidationError,
} from '@quarry/core';
import { type EnqueuedTaskPromise, type Index, Meilisearch, type SearchResponse } from 'meilisearch';
import { isMeiliDocumentId, type MeiliDocument, toMeiliDocument } from './document.js';
import { isNotFound, toQuarryError } from './errors.js';
import { indexSettings } from './fields.js';
import { INDEX_DEFAULTS, type MeiliIndexOptions, type TranslationOptions } from './options.js';
import { MAX_LIMIT, MAX_OFFSET, planSearch } from './plan.js';
import { EMPTY_RESULT, type MeiliResponseLike, toSearchResult } from './results.js';

type Resolved = Required<Omit<MeiliIndexOptions, 'apiKey' | keyof TranslationOptions>> & {
  readonly translation: TranslationOptions;
};

const INDEX_UID = /^[A-Za-z0-9_-]{1,400}$/;

function resolve(options: MeiliIndexOptions): Resolved {
  if (!INDEX_UID.test(options.indexName)) {
    throw new ValidationError('indexName must be 1 to 400 letters, digits, - or _.', 'indexName');
  }
  const { apiKey: _apiKey, maxOrBranches, langPriorityWeight, cropLengthWords, cjkCropLengthWords, ...rest } = options;
  const resolved = { ...INDEX_DEFAULTS, ...rest };
  if (resolved.maxTotalHits < MAX_OFFSET + MAX_LIMIT) {
    throw new ValidationError(`maxTotalHits must be at least ${MAX_OFFSET + MAX_LIMIT} so every page is reachable.`);
  }
  const translation: TranslationOptions = Object.fromEntries(
    Object.entries({ maxOrBranches, langPriorityWeight, cropLengthWords, cjkCropLengthWords }).filter(
      ([, value]) => value !== undefined,
    ),
  );
  return { ...resolved, translation };
}

/** Splits documents into batches of at most `maxDocs` documents and (unless one alone is larger) `maxBytes` JSON bytes. */
export function batchDocuments<T>(docs: readonly T[], maxDocs: number, maxBytes: number): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const doc of docs) {
    const size = Buffer.byteLength(JSON.stringify(doc), 'utf8') + 1;
    if (current.length > 0 && (current.length >= maxDocs || bytes + size > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(doc);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * The Meilisearch search index backend (distributed deployments). Writes wait for their tasks, so a
 * resolved `upsert` or `delete` is visible to the next search; a failed task throws. The query
 * translation lives in pure functions (`planSearch`, `toSearchResult`); see the package README for
 * what it maps to and its limits.
 */
export class MeiliSearchIndex implements SearchIndex {
  readonly #client: Meilisearch;
  readonly #index: Index<MeiliDocument>;
  readonly #options: Resolved;
  #closed = false;

  private constructor(client: Meilisearch, options: Resolved) {
    this.#client = client;
    this.#index = client.index<MeiliDocument>(options.indexName);
    this.#options = options;
  }

  /**
   * Connects, creates the index when missing (primary key `id`) and applies Quarry's settings,
   * waiting for both tasks. Throws `BackendUnavailableError` when the server cannot be reached.
   */
  static async open(options: MeiliIndexOptions): Promise<MeiliSearchIndex> {
    const resolved = resolve(options);
    const client = new Meilisearch({
      host: options.url,
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      timeout: resolved.requestTimeoutMs,
    });
    const index = new MeiliSearchIndex(client, resolved);
    await index.#ensureIndex();
    await index.#wait(index.#index.updateSettings(indexSettings(resolved)), 'apply the index settings');
    return index;
  }

  async #ensureIndex(): Promise<void> {
    try {
      await this.#client.getRawIndex(this.#options.indexName);
      return;
    } catch (error) {
      if (!isNotFound(error)) throw toQuarryError(error, 'read the index');
    }
    await this.#wait(this.#client.createIndex(this.#options.indexName, { primaryKey: 'id' }), 'create the index', [
      'index_already_exists',
    ]);
  }

  /** Waits for a task; throws unless it succeeded (or failed with one of the `tolerated` codes). */
  async #wait(enqueued: EnqueuedTaskPromise, action: string, tolerated: readonly string[] = []): Promise<void> {
    let task: Awaited<ReturnType<EnqueuedTaskPromise['waitTask']>>;
    try {
      task = await enqueued.waitTask({
        timeout: this.#options.taskTimeoutMs,
        interval: this.#options.taskPollIntervalMs,
      });
    } catch (error) {
      throw toQuarryError(error, action);
    }
    if (task.status === 'succeeded') return;
    const code = task.error?.code ?? task.status;
    if (tolerated.includes(code)) return;
    throw new NonRetryableError(`Meilisearch task ${task.uid} failed to ${action}: ${code}.`, 'index_task_failed');
  }

  #checkOpen(): void {
    if (this.#closed) throw new BackendUnavailableError('The Meilisearch index has been closed.');
  }

  async upsert(docs: readonly PageDocument[]): Promise<void> {
    this.#checkOpen();
    const bad = docs.find((doc) => !isMeiliDocumentId(doc.id));
    if (bad !== undefined) throw new ValidationError('A document id must be 1 to 511 letters, digits, - or _.', 'id');
    const stored = docs.map((doc) => toMeiliDocument(doc, this.#options.maxIndexedBodyChars));
    for (const batch of batchDocuments(stored, this.#options.batchSize, this.#options.maxBatchBytes)) {
      let enqueued: EnqueuedTaskPromise;
      try {
        enqueued = this.#index.addDocuments(batch, { primaryKey: 'id' });
      } catch (error) {
        throw toQuarryError(error, 'add documents');
      }
      await this.#wait(enqueued, 'add documents');
    }
  }

  async delete(ids: readonly string[]): Promise<void> {
    this.#checkOpen();
    // An id Meilisearch cannot hold cannot be indexed, so there is nothing to delete for it.
    const valid = [...new Set(ids.filter(isMeiliDocumentId))];
    for (let start = 0; start < valid.length; start += this.#options.batchSize) {
      const chunk = valid.slice(start, start + this.#options.batchSize);
      await this.#wait(this.#index.deleteDocuments(chunk), 'delete documents');
    }
  }

  async search(query: IndexQuery): Promise<IndexSearchResult> {
    this.#checkOpen();
    const plan = planSearch(this.#options.indexName, query, this.#options.translation);
    if (plan.kind === 'none') return EMPTY_RESULT;
    let response: MeiliResponseLike;
    try {
      response =
        plan.kind === 'single'
          ? await this.#index.search(plan.q, plan.params)
          : ((await this.#client.multiSearch(plan.request)) as SearchResponse);
    } catch (error) {
      throw toQuarryError(error, 'search');
    }
    return toSearchResult(response, {
      offset: query.offset,
      snippetTerms: plan.snippetTerms,
      maxTotalHits: this.#options.maxTotalHits,
    });
  }

  async has(id: string): Promise<boolean> {
    this.#checkOpen();
    if (!isMeiliDocumentId(id)) return false;
    try {
      await this.#index.getDocument(id, { fields: ['id'] });
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw toQuarryError(error, 'read a document');
    }
  }

  async count(): Promise<number> {
    this.#checkOpen();
    try {
      return (await this.#index.getStats()).numberOfDocuments;
    } catch (error) {
      throw toQuarryError(error, 'count documents');
    }
  }

  async ping(): Promise<void> {
    this.#checkOpen();
    try {
      // The index's stats, not `/health`, which answers without a key: a wrong MEILI_MASTER_KEY
      // must fail the health check as it fails every search.
      await this.#index.getStats();
    } catch (error) {
      throw new BackendUnavailableError('Meilisearch is not available.', error);
    }
  }

  /** Marks the index closed; the client holds no connection of its own, so nothing else is released. */
  async close(): Promise<void> {
    this.#closed = true;
  }
}
