import { type HostBackoff, hostOf, QuarryError, RetryableError } from '@quarry/core';
import type { BackoffBoard } from '@quarry/queue';

/**
 * How long a host stays listed after a retryable failure when it asked for no Retry-After (the
 * queue's own retry backoff starts at a few seconds and doubles); a later outcome on the host
 * clears it sooner. @defaultValue 30 s
 */
export const BACKOFF_SHOWN_MS = 30_000;

/** Hosts listed at once; the oldest go beyond. */
const MAX_HOSTS = 10_000;

/**
 * The hosts this process's crawl workers are backing off from: a host whose last task failed with a
 * retryable error (429, 503, a timeout) is listed until one of its tasks ends otherwise, or until
 * its Retry-After (at least {@link BACKOFF_SHOWN_MS}) has passed. For progress lines.
 */
export class BackoffWatch {
  readonly #hosts = new Map<string, HostBackoff>();
  readonly #clock: () => number;

  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
  }

  /**
   * Notes how a task on `url` ended: a thrown error, or an outcome (`undefined` error). Returns the
   * back-off a retryable error started, the host when another ending cleared its back-off, or null.
   */
  note(url: string, error: unknown): HostBackoff | { readonly cleared: string } | null {
    const host = hostOf(url);
    if (!(error instanceof QuarryError && error.retryable)) {
      return this.#hosts.delete(host) ? { cleared: host } : null;
    }
    const retryAfterMs = error instanceof RetryableError ? (error.retryAfterSecs ?? 0) * 1000 : 0;
    this.#hosts.delete(host);
    const backoff = { host, reason: error.code, untilMs: this.#clock() + Math.max(retryAfterMs, BACKOFF_SHOWN_MS) };
    this.#hosts.set(host, backoff);
    this.#prune();
    return backoff;
  }

  /**
   * Drops the oldest entries while they have expired, and beyond {@link MAX_HOSTS}: a worker that
   * shows no progress lines never asks for {@link current}, and would keep every host that ever
   * failed.
   */
  #prune(): void {
    const now = this.#clock();
    for (const [host, backoff] of this.#hosts) {
      if (backoff.untilMs > now && this.#hosts.size <= MAX_HOSTS) break;
      this.#hosts.delete(host);
    }
  }

  /** The hosts backed off from now, the most recent first. */
  current(): HostBackoff[] {
    const now = this.#clock();
    for (const [host, backoff] of this.#hosts) if (backoff.untilMs <= now) this.#hosts.delete(host);
    return [...this.#hosts.values()].reverse();
  }
}

/**
 * How often a worker reads the shared board for the hosts other workers back off from (at most,
 * and only while tasks end): a task of one of them ending otherwise here ends it for every process.
 */
export const BOARD_READ_MS = 5000;

/**
 * A process's {@link BackoffWatch} and, in distributed mode, the queues' shared board
 * (`Queues.backoffs`): a back-off this process starts is noted there, and it is cleared there when
 * a task of the host ends otherwise in this process, whichever worker noted it (the board is read
 * at most every {@link BOARD_READ_MS} for the hosts others noted). The board is written beside the
 * crawl, never waited for; its errors go to `onError`.
 */
export class SharedBackoffs {
  readonly #watch: BackoffWatch;
  readonly #board: BackoffBoard | undefined;
  readonly #onError: (err: unknown) => void;
  readonly #clock: () => number;
  /** The hosts on the board when it was last read, less those cleared since. */
  #onBoard = new Set<string>();
  #readAt = Number.NEGATIVE_INFINITY;
  #reading = false;

  constructor(
    watch: BackoffWatch,
    board: BackoffBoard | undefined,
    onError: (err: unknown) => void,
    clock: () => number = Date.now,
  ) {
    this.#watch = watch;
    this.#board = board;
    this.#onError = onError;
    this.#clock = clock;
    this.#read();
  }

  /** Notes how a task on `url` ended (see BackoffWatch.note), here and on the board. */
  note(url: string, error: unknown): void {
    const change = this.#watch.note(url, error);
    const board = this.#board;
    if (!board) return;
    this.#read();
    if (change === null) {
      // Another ending of a host this process did not back off from: another worker may have.
      const host = hostOf(url);
      if (this.#onBoard.delete(host)) board.clear(host).catch(this.#onError);
    } else if ('cleared' in change) {
      this.#onBoard.delete(change.cleared);
      board.clear(change.cleared).catch(this.#onError);
    } else {
      board.note(change).catch(this.#onError);
    }
  }

  /** Reads the board's hosts again when the last read is {@link BOARD_READ_MS} old. */
  #read(): void {
    const board = this.#board;
    if (!board || this.#reading || this.#clock() - this.#readAt < BOARD_READ_MS) return;
    this.#reading = true;
    this.#readAt = this.#clock();
    board
      .current()
      .then((listed) => {
        this.#onBoard = new Set(listed.map((backoff) => backoff.host));
      }, this.#onError)
      .finally(() => {
        this.#reading = false;
      });
  }
}
