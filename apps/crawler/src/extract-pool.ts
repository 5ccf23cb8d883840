import { availableParallelism } from 'node:os';
import { NonRetryableError, RetryableError } from '@quarry/core';
import type { ExtractedPage, MarkdownDocument } from '@quarry/extract';
import type { SitemapContent } from '@quarry/fetcher';
import { Piscina } from 'piscina';
import extractInline, {
  type ExtractBodyJob,
  type ExtractJob,
  type MarkdownBodyJob,
  type SitemapBodyJob,
} from './extract-worker.js';

/** Runs HTML extraction off the main thread, on every core. */
export interface ExtractPool {
  /** Extracts decoded HTML. */
  extract(job: ExtractJob): Promise<ExtractedPage>;
  /** Decodes a response body and extracts it, both on the pool's thread (the crawler's hot path). */
  extractBody(job: ExtractBodyJob): Promise<ExtractedPage>;
  /** Decodes a markdown file and reads it (see `extractMarkdown`) on the pool's thread. */
  extractMarkdown(job: Omit<MarkdownBodyJob, 'kind'>): Promise<MarkdownDocument>;
  /** Unzips and parses a sitemap's body (see `readSitemapResponse`) on the pool's thread. */
  readSitemap(job: Omit<SitemapBodyJob, 'kind'>): Promise<SitemapContent>;
  close(): Promise<void>;
}

type PoolJob = ExtractJob | ExtractBodyJob | MarkdownBodyJob | SitemapBodyJob;

/** The code of a page failed because no extraction thread could start (retried later). */
const EXTRACTION_UNAVAILABLE = 'extraction_unavailable';

/** The soonest a page whose extraction thread could not start is tried again. */
const UNAVAILABLE_RETRY_MS = 10_000;

/** Heap cap of one extraction thread. @defaultValue 256 MiB */
export const EXTRACT_THREAD_HEAP_MB = 256;

/**
 * Longest extraction of one page (a 5 MB page, the most extraction reads, takes about 1 s here): past it the thread is
 * stopped and replaced, so no page can hold a thread for good (a hostile page that sends some
 * pattern into long backtracking, a DOM no one expected), and the page is read again plainly.
 * @defaultValue 30 s
 */
export const EXTRACT_TIMEOUT_MS = 30_000;

/**
 * A worker-thread pool for extraction (one thread per core by default). When running from the
 * TypeScript sources (tests), worker threads cannot load `.ts` files, so extraction runs inline.
 * A page whose extraction fails (malformed beyond repair, or over the thread's heap cap) or takes
 * longer than `timeoutMs` (its thread then stopped and replaced) is read again plainly (see
 * ExtractHtmlOptions.plain; the result's `plain` is set); when that fails too, the page fails with
 * `extraction_failed` or `extraction_timeout`. `workerUrl`: another worker module (tests).
 */
export function createExtractPool(
  options: { threads?: number; maxHeapMb?: number; timeoutMs?: number; workerUrl?: URL } = {},
): ExtractPool {
  const workerUrl = options.workerUrl ?? new URL('./extract-worker.js', import.meta.url);
  const timeoutMs = options.timeoutMs ?? EXTRACT_TIMEOUT_MS;
  const fromSources = options.workerUrl === undefined && import.meta.url.endsWith('.ts');
  const threads = options.threads ?? availableParallelism();
  if (fromSources || threads <= 0) {
    return {
      extract: async (job) => extractInline(job) as ExtractedPage,
      extractBody: async (job) => extractInline(job) as ExtractedPage,
      extractMarkdown: async (job) => extractInline({ kind: 'markdown', ...job }) as MarkdownDocument,
      readSitemap: (job) => extractInline({ kind: 'sitemap', ...job }) as Promise<SitemapContent>,
      close: async () => {},
    };
  }
  const pool = new Piscina({
    filename: workerUrl.href,
    // Started as pages come, and stopped after a minute without one: an idle `quarry start` (an
    // index served, nothing to crawl) held a thread per core with its extraction modules loaded,
    // 288 MB of memory against 192 MB now; a crawl's throughput is the same (1,500 pages: 29.5 →
    // 29.7 pages/s).
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 60_000,
    // Without a cap each thread's heap grows lazily to gigabytes of garbage DOMs; a page that needs
    // more than this fails its extraction instead of the crawler's memory.
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? EXTRACT_THREAD_HEAP_MB },
  });
  // A thread that fails outside a job (out of heap, or a module that will not load, as it starts)
  // is heard here; unheard, the pool's error event would end the crawler's process. A job's own
  // failure rejects the job. Piscina starts no thread for the jobs a failed start leaves queued:
  // they waited for their deadline, then the plain reading for its own (a minute a page, every
  // page). So when no thread is left, the runs waiting are stopped and tried once more (a new run
  // starts a thread); a second failed start fails the page as retryable, with the thread's error.
  const waiting = new Set<AbortController>();
  let startError: unknown;
  pool.on('error', (error: unknown) => {
    if (pool.threads.length > 0) return;
    startError = error;
    for (const stop of waiting) stop.abort();
  });
  const attempt = async <T>(job: PoolJob, deadline: AbortSignal, retried: boolean): Promise<T> => {
    const stop = new AbortController();
    waiting.add(stop);
    try {
      return (await pool.run(job, { signal: AbortSignal.any([deadline, stop.signal]) })) as T;
    } catch (error) {
      if (stop.signal.aborted && !deadline.aborted) {
        if (!retried) return await attempt<T>(job, deadline, true);
        throw new RetryableError(
          `no extraction thread could start: ${startError instanceof Error ? startError.message : String(startError)}`,
          EXTRACTION_UNAVAILABLE,
          { cause: startError, retryInMs: UNAVAILABLE_RETRY_MS },
        );
      }
      throw error;
    } finally {
      waiting.delete(stop);
    }
  };
  const run = async <T>(job: PoolJob): Promise<T> => {
    // Aborting a running task stops its thread; the pool starts another.
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      return await attempt<T>(job, deadline, false);
    } catch (error) {
      if (error instanceof RetryableError) throw error;
      if (deadline.aborted) {
        throw new NonRetryableError(`extraction took longer than ${timeoutMs} ms`, 'extraction_timeout', error);
      }
      throw new NonRetryableError('extraction failed', 'extraction_failed', error);
    }
  };
  // A page whose full reading fails or runs out of time is read plainly (linear in its size), so
  // that it is indexed with its text rather than lost; if that fails too, the first error stands.
  const runHtml = async (job: ExtractJob | ExtractBodyJob): Promise<ExtractedPage> => {
    try {
      return await run<ExtractedPage>(job);
    } catch (error) {
      if (error instanceof RetryableError) throw error;
      try {
        return await run<ExtractedPage>({ ...job, plain: true });
      } catch {
        throw error;
      }
    }
  };
  // The body is copied to the thread, not transferred: the caller may still read it, and a small
  // Buffer's memory belongs to Node's shared allocation pool.
  return {
    extract: runHtml,
    extractBody: runHtml,
    extractMarkdown: (job) => run<MarkdownDocument>({ kind: 'markdown', ...job }),
    readSitemap: (job) => run<SitemapContent>({ kind: 'sitemap', ...job }),
    close: () => pool.destroy(),
  };
}
