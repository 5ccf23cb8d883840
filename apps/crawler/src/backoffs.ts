import { type HostBackoff, hostOf, QuarryError, RetryableError } from '@quarry/core';

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
