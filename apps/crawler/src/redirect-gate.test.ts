import { describe, expect, it } from '@jest/globals';
import type { RobotsVerdict } from '@quarry/fetcher';
import { redirectGate, redirectsOf, TargetResting } from './redirect-gate.js';
import { SideRequests } from './side-requests.js';

describe('redirectGate', () => {
  const now = 1_000_000;
  const target = 'https://b.example/landing';
  /** A gate whose target's robots.txt says `verdict`, asked (by the fake fetcher) at `askedAt`. */
  const gate = (verdict: RobotsVerdict, hostDelayMs: number, askedAt: number | null) => {
    let clock = askedAt ?? now;
    const sideRequests = new SideRequests(() => clock);
    const fetcher = { userAgent: 'quarry', fetch: async () => ({}) as never };
    const robots = {
      check: async () => {
        if (askedAt !== null) await sideRequests.noting(fetcher).fetch('https://b.example/robots.txt');
        clock = now;
        return verdict;
      },
    };
    return () => redirectGate({ robots, sideRequests, hostDelayMs }, target);
  };

  it("holds the redirect back for the rest of the target's Crawl-delay after its robots.txt", async () => {
    const error = await gate({ allowed: true, crawlDelaySecs: 2 }, 0, now - 500)().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetResting);
    expect((error as TargetResting).restMs).toBe(1500);
  });

  it('lets it go on when robots.txt was asked long enough ago, or was cached, or the host has no delay', async () => {
    await expect(gate({ allowed: true, crawlDelaySecs: 1 }, 0, now - 1000)()).resolves.toBe(1000);
    await expect(gate({ allowed: true, crawlDelaySecs: 5 }, 1000, null)()).resolves.toBe(5000);
    await expect(gate({ allowed: true, crawlDelaySecs: null }, 0, now)()).resolves.toBe(0);
  });

  it("asks a page's target llms.txt once its robots.txt has rested, and holds the page back after it", async () => {
    const clock = { now };
    const sideRequests = new SideRequests(() => clock.now);
    const noted = sideRequests.noting({ userAgent: 'quarry', fetch: async () => ({}) as never });
    const asked: string[] = [];
    const robots = { check: async () => ({ allowed: true, crawlDelaySecs: 1 }) };
    const llms = {
      has: async (url: string) => {
        asked.push(url);
        await noted.fetch('https://b.example/llms.txt');
        return true;
      },
    };
    const error = await redirectGate({ robots, sideRequests, hostDelayMs: 0 }, target, llms).catch((e: unknown) => e);
    expect(asked).toEqual([target]);
    expect((error as TargetResting).restMs).toBe(1000);
    // Without llms (a sitemap's redirect), nothing is asked.
    await expect(redirectGate({ robots, sideRequests: new SideRequests(), hostDelayMs: 0 }, target)).resolves.toBe(
      1000,
    );
    expect(asked).toEqual([target]);
  });

  it('refuses a target its robots.txt disallows, and retries later one whose robots.txt is unreachable', async () => {
    await expect(gate({ allowed: false, crawlDelaySecs: null }, 0, now)()).rejects.toMatchObject({
      code: 'robots_disallowed',
    });
    // No Retry-After: the queue would hold it against every port of the host (robots-ports.int.test.ts).
    await expect(
      gate({ allowed: false, crawlDelaySecs: null, reason: 'robots_unreachable' }, 0, now)(),
    ).rejects.toMatchObject({ code: 'robots_unreachable', retryable: true, retryAfterSecs: undefined });
  });
});

describe('redirectsOf', () => {
  const robots = { check: async () => ({ allowed: true, crawlDelaySecs: 1 }) };
  /** The gate of a fetch of a.example's page, with b.example sent a page `agoMs` ago (the clock stands still). */
  const setUp = (agoMs: number) => {
    const clock = { now: 1_000_000 };
    const sideRequests = new SideRequests(() => clock.now);
    clock.now -= agoMs;
    sideRequests.sentNow('https://b.example/other');
    clock.now += agoMs;
    return { sideRequests, gate: redirectsOf({ robots, sideRequests, hostDelayMs: 0 }, 'https://a.example/moved') };
  };

  it("holds a hop to another host back for the rest of that host's delay since its last page", async () => {
    const { gate } = setUp(300);
    const error = await gate('https://b.example/landing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetResting);
    expect((error as TargetResting).restMs).toBe(700);
  });

  it("waits a short rest in place, and counts the hop as the host's latest page", async () => {
    const { gate, sideRequests } = setUp(900);
    const started = performance.now();
    await gate('https://b.example/landing');
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    expect(sideRequests.sinceSentMs('https://b.example/next')).toBe(0);
  });

  it('follows a hop to a host the fetch has asked already at once (a bounce back, http to https)', async () => {
    const { gate, sideRequests } = setUp(5000);
    // a.example's page was just sent (by this fetch); a hop back to it is no new exchange.
    sideRequests.sentNow('https://a.example/moved');
    await expect(gate('https://a.example/moved/')).resolves.toBeUndefined();
    await gate('https://b.example/landing');
    sideRequests.sentNow('https://b.example/landing');
    await expect(gate('https://a.example/signed-in')).resolves.toBeUndefined();
    await expect(gate('https://b.example/again')).resolves.toBeUndefined();
  });
});
