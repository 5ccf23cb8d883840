import { Worker } from 'node:worker_threads';
import { NonRetryableError } from '@quarry/core';

/** How long and how much heap one worker run may take. */
export interface WorkerBudget {
  readonly timeoutMs: number;
  readonly maxHeapMb: number;
}

type WorkerReply<T> = { ok: true; result: T } | { ok: false; error: { code: string; message: string } };

/**
 * How many workers may run at once; a run past that waits its turn (first come, first served), and
 * its budget starts when its worker does. Each worker may take its heap budget and the buffers it
 * holds beside it, which the heap limit does not count: those are bounded by the readers' own
 * caps (the unzipped size of a package, the inflated size of a PDF's streams, the text budget), so
 * the number of workers times those bounds is the memory untrusted input can take.
 */
export class WorkerSlots {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    this.#free = Math.max(1, Math.floor(size));
  }

  /** Resolves when a slot is free, with the function that gives it back (once). */
  async take(): Promise<() => void> {
    if (this.#free > 0) this.#free -= 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free += 1;
    };
  }
}

/**
 * Runs `script` (a file URL, or source with `eval`) in a fresh worker with `data`, and resolves
 * with the result it posts. The worker is terminated when it answers, when `timeoutMs` passes
 * (`document_timeout`), or when it runs out of heap (`document_too_large`); whatever it did
 * cannot block this thread. All failures are `NonRetryableError`s: the same bytes fail again.
 * With `slots`, the worker starts once one is free and gives it back when it has ended.
 */
export async function runWorker<T>(
  script: URL | string,
  data: unknown,
  budget: WorkerBudget,
  options: { eval?: boolean; slots?: WorkerSlots } = {},
): Promise<T> {
  const release = options.slots ? await options.slots.take() : () => {};
  try {
    return await startWorker<T>(script, data, budget, options.eval ?? false, release);
  } catch (error) {
    release();
    throw error;
  }
}

/** One worker run; `release` is called once the worker has exited, however it ended. */
function startWorker<T>(
  script: URL | string,
  data: unknown,
  budget: WorkerBudget,
  evaluated: boolean,
  release: () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(script, {
      eval: evaluated,
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: budget.maxHeapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    // Library chatter (pdf.js warnings) must not reach our logs; drain and drop it.
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // The slot is given back once the thread is gone (its heap with it), not when it answered.
      worker.terminate().then(release, release);
      outcome();
    };
    const timer = setTimeout(
      () =>
        finish(() => reject(new NonRetryableError(`extraction took over ${budget.timeoutMs} ms`, 'document_timeout'))),
      budget.timeoutMs,
    );
    worker.once('message', (reply: WorkerReply<T>) =>
      finish(() =>
        reply.ok ? resolve(reply.result) : reject(new NonRetryableError(reply.error.message, reply.error.code)),
      ),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new NonRetryableError('extraction ran out of memory', 'document_too_large', error)
            : new NonRetryableError(`extraction failed: ${error.message}`, 'document_unreadable', error),
        ),
      ),
    );
    worker.once('exit', (code) =>
      finish(() => reject(new NonRetryableError(`extraction worker exited (${code})`, 'document_unreadable'))),
    );
  });
}
