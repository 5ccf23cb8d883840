import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Site, startSite } from '@quarry/testkit';
import { createFetcher, type Fetcher } from './fetcher.js';
import { RobotsCache } from './robots-cache.js';
import type { RobotsRecord, RobotsStore } from './robots-store.js';
import { MemoryTtlStore } from './ttl-store.js';

const UA = 'QuarryBot/0.1 (+https://example.invalid/bot)';
const RULES = 'User-agent: QuarryBot\nDisallow: /private\nCrawl-delay: 3\n';

/** How many times a site was asked for /robots.txt. */
const robotsRequests = (site: Site): number => site.hits.get('/robots.txt') ?? 0;

describe('RobotsCache sharing a store', () => {
  const sites: Site[] = [];
  let fetcher: Fetcher;

  /** A local site answering /robots.txt with `status` and RULES. */
  const start = async (status = 200): Promise<Site> => {
    const site = await startSite({ '/robots.txt': { status, headers: { 'content-type': 'text/plain' }, body: RULES } });
    sites.push(site);
    return site;
  };

  beforeAll(() => {
    fetcher = createFetcher({ allowHosts: ['127.0.0.1'], userAgent: UA, headersTimeoutMs: 500, totalTimeoutMs: 1500 });
  });

  afterAll(async () => {
    await fetcher.close();
    await Promise.all(sites.map((s) => s.close()));
  });

  it('fetches robots.txt once per TTL for all caches sharing the store', async () => {
    const s = await start();
    let now = 0;
    const clock = () => now;
    const store = new MemoryTtlStore<RobotsRecord>({ clock });
    const a = new RobotsCache({ fetcher, store, ttlMs: 1_000, clock });
    const b = new RobotsCache({ fetcher, store, ttlMs: 1_000, clock });
    expect(await a.check(`${s.origin}/open`)).toEqual({ allowed: true, crawlDelaySecs: 3 });
    expect(await b.check(`${s.origin}/private/x`)).toEqual({ allowed: false, crawlDelaySecs: 3 });
    expect(robotsRequests(s)).toBe(1);
    // b learnt the entry at 800 with 200 ms left: it expires with the shared one, not 1000 ms later.
    now = 800;
    const late = new RobotsCache({ fetcher, store, ttlMs: 1_000, clock });
    await late.check(`${s.origin}/open`);
    expect(robotsRequests(s)).toBe(1);
    now = 1_100;
    await late.check(`${s.origin}/open`);
    expect(robotsRequests(s)).toBe(2);
    await a.check(`${s.origin}/open`);
    expect(robotsRequests(s)).toBe(2);
  });

  it('shares "disallow all" of an unreachable robots.txt for errorTtlMs', async () => {
    const s = await start(503);
    let now = 0;
    const clock = () => now;
    const store = new MemoryTtlStore<RobotsRecord>({ clock });
    const options = { fetcher, store, errorTtlMs: 500, clock };
    expect(await new RobotsCache(options).check(`${s.origin}/x`)).toMatchObject({
      allowed: false,
      reason: 'robots_unreachable',
    });
    expect(await new RobotsCache(options).check(`${s.origin}/y`)).toMatchObject({
      allowed: false,
      reason: 'robots_unreachable',
    });
    expect(robotsRequests(s)).toBe(1);
    now = 600;
    await new RobotsCache(options).check(`${s.origin}/y`);
    expect(robotsRequests(s)).toBe(2);
  });

  it('falls back to fetching when the store fails', async () => {
    const s = await start();
    const broken: RobotsStore = {
      get: () => Promise.reject(new Error('store down')),
      set: () => {
        throw new Error('store down');
      },
    };
    const a = new RobotsCache({ fetcher, store: broken });
    const b = new RobotsCache({ fetcher, store: broken });
    expect(await a.check(`${s.origin}/private/1`)).toEqual({ allowed: false, crawlDelaySecs: 3 });
    expect(await b.check(`${s.origin}/open`)).toEqual({ allowed: true, crawlDelaySecs: 3 });
    expect(robotsRequests(s)).toBe(2);
  });

  it('parses only maxBytes of a shared body and keeps a shared answer no longer than its own TTL', async () => {
    const s = await start();
    let now = 0;
    const clock = () => now;
    const store = new MemoryTtlStore<RobotsRecord>({ clock });
    const filler = `# ${'x'.repeat(1000)}\n`.repeat(10);
    await store.set(
      s.origin,
      { kind: 'rules', body: `User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n` },
      1e9,
    );
    const cache = new RobotsCache({ fetcher, store, maxBytes: 4096, ttlMs: 1_000, clock });
    expect((await cache.check(`${s.origin}/early`)).allowed).toBe(false);
    expect((await cache.check(`${s.origin}/late`)).allowed).toBe(true);
    expect(robotsRequests(s)).toBe(0);
    // Past its own TTL the cache asks the store again (which another process has updated meanwhile).
    await store.set(s.origin, { kind: 'disallow_all', reason: 'robots_unreachable' }, 1e9);
    expect((await cache.check(`${s.origin}/late`)).allowed).toBe(true);
    now = 2_000;
    expect(await cache.check(`${s.origin}/late`)).toMatchObject({ allowed: false, reason: 'robots_unreachable' });
    expect(robotsRequests(s)).toBe(0);
  });
});
