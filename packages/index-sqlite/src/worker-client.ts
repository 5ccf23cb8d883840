import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BackendUnavailableError } from '@quarry/core';

/** A request to a worker thread, or the order to close its connection and stop. */
export type WorkerRequest<Body> = { readonly id: number; readonly body: Body } | { readonly close: true };

/** A worker's answer to one request. */
export type WorkerReply<Result> =
  | { readonly id: number; readonly result: Result }
  | { readonly id: number; readonly error: string };

interface Pending<Result> {
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

/**
 * One worker thread answering requests in order (see {@link serveRequests} for its side). The
 * thread starts with the first request and keeps the process alive only while requests are
 * pending; when it fails, every pending and later request is rejected.
 */
export class WorkerClient<Body, Result> {
  readonly #script: URL;
  readonly #workerData: unknown;
  readonly #name: string;
  readonly #pending = new Map<number, Pending<Result>>();
  #worker: Worker | undefined;
  #nextId = 0;
  #failure: Error | undefined;
  #exited: Promise<void> = Promise.resolve();
  #latest: Promise<unknown> = Promise.resolve();

  /** `name` says what the thread does, in error messages (`index writer`). */
  constructor(script: URL, workerData: unknown, name: string) {
    this.#script = script;
    this.#workerData = workerData;
    this.#name = name;
  }

  /** Whether a worker script is there (not when running from sources, as under Jest). */
  static exists(script: URL): boolean {
    return existsSync(fileURLToPath(script));
  }

  /** Requests not answered yet. */
  get pending(): number {
    return this.#pending.size;
  }

  /**
   * Sends one request; resolves with the worker's result, rejects with its error. Buffers in
   * `transfer` move to the worker (unusable here afterwards) instead of being copied.
   */
  request(body: Body, transfer: readonly ArrayBuffer[] = []): Promise<Result> {
    if (this.#failure) return Promise.reject(this.#failure);
    const worker = this.#start();
    const id = this.#nextId++;
    const answer = new Promise<Result>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#pending.size === 1) worker.ref();
      worker.postMessage({ id, body } satisfies WorkerRequest<Body>, transfer);
    });
    // Answers come in request order: once the latest has settled, all have.
    this.#latest = answer.catch(() => undefined);
    return answer;
  }

  /** Lets pending requests finish, then has the worker close its connection and stop. */
  async close(): Promise<void> {
    this.#failure ??= new BackendUnavailableError('the SQLite search index is closed');
    const worker = this.#worker;
    if (!worker) return;
    await this.#latest;
    worker.ref();
    worker.postMessage({ close: true } satisfies WorkerRequest<Body>);
    await this.#exited;
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#script, { workerData: this.#workerData });
    worker.unref();
    worker.on('message', (reply: WorkerReply<Result>) => {
      const pending = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) worker.unref();
      if ('error' in reply) pending?.reject(new BackendUnavailableError(`${this.#name}: ${reply.error}`));
      else pending?.resolve(reply.result);
    });
    worker.on('error', (error) => this.#fail(new BackendUnavailableError(`${this.#name} thread failed`, error)));
    this.#exited = new Promise<void>((resolve) => {
      worker.once('exit', () => {
        this.#fail(new BackendUnavailableError(`${this.#name} thread stopped`));
        resolve();
      });
    });
    this.#worker = worker;
    return worker;
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
