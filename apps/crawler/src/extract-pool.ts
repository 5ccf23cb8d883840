import { availableParallelism } from 'node:os';
import type { ExtractedPage } from '@quarry/extract';
import { Piscina } from 'piscina';
import extractInline, { type ExtractJob } from './extract-worker.js';

/** Runs HTML extraction off the main thread, on every core. */
export interface ExtractPool {
  extract(job: ExtractJob): Promise<ExtractedPage>;
  close(): Promise<void>;
}

/**
 * A worker-thread pool for extraction (one thread per core by default). When running from the
 * TypeScript sources (tests), worker threads cannot load `.ts` files, so extraction runs inline.
 */
export function createExtractPool(options: { threads?: number } = {}): ExtractPool {
  const workerUrl = new URL('./extract-worker.js', import.meta.url);
  const fromSources = import.meta.url.endsWith('.ts');
  const threads = options.threads ?? availableParallelism();
  if (fromSources || threads <= 0) {
    return { extract: async (job) => extractInline(job), close: async () => {} };
  }
  const pool = new Piscina({ filename: workerUrl.href, minThreads: threads, maxThreads: threads, idleTimeout: 60_000 });
  return {
    extract: (job) => pool.run(job) as Promise<ExtractedPage>,
    close: () => pool.destroy(),
  };
}
