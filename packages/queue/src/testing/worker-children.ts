import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const register = fileURLToPath(new URL('./register-ts.mjs', import.meta.url));
const childScript = fileURLToPath(new URL('./bullmq-worker-child.ts', import.meta.url));

/** A crawler process of bullmq-worker-child.ts, for a test to kill. */
export interface WorkerChild {
  readonly name: string;
  readonly proc: ChildProcessByStdio<null, Readable, null>;
  /** What it printed so far (`ready`, `hang <url>`). */
  output: string;
  /** Resolves with the signal that ended it (null for an exit). */
  readonly exited: Promise<NodeJS.Signals | null>;
}

/**
 * Starts a worker process on the Redis at `redisUrl` under `prefix`. It hangs on the first try of
 * a URL ending in /hang among all the children of the prefix, or on every try with `hang: 'always'`.
 */
export function startWorkerChild(
  redisUrl: string,
  prefix: string,
  name: string,
  options: { readonly hang?: 'first' | 'always' } = {},
): WorkerChild {
  const proc = spawn(
    process.execPath,
    ['--import', register, childScript, redisUrl, prefix, name, options.hang ?? 'first'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const child: WorkerChild = {
    name,
    proc,
    output: '',
    exited: new Promise((resolve) => proc.on('exit', (_code, signal) => resolve(signal))),
  };
  proc.stdout.on('data', (chunk: Buffer) => {
    child.output += chunk.toString();
  });
  return child;
}
