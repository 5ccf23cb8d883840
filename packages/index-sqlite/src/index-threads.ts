import type { IndexQuery, IndexSearchResult } from '@quarry/core';
import type { PreparedBatch } from './page-writer.js';
import type { SearchTuning } from './search.js';
import { WorkerClient } from './worker-client.js';

/** What a thread needs to open its own connection to the index file. */
export interface ThreadSettings {
  readonly path: string;
  readonly busyTimeoutMs: number;
  readonly cacheSizeKib: number;
}

/** A write for the writer thread. */
export type WriteRequest =
  | { readonly op: 'upsert'; readonly batch: PreparedBatch }
  | { readonly op: 'delete'; readonly ids: readonly string[] };

const WRITE_SCRIPT = new URL('./write-worker.js', import.meta.url);
const SEARCH_SCRIPT = new URL('./search-worker.js', import.meta.url);

/** Whether the thread scripts are there (they are not when sources run without a build, as in tests). */
export function threadsAvailable(): boolean {
  return WorkerClient.exists(WRITE_SCRIPT) && WorkerClient.exists(SEARCH_SCRIPT);
}

/**
 * The writer thread: every write of a file index on one thread with its own connection, so that
 * FTS5's tokenizing, merging and WAL writes (most of an import's CPU) overlap the caller's work.
 * Writes commit in call order; each resolves once committed (visible to every connection).
 */
export function startWriter(settings: ThreadSettings): WorkerClient<WriteRequest, null> {
  return new WorkerClient(WRITE_SCRIPT, settings, 'index writer');
}

/**
 * Search threads, each with its own read connection (WAL readers never wait for each other or for
 * the writer), so that searches use every core and a slow one never blocks the caller's event loop.
 * A search goes to the thread with the fewest searches pending.
 */
export class SearchPool {
  readonly #threads: WorkerClient<IndexQuery, IndexSearchResult>[];

  constructor(settings: ThreadSettings & { readonly tuning: SearchTuning }, threads: number) {
    this.#threads = Array.from(
      { length: Math.max(1, threads) },
      () => new WorkerClient<IndexQuery, IndexSearchResult>(SEARCH_SCRIPT, settings, 'index search'),
    );
  }

  /** Runs one search on the least busy thread. */
  search(query: IndexQuery): Promise<IndexSearchResult> {
    let best = this.#threads[0]!;
    for (const thread of this.#threads) if (thread.pending < best.pending) best = thread;
    return best.request(query);
  }

  /** Lets pending searches finish, then stops every thread. */
  async close(): Promise<void> {
    await Promise.all(this.#threads.map((thread) => thread.close()));
  }
}
