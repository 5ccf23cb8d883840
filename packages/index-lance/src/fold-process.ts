import { type ChildProcess, fork } from 'node:child_process';
import { builtModuleUrl } from '@quarry/core';
import type { FoldResult } from './fold.js';

/** A fold asked of the fold process. */
export interface FoldRequest {
  readonly id: number;
  /** The LanceDB database directory and the table in it. */
  readonly path: string;
  readonly table: string;
  readonly keepVersionsMs: number;
  readonly floor: number;
}

export type FoldReply =
  | ({ readonly id: number; readonly ok: true } & FoldResult)
  | { readonly id: number; readonly ok: false; readonly message: string };

/**
 * Background folds in a child process of low CPU priority (`fold-worker.ts`). A fold rebuilds the
 * full-text indexes (minutes of CPU at a million pages) and the engine runs it on every core; in
 * this process it would take the CPU from searches. The child is started at the first fold and
 * kept for the next ones; it is killed at close (a fold cut short commits nothing: the table stays
 * at its last version, and the next fold starts over).
 */
export class FoldProcess {
  readonly #path: string;
  readonly #table: string;
  readonly #priority: number;
  #child: ChildProcess | null = null;
  #nextId = 1;
  readonly #waiting = new Map<number, { resolve: (r: FoldResult) => void; reject: (e: Error) => void }>();

  constructor(path: string, table: string, priority: number) {
    this.#path = path;
    this.#table = table;
    this.#priority = priority;
  }

  /** Folds in the child; rejects if the fold fails or the child dies. */
  fold(keepVersionsMs: number, floor: number): Promise<FoldResult> {
    const child = this.#started();
    const id = this.#nextId++;
    return new Promise<FoldResult>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      const request: FoldRequest = { id, path: this.#path, table: this.#table, keepVersionsMs, floor };
      child.send(request, (error) => {
        if (error) this.#settle({ id, ok: false, message: error.message });
      });
    });
  }

  close(): void {
    const child = this.#child;
    this.#child = null;
    child?.kill('SIGKILL');
    this.#failAll('the index was closed during a fold');
  }

  #started(): ChildProcess {
    if (this.#child) return this.#child;
    const child = fork(builtModuleUrl(import.meta.url, 'fold-worker.js'), [], {
      // Not the parent's flags (a test runner's, an inspector's): a plain Node process.
      execArgv: [],
      env: { ...process.env, QUARRY_FOLD_PRIORITY: String(this.#priority) },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
    // The engine's own warnings are not ours to log; a failed fold is reported by its reply.
    child.stderr?.resume();
    child.on('message', (reply: FoldReply) => this.#settle(reply));
    // A process that could not start (or a failed send) fails the waiting folds; the next fold
    // starts another.
    child.on('error', (error) => {
      if (this.#child === child) this.#child = null;
      this.#failAll(`the fold process failed: ${error.message}`);
    });
    child.on('exit', () => {
      if (this.#child === child) this.#child = null;
      this.#failAll('the fold process exited');
    });
    // A fold in progress must not keep a finished parent alive.
    child.unref();
    child.channel?.unref();
    this.#child = child;
    return child;
  }

  #settle(reply: FoldReply): void {
    const waiter = this.#waiting.get(reply.id);
    if (!waiter) return;
    this.#waiting.delete(reply.id);
    if (reply.ok) waiter.resolve({ through: reply.through, version: reply.version });
    else waiter.reject(new Error(`fold failed: ${reply.message}`));
  }

  #failAll(message: string): void {
    for (const waiter of this.#waiting.values()) waiter.reject(new Error(message));
    this.#waiting.clear();
  }
}
