import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { toFtsText } from './fts-text.js';

interface Pending {
  resolve: (texts: string[]) => void;
  reject: (error: Error) => void;
}

/**
 * Runs {@link toFtsText} on worker threads, so that segmenting Chinese and Japanese (about a
 * microsecond per character in ICU) overlaps with SQLite writing on the main thread. Falls back to
 * the calling thread when there are no threads or the worker script is not there (sources run
 * without a build, as in tests).
 */
export class FtsTextPool {
  readonly #workers: Worker[] = [];
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #nextWorker = 0;

  constructor(threads: number) {
    const script = new URL('./fts-worker.js', import.meta.url);
    if (threads <= 0 || !existsSync(fileURLToPath(script))) return;
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(script);
      worker.unref();
      worker.on('message', (message: { id: number; texts: string[] }) => {
        this.#pending.get(message.id)?.resolve(message.texts);
        this.#pending.delete(message.id);
      });
      worker.on('error', (error) => this.#failAll(error));
      this.#workers.push(worker);
    }
  }

  /** Rewrites the texts, in order. */
  async run(texts: string[]): Promise<string[]> {
    const worker = this.#workers[this.#nextWorker++ % Math.max(1, this.#workers.length)];
    if (!worker) return texts.map(toFtsText);
    const id = this.#nextId++;
    return new Promise<string[]>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.terminate()));
    this.#workers.length = 0;
    this.#failAll(new Error('text pool closed'));
  }

  #failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
