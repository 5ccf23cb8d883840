import { Worker } from 'node:worker_threads';
import { NonRetryableError } from '@quarry/core';

/** How long and how much heap one worker run may take. */
export interface WorkerBudget {
  readonly timeoutMs: number;
  readonly maxHeapMb: number;
}

type WorkerReply<T> = { ok: true; result: T } | { ok: false; error: { code: string; message: string } };

/**
 * Runs `script` (a file URL, or source with `eval`) in a fresh worker with `data`, and resolves
 * with the result it posts. The worker is terminated when it answers, when `timeoutMs` passes
 * (`document_timeout`), or when it runs out of heap (`document_too_large`); whatever it did
 * cannot block this thread. All failures are `NonRetryableError`s: the same bytes fail again.
 */
export function runWorker<T>(
  script: URL | string,
  data: unknown,
  budget: WorkerBudget,
  options: { eval?: boolean } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(script, {
      eval: options.eval ?? false,
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
      void worker.terminate();
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
