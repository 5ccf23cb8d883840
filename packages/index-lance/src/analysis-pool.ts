import { builtModuleUrl, type PageDocument, WorkerPool } from '@quarry/core';
import { type PageRow, type RowLimits, toRow } from './rows.js';

/** Pages a write must hold before shares of them are analysed on worker threads. */
export const MIN_SHARED_PAGES = 256;
/** Longest stretch of analysis on the calling thread before it lets the event loop run. */
const SLICE_MS = 10;

/**
 * Turns pages into rows (`toRow`: the analysis, most of a bulk import's CPU) on this thread and, for
 * writes of {@link MIN_SHARED_PAGES} pages or more, on worker threads beside it, each taking an equal
 * share. A bulk import was bound by the analysis on the main thread (292 µs a page) while the engine's
 * append waited for it and the other cores idled. The workers start at the first large write (a crawl's
 * small writes never start them) and do not keep the process alive. A worker that fails or dies only
 * costs speed: its share is analysed here.
 */
export class AnalysisPool {
  readonly #limits: RowLimits;
  readonly #pool: WorkerPool<PageDocument, PageRow>;

  /** @param threads - worker threads beside this one (0: every page is analysed here). */
  constructor(limits: RowLimits, threads: number) {
    this.#limits = limits;
    this.#pool = new WorkerPool(builtModuleUrl(import.meta.url, 'analysis-worker.js'), threads, limits);
  }

  /** The rows of these pages, in their order. */
  async rows(docs: readonly PageDocument[]): Promise<PageRow[]> {
    if (this.#pool.size === 0 || docs.length < MIN_SHARED_PAGES) return this.#here(docs);
    const share = Math.ceil(docs.length / (this.#pool.size + 1));
    const shares = Array.from({ length: this.#pool.size }, (_, i) => {
      const part = docs.slice(share * (i + 1), share * (i + 2));
      return part.length === 0 ? Promise.resolve([]) : this.#pool.run(part).catch(() => this.#here(part));
    });
    const mine = await this.#here(docs.slice(0, share));
    return mine.concat(...(await Promise.all(shares)));
  }

  /**
   * Pages analysed on this thread, which lets the event loop run every {@link SLICE_MS}: a crawl's
   * batch of long pages held it (and the searches a `quarry start` serves) for up to 180 ms.
   */
  async #here(docs: readonly PageDocument[]): Promise<PageRow[]> {
    const rows: PageRow[] = [];
    let since = performance.now();
    for (const doc of docs) {
      if (performance.now() - since >= SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        since = performance.now();
      }
      rows.push(toRow(doc, this.#limits));
    }
    return rows;
  }

  /** Stops the workers; a later large write starts them again. */
  close(): Promise<void> {
    return this.#pool.close();
  }
}
