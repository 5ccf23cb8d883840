import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from '@jest/globals';
import type { FetchRequestOptions, FetchResult } from '@quarry/fetcher';
import { BUSY_HOST_REST_MS, MAX_INLINE_REST_MS, SideRequests } from './side-requests.js';

const A = 'http://a.example/page';
const A2 = 'http://a.example/other';
const B = 'http://b.example/page';

describe('SideRequests.pace', () => {
  it("lets a host's first request go at once", async () => {
    const started = performance.now();
    expect(await new SideRequests().pace(A, 10_000)).toBe(0);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("waits in place for the rest of the host's delay after its last request", async () => {
    const requests = new SideRequests();
    // Timed from before the first request is noted: on a loaded machine tens of milliseconds may
    // pass between it and the second call, which waits only the rest.
    const started = performance.now();
    await requests.pace(A, 300);
    expect(await requests.pace(A2, 300)).toBe(0);
    // Timers may fire a millisecond early; the delay is the point.
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
  });

  it('paces each host on its own', async () => {
    const requests = new SideRequests();
    await requests.pace(A, 10_000);
    const started = performance.now();
    expect(await requests.pace(B, 10_000)).toBe(0);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('answers a rest longer than a short wait, sending nothing, so that the task goes back to the queue', async () => {
    let now = 1_000_000;
    const requests = new SideRequests(() => now);
    await requests.pace(A, 2000);
    now += 200;
    expect(await requests.pace(A, 2000)).toBe(1800);
    // Nothing was noted as sent: the rest is still counted from the first request.
    now += 1800 - MAX_INLINE_REST_MS;
    const started = performance.now();
    expect(await requests.pace(A, 2000, undefined, 0)).toBe(MAX_INLINE_REST_MS);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('waits as long as asked when allowed to, and counts from a request noted as sent when it ended', async () => {
    let now = 1_000_000;
    const requests = new SideRequests(() => now);
    await requests.pace(A, 700);
    now += 100;
    requests.sentNow(A);
    now += 50;
    const started = performance.now();
    expect(await requests.pace(A, 700, undefined, Number.POSITIVE_INFINITY)).toBe(0);
    // 700 ms after the request noted 50 ms ago, not after the first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(645);
  });

  it("says how long ago the host's last request was sent, for the queue to count the next delay from", async () => {
    let now = 1_000_000;
    const requests = new SideRequests(() => now);
    expect(requests.sinceSentMs(A)).toBeUndefined();
    await requests.pace(A, 1000);
    now += 40;
    expect(requests.sinceSentMs(A2)).toBe(40);
    expect(requests.sinceSentMs(B)).toBeUndefined();
    requests.sentNow(A);
    expect(requests.sinceSentMs(A)).toBe(0);
  });

  it('counts a request paced meanwhile from the one that waits, not from the same last request', async () => {
    let now = 1_000_000;
    const requests = new SideRequests(() => now);
    await requests.pace(A, 300);
    now += 100;
    const waiting = requests.pace(A2, 300);
    // The first waits 200 ms more and leaves at 1,000,300: the next, 300 ms after that.
    expect(await requests.pace(A, 300, undefined, 0)).toBe(500);
    expect(await waiting).toBe(0);
    // An earlier request ending while one waits does not give the waiting one's turn away.
    requests.sentNow(A);
    expect(await requests.pace(A, 300, undefined, 0)).toBe(500);
  });

  it('stops waiting when the task is aborted', async () => {
    const requests = new SideRequests();
    await requests.pace(A, 5000);
    const controller = new AbortController();
    const waiting = requests.pace(A, 5000, controller.signal, Number.POSITIVE_INFINITY);
    controller.abort();
    await expect(waiting).rejects.toThrow(/abort/i);
  });

  it('counts a request from its end, for the host asked and the host that answered', async () => {
    let now = 1_000_000;
    const requests = new SideRequests(() => now);
    const fetcher = {
      fetch: async (url: string) => {
        now += 300; // a slow answer
        if (url.endsWith('/fails')) throw new Error('connection reset');
        return { url, finalUrl: B } as never;
      },
    };
    await requests.pace(A, 1000);
    await requests.ending(fetcher).fetch(A);
    expect(requests.sinceSentMs(A)).toBe(0);
    expect(requests.sinceSentMs(B)).toBe(0);
    // A delay after the end: the host's next request rests 1000 ms from here, not 700.
    expect(await requests.pace(A2, 1000, undefined, 0)).toBe(1000);
    now += 5000;
    await expect(requests.ending(fetcher).fetch('http://a.example/fails')).rejects.toThrow('connection reset');
    expect(requests.sinceSentMs(A)).toBe(0);
  });
});

describe('SideRequests: one request in flight per host', () => {
  const C = 'http://c.example/go';
  /**
   * A fetcher whose every answer takes `answerMs`, following `redirects` (URL to target) through
   * beforeRedirect as the real one does, noting each request sent while its host had one unanswered.
   */
  const slowFetcher = (answerMs: number, redirects: Readonly<Record<string, string>> = {}) => {
    const unanswered = new Map<string, number>();
    const overlaps: string[] = [];
    const ask = async (url: string) => {
      const host = new URL(url).host;
      if (unanswered.get(host)) overlaps.push(url);
      unanswered.set(host, (unanswered.get(host) ?? 0) + 1);
      await sleep(answerMs);
      unanswered.set(host, (unanswered.get(host) ?? 1) - 1);
    };
    const fetch = async (url: string, options: FetchRequestOptions = {}) => {
      let at = url;
      for (let next = redirects[at]; ; next = redirects[at]) {
        await ask(at);
        if (next === undefined) break;
        await options.beforeRedirect?.(next, options.signal ?? new AbortController().signal);
        at = next;
      }
      return { url, finalUrl: at } as FetchResult;
    };
    return { userAgent: 'quarry', fetch, overlaps };
  };

  it("sends a host's requests one at a time, whoever sends them: a page, a redirect's hop, robots.txt", async () => {
    const requests = new SideRequests();
    // a.example's page redirects to b.example, c.example's to a.example.
    const fetcher = slowFetcher(100, { [A]: B, [C]: A2 });
    const started = performance.now();
    await Promise.all([
      requests.ending(fetcher).fetch(A),
      requests.noting(fetcher).fetch('http://b.example/robots.txt'),
      requests.ending(fetcher).fetch(C),
      requests.ending(fetcher).fetch(B),
    ]);
    expect(fetcher.overlaps).toEqual([]);
    // b.example's three (robots.txt, the page, the hop) one after another, beside the other hosts'.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('follows a redirect to its own host and back to an earlier one without waiting for itself', async () => {
    const fetcher = slowFetcher(10, { [A]: A2, [A2]: B, [B]: 'http://a.example/third' });
    await expect(new SideRequests().ending(fetcher).fetch(A)).resolves.toMatchObject({
      finalUrl: 'http://a.example/third',
    });
  });

  it("paces a request a delay after the end of the host's request in flight, or sends the task back", async () => {
    const requests = new SideRequests();
    const started = performance.now();
    const inFlight = requests.ending(slowFetcher(300)).fetch(A);
    // Past the short wait: back to the queue, for the host's delay or BUSY_HOST_REST_MS.
    expect(await requests.pace(A2, 0, undefined, 50)).toBe(BUSY_HOST_REST_MS);
    expect(await requests.pace(A2, 5000, undefined, 50)).toBe(5000);
    // Within it: sent 200 ms after the answer is in.
    expect(await requests.pace(A2, 200, undefined, 1000)).toBe(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(495);
    await inFlight;
  });

  it('lets a hop go when the fetch gives up on it (its deadline), holding the target for nothing', async () => {
    const requests = new SideRequests();
    const slow = slowFetcher(300);
    const busy = requests.ending(slow).fetch(B);
    // A fetch whose deadline passes while its hop to the busy b.example waits.
    const deadline = new AbortController();
    const hopping = {
      fetch: async (url: string, options: FetchRequestOptions = {}) => {
        setTimeout(() => deadline.abort(new Error('total_timeout')), 50);
        await options.beforeRedirect?.(B, deadline.signal);
        return { url, finalUrl: B } as FetchResult;
      },
    };
    await expect(requests.ending(hopping).fetch(A)).rejects.toThrow('total_timeout');
    await busy;
    // b.example is free again at once.
    const started = performance.now();
    await requests.ending(slowFetcher(0)).fetch(B);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
