import { hostOf } from '@quarry/core';
import type { Fetcher } from '@quarry/fetcher';

/** Hosts remembered at once; the oldest is dropped beyond (its request is long past any delay). */
const MAX_HOSTS = 10_000;

/**
 * When this process last sent each host a request of the crawler's own, beside the pages the queue
 * hands out: its robots.txt and its llms.txt. The queue spaces task starts by the host's delay, but
 * these requests come inside a task, just before its page; a task that made one is postponed until
 * the delay has passed since (see `restMs`), so a new site is asked robots.txt, llms.txt and its
 * first page a delay apart, as for every later request.
 */
export class SideRequests {
  readonly #lastAt = new Map<string, number>();
  readonly #clock: () => number;

  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
  }

  /**
   * The fetcher, noting when each request it sends has ended (answered or failed): the time it
   * started is no sure mark of when the server saw it (connecting, a busy event loop), and a delay
   * counted from the end is at least the delay the site asked for.
   */
  noting(fetcher: Pick<Fetcher, 'fetch' | 'userAgent'>): Pick<Fetcher, 'fetch' | 'userAgent'> {
    return {
      userAgent: fetcher.userAgent,
      fetch: async (url, options) => {
        try {
          return await fetcher.fetch(url, options);
        } finally {
          this.#note(url);
        }
      },
    };
  }

  /**
   * How long the host of `url` must still rest before another request, `delayMs` after the last
   * side request this process sent it ended; 0 when none is that recent (or the delay is 0).
   */
  restMs(url: string, delayMs: number): number {
    const lastAt = this.#lastAt.get(hostOf(url));
    return lastAt === undefined ? 0 : Math.max(0, lastAt + delayMs - this.#clock());
  }

  #note(url: string): void {
    let host: string;
    try {
      host = hostOf(url);
    } catch {
      return; // Not a URL the fetcher would send either.
    }
    this.#lastAt.delete(host);
    this.#lastAt.set(host, this.#clock());
    if (this.#lastAt.size > MAX_HOSTS) this.#lastAt.delete(this.#lastAt.keys().next().value ?? '');
  }
}
