import { Worker } from 'node:worker_threads';
import type { PageDocument } from '@quarry/core';
import type { AnalysisReply, AnalysisRequest } from './analysis-worker.js';
import { type PageRow, type RowLimits, toRow } from './rows.js';
import { builtModuleUrl } from './util.js';

/** Pages a write must hold before shares of them are analysed on worker threads. */
export const MIN_SHARED_PAGES = 256;

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
  readonly #threads: number;
  #workers: Worker[] | null = null;
  #nextId = 1;
  readonly #waiting = new Map<
    number,
    { worker: Worker; resolve: (rows: PageRow[]) => void; reject: (error: Error) => void }
  >();

  /** @param threads - worker threads beside this one (0: every page is analysed here). */
  constructor(limits: RowLimits, threads: number) {
    this.#limits = limits;
    this.#threads = Math.max(0, Math.floor(threads));
  }

  /** The rows of these pages, in their order. */
  async rows(docs: readonly PageDocument[]): Promise<PageRow[]> {
    if (this.#threads === 0 || docs.length < MIN_SHARED_PAGES) return docs.map((doc) => toRow(doc, this.#limits));
    const workers = this.#started();
    const share = Math.ceil(docs.length / (workers.length + 1));
    const shares = workers.map((worker, i) => {
      const part = docs.slice(share * (i + 1), share * (i + 2));
      return part.length === 0
        ? Promise.resolve([])
        : this.#ask(worker, part).catch(() => part.map((doc) => toRow(doc, this.#limits)));
    });
    const mine = docs.slice(0, share).map((doc) => toRow(doc, this.#limits));
    return mine.concat(...(await Promise.all(shares)));
  }

  /** Stops the workers; a later large write starts them again. */
  async close(): Promise<void> {
    const workers = this.#workers ?? [];
    this.#workers = null;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  #started(): Worker[] {
    if (this.#workers) return this.#workers;
    const workers = Array.from({ length: this.#threads }, () => {
      const worker = new Worker(builtModuleUrl(import.meta.url, 'analysis-worker.js'), { workerData: this.#limits });
      worker.unref();
      worker.on('message', (reply: AnalysisReply) => {
        const waiting = this.#waiting.get(reply.id);
        this.#waiting.delete(reply.id);
        this.#idleUnref(worker);
        if (reply.ok) waiting?.resolve(reply.rows);
        else waiting?.reject(new Error(reply.message));
      });
      // A worker that dies fails what it was asked (its shares are then analysed here), and the
      // pool is stopped: the next large write starts it anew.
      const fail = (error: Error) => {
        if (this.#workers?.includes(worker)) void this.close();
        for (const [id, waiting] of this.#waiting) {
          if (waiting.worker !== worker) continue;
          this.#waiting.delete(id);
          waiting.reject(error);
        }
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`the analysis worker exited (${code})`)));
      return worker;
    });
    this.#workers = workers;
    return workers;
  }

  #ask(worker: Worker, docs: readonly PageDocument[]): Promise<PageRow[]> {
    const id = this.#nextId++;
    return new Promise<PageRow[]>((resolve, reject) => {
      this.#waiting.set(id, { worker, resolve, reject });
      // Held alive while it has work for this process (idle, it does not keep the process running).
      worker.ref();
      const request: AnalysisRequest = { id, docs };
      worker.postMessage(request);
    });
  }

  #idleUnref(worker: Worker): void {
    for (const waiting of this.#waiting.values()) if (waiting.worker === worker) return;
    worker.unref();
  }
}
