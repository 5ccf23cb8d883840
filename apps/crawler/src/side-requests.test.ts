import { describe, expect, it } from '@jest/globals';
import { MAX_INLINE_REST_MS, SideRequests } from './side-requests.js';

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
