import { setTimeout as sleep } from 'node:timers/promises';
import { hostOf } from '@quarry/core';
import type { Fetcher, FetchRequestOptions, FetchResult } from '@quarry/fetcher';

/** Hosts remembered at once; the oldest is dropped beyond (its request is long past any delay). */
const MAX_HOSTS = 10_000;
/**
 * Longest wait a task's own request makes in place for its host's delay to pass; a longer rest
 * sends the task back to the queue, holding no worker.
 */
export const MAX_INLINE_REST_MS = 500;
/**
 * How long a task goes back to the queue for when its host is still answering another request of
 * this process after the task waited its short while (the host's delay when longer): how long the
 * host will take is unknown.
 */
export const BUSY_HOST_REST_MS = 1_000;

/**
 * When this process last sent each host a request of the crawler's own, beside the pages the queue
 * hands out: its robots.txt and its llms.txt. The queue spaces task starts by the host's delay, but
 * these requests come inside a task, just before its page; a task that made one is postponed until
 * the delay has passed since (see `restMs`), so a new site is asked robots.txt, llms.txt and its
 * first page a delay apart, as for every later request.
 *
 * It also paces the tasks' own requests (see `pace`). The queue counts a host's delay from the
 * start of its last task, or from the request that task reports (`sinceSentMs`), but a request
 * leaves some time after its task starts (the checks before it, a busy event loop), and a task that
 * fails reports nothing, a host may run two tasks at once (`perHostConcurrency`), and a rendered
 * page is asked twice in one task: without this, two requests could reach a site closer than the
 * delay it asked for.
 *
 * And it keeps one request of this process in flight per host, whatever sends it: a task's page, a
 * redirect hop of another host's task, robots.txt or llms.txt. Spacing arrivals is not enough: a
 * host slow to answer (3 s) was sent a redirect's hop while the page it was answering was not done.
 * Each hop of a request through `noting` or `ending` holds its host until its answer is in, and
 * waits for the host's other request first; `pace` also waits (its short while) for that request
 * to end, then for the delay after it.
 */
export class SideRequests {
  readonly #lastAt = new Map<string, number>();
  /** When this process last sent each host a task's own request (a page, a sitemap). */
  readonly #pageAt = new Map<string, number>();
  /** The hosts answering a request of this process: each resolves when its answer is in. */
  readonly #busy = new Map<string, Promise<void>>();
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
          return await this.#oneAtATime(fetcher, url, options, (hop) => this.#note(hop));
        } finally {
          this.#note(url);
        }
      },
    };
  }

  /**
   * The fetcher for a task's own requests (its page, its sitemap), noting each as sent again when
   * it ends, for the host asked and the host that answered after redirects: `pace` counts from the
   * moment a request is handed over, but it may reach the site later (a busy event loop, a slow
   * connection), and the next request, handed over a delay after the first, then arrived closer
   * than the delay (830 ms for 1 s was seen). Counted from the end, the gap is the delay at least.
   */
  ending(fetcher: Pick<Fetcher, 'fetch'>): Pick<Fetcher, 'fetch'> {
    return {
      fetch: async (url, options) => {
        let finalUrl: string | undefined;
        try {
          const res = await this.#oneAtATime(fetcher, url, options, (hop) => this.sentNow(hop));
          finalUrl = res.finalUrl;
          return res;
        } finally {
          this.sentNow(url);
          if (finalUrl !== undefined && finalUrl !== url) this.sentNow(finalUrl);
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

  /**
   * Paces a task's own request to `url` (its page or its sitemap): waits in place until `delayMs`
   * has passed since the last such request this process sent the host, and notes this one as sent.
   * Resolves to 0 then, or, sending nothing, to how long the host must still rest when that is
   * longer than `maxWaitMs` (the task goes back to the queue until then). Counted from when the
   * last request was handed to the fetcher, or from its end when it went through `ending`, so the
   * gap a site sees is the delay at least, whatever ran before each request in its task. Requests
   * of other processes are the queue's to space.
   *
   * The request is noted before the wait, at the moment it will leave: a request to the host paced
   * during the wait counts from it, not from the same last request, which both would have waited
   * out to leave together (redirect hops of tasks of other hosts, back from the queue at once,
   * reached their target within a millisecond of each other).
   *
   * A host still answering another request of this process is waited for first, within the same
   * `maxWaitMs`, and the delay counts from its end; when it takes longer, the rest is
   * {@link BUSY_HOST_REST_MS} or the delay, whichever is longer.
   */
  async pace(url: string, delayMs: number, signal?: AbortSignal, maxWaitMs = MAX_INLINE_REST_MS): Promise<number> {
    const host = hostOf(url);
    const waitUntil = this.#clock() + maxWaitMs;
    for (let busy = this.#busy.get(host); busy; busy = this.#busy.get(host)) {
      const leftMs = waitUntil - this.#clock();
      if (leftMs <= 0 || !(await endsWithin(busy, leftMs, signal))) return Math.max(delayMs, BUSY_HOST_REST_MS);
    }
    const lastAt = this.#pageAt.get(host);
    const now = this.#clock();
    const restMs = lastAt === undefined ? 0 : lastAt + delayMs - now;
    if (restMs > waitUntil - now) return restMs;
    remember(this.#pageAt, host, now + Math.max(0, restMs));
    if (restMs > 0) await sleep(restMs, undefined, { signal });
    return 0;
  }

  /**
   * How long ago this process sent `url`'s host a task's own request (see `pace`); undefined when
   * it has sent none (or none it still remembers).
   */
  sinceSentMs(url: string): number | undefined {
    const sentAt = this.#pageAt.get(hostOf(url));
    return sentAt === undefined ? undefined : Math.max(0, this.#clock() - sentAt);
  }

  /**
   * Notes a task's own request to `url`'s host as sent now: when it ends (see `ending`), and for
   * requests whose leaving the crawler does not see (a browser's, noted when its render ends).
   */
  sentNow(url: string): void {
    this.#mark(this.#pageAt, url);
  }

  #note(url: string): void {
    this.#mark(this.#lastAt, url);
  }

  /**
   * Fetches `url` one request in flight per host: each hop (the first request, then each redirect
   * followed) waits for its host's other request to end and holds the host until its own answer is
   * in, when `ended` notes it. A hop lets its host go before the redirect's checks run (the target's
   * robots.txt, on that host maybe), so a redirect to the same host, or back to an earlier one,
   * waits for nothing of its own.
   */
  async #oneAtATime(
    fetcher: Pick<Fetcher, 'fetch'>,
    url: string,
    options: FetchRequestOptions = {},
    ended: (url: string) => void,
  ): Promise<FetchResult> {
    let hop = url;
    let release = await this.#hold(url, options.signal);
    let done = false;
    const endHop = () => {
      release();
      release = () => {};
      ended(hop);
    };
    try {
      return await fetcher.fetch(url, {
        ...options,
        beforeRedirect: async (target, signal) => {
          endHop();
          await options.beforeRedirect?.(target, signal);
          const held = await this.#hold(target, signal);
          // The fetch ended at its deadline while this hop waited: nothing goes to the target.
          if (done) return held();
          hop = target;
          release = held;
        },
      });
    } finally {
      done = true;
      endHop();
    }
  }

  /**
   * Takes the host of `url` for one request once no other request of this process is in flight
   * there (waiting as long as that takes: every request has its deadline); resolves to the release.
   */
  async #hold(url: string, signal: AbortSignal | undefined): Promise<() => void> {
    let host: string;
    try {
      host = hostOf(url);
    } catch {
      return () => {}; // No URL a request will be sent to: the fetcher refuses it.
    }
    for (let busy = this.#busy.get(host); busy; busy = this.#busy.get(host)) {
      await endsWithin(busy, Number.POSITIVE_INFINITY, signal);
    }
    signal?.throwIfAborted();
    let resolve = () => {};
    const answered = new Promise<void>((r) => {
      resolve = r;
    });
    this.#busy.set(host, answered);
    return () => {
      if (this.#busy.get(host) === answered) this.#busy.delete(host);
      resolve();
    };
  }

  /**
   * Sets the host of `url` as the newest entry of `times`, now, or when a request `pace` let wait
   * will leave if that is later (an earlier request ending must not hand its turn to another);
   * nothing for what is not a URL.
   */
  #mark(times: Map<string, number>, url: string): void {
    let host: string;
    try {
      host = hostOf(url);
    } catch {
      return; // Not a URL a request was sent to.
    }
    remember(times, host, Math.max(this.#clock(), times.get(host) ?? 0));
  }
}

/** Sets `host`'s time as the newest entry of `times`, dropping the oldest beyond MAX_HOSTS. */
function remember(times: Map<string, number>, host: string, at: number): void {
  times.delete(host);
  times.set(host, at);
  if (times.size > MAX_HOSTS) times.delete(times.keys().next().value ?? '');
}

/**
 * Resolves true once `answered` resolves, false when `ms` passes first (never with an infinite
 * `ms`); rejects with the signal's reason when it aborts first. Leaves no timer or listener behind.
 */
function endsWithin(answered: Promise<void>, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      finish();
    };
    const onAbort = () => settle(() => reject(signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    if (Number.isFinite(ms)) timer = setTimeout(() => settle(() => resolve(false)), ms);
    void answered.then(() => settle(() => resolve(true)));
  });
}
