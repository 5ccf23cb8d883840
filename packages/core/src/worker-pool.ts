import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

/**
 * Worker threads (a `piscina` pool) that each turn a batch of items into results with the function
 * the module at `url` exports as its default, started with `data` as their `workerData`. For the
 * CPU-bound work of bulk writes (a page's analysis, an import line's parsing) that would otherwise
 * leave the other cores idle while the main thread works.
 *
 * The threads start at the first batch; idle, they do not keep the process alive. A batch whose
 * thread fails or dies is rejected (the caller then does that work itself) and the thread is
 * replaced. {@link close} rejects the batches in flight; a later batch starts the pool again.
 */
export class WorkerPool<I, O> {
  /** Worker threads in the pool (0: {@link run} always rejects; the caller works alone). */
  readonly size: number;
  readonly #url: URL;
  readonly #data: unknown;
  #pool: Piscina | null = null;

  /**
   * @param url - the worker module (see {@link builtModuleUrl})
   * @param threads - worker threads
   * @param data - what each thread is started with (`workerData`)
   */
  constructor(url: URL, threads: number, data?: unknown) {
    this.#url = url;
    this.size = Math.max(0, Math.floor(threads));
    this.#data = data;
  }

  /** The results of `items`, one per item in order, computed on one of the threads. */
  async run(items: readonly I[]): Promise<O[]> {
    if (this.size === 0) throw new Error('the pool has no worker threads');
    if (this.#pool === null) {
      const pool = new Piscina({
        filename: this.#url.href,
        minThreads: this.size,
        maxThreads: this.size,
        workerData: this.#data,
      });
      // A thread that fails outside a batch (its module does not load) would leave the batches
      // queued for good: the pool is stopped, which rejects them.
      pool.on('error', () => {
        if (this.#pool === pool) void this.close();
      });
      this.#pool = pool;
    }
    return (await this.#pool.run(items)) as O[];
  }

  /** Stops the threads; batches in flight are rejected. A later batch starts them again. */
  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = null;
    await pool?.destroy();
  }
}

/**
 * The URL of a built module of a package that runs apart (a worker thread, a child process):
 * beside the calling module, or in `dist/` when the caller runs from its source (tests).
 *
 * @param here - the caller's `import.meta.url`
 * @param name - the module's file name in `dist/`, e.g. `fold-worker.js`
 */
export function builtModuleUrl(here: string, name: string): URL {
  const beside = new URL(`./${name}`, here);
  if (!here.endsWith('.ts')) return beside;
  // `…/pkg/src/a/b.ts` → `…/pkg/dist/a/<name>`: the last `/src/` of the path is the package's.
  const at = beside.pathname.lastIndexOf('/src/');
  return new URL(`${beside.pathname.slice(0, at)}/dist/${beside.pathname.slice(at + '/src/'.length)}`, beside);
}

/**
 * Worker threads for a bulk job beside the main thread: one per core beyond the first (the main
 * thread and the engine want one), at most `max`.
 */
export function helperThreads(max: number): number {
  return Math.min(max, Math.max(0, availableParallelism() - 1));
}
