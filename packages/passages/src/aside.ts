import { builtModuleUrl, WorkerPool } from '@quarry/core';
import { type Passage, type PassageRequest, selectPassages } from './passages.js';

/**
 * Pages from this long (characters of body text) have their passages selected on a worker thread.
 * Selecting reads every word of the page (its tokens counted, its words stemmed): about 0.6 s a
 * megabyte of text the first time, 3 s for a 5 MB document, during which the main thread answered
 * no one else: a public content request held every search. A page of ordinary length is quicker
 * selected on the spot than sent to a thread and back.
 */
export const ASIDE_MIN_CHARS = 100_000;

let pool: WorkerPool<PassageRequest, Passage[]> | null = null;

/**
 * {@link selectPassages}, on a worker thread for a long page (see {@link ASIDE_MIN_CHARS}), so that
 * the calling thread goes on serving. One thread for the process: long pages wait their turn there
 * rather than take more cores from searches. Where the thread fails, the passages are selected on
 * the calling thread.
 */
export async function selectPassagesAside(request: PassageRequest): Promise<Passage[]> {
  if (request.bodyText.length < ASIDE_MIN_CHARS) return selectPassages(request);
  pool ??= new WorkerPool<PassageRequest, Passage[]>(builtModuleUrl(import.meta.url, 'passage-worker.js'), 1);
  try {
    const [passages] = await pool.run([request]);
    if (passages) return passages;
  } catch {
    // Selected below.
  }
  return selectPassages(request);
}

/** Stops the worker thread, if one was started (a later long page starts it again). */
export async function closePassageThread(): Promise<void> {
  const running = pool;
  pool = null;
  await running?.close();
}
