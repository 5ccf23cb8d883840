import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BackendUnavailableError } from '@quarry/core';
import type { PreparedPage } from './page-writer.js';

/** What the writer thread needs to open its own connection. */
export interface WriterSettings {
  readonly path: string;
  readonly busyTimeoutMs: number;
  readonly cacheSizeKib: number;
}

/** A request to the writer thread. */
export type WriteRequest =
  | { readonly op: 'upsert'; readonly id: number; readonly pages: readonly PreparedPage[] }
  | { readonly op: 'delete'; readonly id: number; readonly ids: readonly string[] }
  | { readonly op: 'close' };

/** The writer's answer: the request committed, or why not. */
export interface WriteReply {
  readonly id: number;
  readonly error?: string;
}

interface Pending {
  resolve: () => void;
  reject: (error: Error) => void;
}

type Work = { op: 'upsert'; pages: readonly PreparedPage[] } | { op: 'delete'; ids: readonly string[] };

const SCRIPT = new URL('./write-worker.js', import.meta.url);

/**
 * Runs every write of a file index on one worker thread with its own SQLite connection, so that
 * FTS5's tokenizing, merging and WAL writes (most of an import's CPU) overlap the caller's work
 * (parsing, crawling, serving searches on the main connection). Requests are committed in the
 * order they were made; the thread starts with the first write and keeps the process alive only
 * while writes are pending.
 */
export class WriteThread {
  readonly #settings: WriterSettings;
  readonly #pending = new Map<number, Pending>();
  #worker: Worker | undefined;
  #nextId = 0;
  #failure: Error | undefined;
  #exited: Promise<void> = Promise.resolve();
  #latest: Promise<void> = Promise.resolve();

  constructor(settings: WriterSettings) {
    this.#settings = settings;
  }

  /** Whether the worker script is there (not when running from sources, as under Jest). */
  static available(): boolean {
    return existsSync(fileURLToPath(SCRIPT));
  }

  /** Resolves once the work is committed (and so visible to other connections). */
  run(work: Work): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    const worker = this.#start();
    const id = this.#nextId++;
    const done = new Promise<void>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#pending.size === 1) worker.ref();
      worker.postMessage({ ...work, id } satisfies WriteRequest);
    });
    // Replies come in request order: once the latest has settled, all have.
    this.#latest = done.catch(() => undefined);
    return done;
  }

  /** Lets pending writes finish, then closes the thread's connection and ends it. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#failure ??= new BackendUnavailableError('the SQLite search index is closed');
    if (!worker) return;
    await this.#latest;
    worker.ref();
    worker.postMessage({ op: 'close' } satisfies WriteRequest);
    await this.#exited;
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(SCRIPT, { workerData: this.#settings });
    worker.unref();
    worker.on('message', (reply: WriteReply) => {
      const pending = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) worker.unref();
      if (reply.error === undefined) pending?.resolve();
      else pending?.reject(new BackendUnavailableError(`writing to the SQLite search index failed: ${reply.error}`));
    });
    worker.on('error', (error) => this.#fail(new BackendUnavailableError('the index writer thread failed', error)));
    this.#exited = new Promise<void>((resolve) => {
      worker.once('exit', () => {
        this.#fail(new BackendUnavailableError('the index writer thread stopped'));
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
