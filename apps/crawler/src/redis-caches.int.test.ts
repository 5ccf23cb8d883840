import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createFetcher, decodeRobotsRecord, type Fetcher, RobotsCache, type RobotsRecord } from '@quarry/fetcher';
import { describeWithServer, type RedisServer, type Site, startRedis, startSite } from '@quarry/testkit';
import { Redis } from 'ioredis';
import { LlmsTxtCache } from './llms-cache.js';
import { createRedisCrawlCaches, type RedisCrawlCaches, RedisTtlStore } from './redis-caches.js';

/** Long enough that a slow CI machine makes its checks within it (300 ms was not, once). */
const TTL_MS = 1_500;

const UA = 'QuarryBot/0.1 (+https://example.invalid/bot)';
const LLMS_TXT = '# Fixture\n\n> A site for Quarry.\n\n## Docs\n\n- [Guide](/guide.html): a guide\n';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeWithServer('redis', 'Redis stores of the robots.txt and llms.txt caches', () => {
  let server: RedisServer;
  let client: Redis;
  let caches: RedisCrawlCaches;
  let fetcher: Fetcher;
  let site: Site;
  const errors: unknown[] = [];
  let prefixSeq = 0;
  /** A fresh prefix per test: entries of one test never answer another. */
  const nextPrefix = () => `t${++prefixSeq}`;

  beforeAll(async () => {
    server = await startRedis();
    client = new Redis(server.url);
    caches = await createRedisCrawlCaches(server.url, { prefix: 'quarry', onError: (err) => errors.push(err) });
    fetcher = createFetcher({ allowHosts: ['127.0.0.1'], userAgent: UA, headersTimeoutMs: 500, totalTimeoutMs: 1500 });
    site = await startSite({
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n',
      },
      '/llms.txt': { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: LLMS_TXT },
    });
  });

  afterAll(async () => {
    await caches?.close();
    await client?.quit();
    await fetcher?.close();
    await site?.close();
    await server?.stop();
  });

  it('stores JSON under <prefix>:<kind>:<origin> with a PX expiry and reads back the time left', async () => {
    const record: RobotsRecord = { kind: 'rules', body: 'User-agent: *\nDisallow: /x\n' };
    await caches.robots.set('https://example.com', record, 60_000);
    await caches.llms.set('https://example.com', true, 30_000);
    expect(JSON.parse((await client.get('quarry:robots:https://example.com')) ?? 'null')).toEqual(record);
    expect(await client.get('quarry:llms:https://example.com')).toBe('true');
    const pttl = await client.pttl('quarry:robots:https://example.com');
    expect(pttl).toBeGreaterThan(59_000);
    expect(pttl).toBeLessThanOrEqual(60_000);
    const robots = await caches.robots.get('https://example.com');
    expect(robots?.value).toEqual(record);
    expect(robots?.ttlMs).toBeGreaterThan(59_000);
    expect((await caches.llms.get('https://example.com'))?.value).toBe(true);
    expect(await caches.llms.get('https://other.example')).toBeNull();
  });

  it('lets entries expire, and treats foreign, malformed or oversized values as missing', async () => {
    const prefix = nextPrefix();
    const store = new RedisTtlStore({
      redis: client,
      keyPrefix: `${prefix}:`,
      decode: decodeRobotsRecord,
      maxValueBytes: 100,
    });
    // A second to live: long enough to be read back on a loaded machine (50 ms was not, in CI).
    await store.set('short', { kind: 'allow_all', reason: 'robots_unavailable' }, 1000);
    expect(await store.get('short')).not.toBeNull();
    await sleep(1200);
    expect(await store.get('short')).toBeNull();
    await client.set(`${prefix}:bad-json`, '{not json', 'PX', 60_000);
    await client.set(`${prefix}:wrong-shape`, '{"kind":"rules","body":7}', 'PX', 60_000);
    await client.set(`${prefix}:no-expiry`, '{"kind":"allow_all","reason":"x"}');
    await client.set(`${prefix}:huge`, JSON.stringify({ kind: 'rules', body: 'x'.repeat(200) }), 'PX', 60_000);
    for (const key of ['bad-json', 'wrong-shape', 'no-expiry', 'huge']) expect(await store.get(key)).toBeNull();
    await store.set('too-big', { kind: 'rules', body: 'y'.repeat(200) }, 60_000);
    expect(await client.exists(`${prefix}:too-big`)).toBe(0);
    await store.set('no-ttl', { kind: 'allow_all', reason: 'x' }, 0);
    expect(await client.exists(`${prefix}:no-ttl`)).toBe(0);
  });

  it('lets two RobotsCache "processes" fetch robots.txt once per origin per TTL', async () => {
    const robots = new RedisTtlStore({
      redis: client,
      keyPrefix: `${nextPrefix()}:robots:`,
      decode: decodeRobotsRecord,
    });
    const before = site.hits.get('/robots.txt') ?? 0;
    const a = new RobotsCache({ fetcher, store: robots, ttlMs: TTL_MS });
    const b = new RobotsCache({ fetcher, store: robots, ttlMs: TTL_MS });
    expect(await a.check(`${site.origin}/page`)).toEqual({ allowed: true, crawlDelaySecs: 2 });
    expect(await b.check(`${site.origin}/private/p`)).toEqual({ allowed: false, crawlDelaySecs: 2 });
    expect(await b.check(`${site.origin}/other`)).toEqual({ allowed: true, crawlDelaySecs: 2 });
    expect((site.hits.get('/robots.txt') ?? 0) - before).toBe(1);
    await sleep(TTL_MS + 100);
    await b.check(`${site.origin}/page`);
    await a.check(`${site.origin}/page`);
    expect((site.hits.get('/robots.txt') ?? 0) - before).toBe(2);
  });

  it('lets two LlmsTxtCache "processes" fetch /llms.txt once per origin per TTL', async () => {
    const llms = new RedisTtlStore({
      redis: client,
      keyPrefix: `${nextPrefix()}:llms:`,
      decode: (raw) => (typeof raw === 'boolean' ? raw : null),
    });
    const before = site.hits.get('/llms.txt') ?? 0;
    const a = new LlmsTxtCache({ fetcher, store: llms, ttlMs: TTL_MS });
    const b = new LlmsTxtCache({ fetcher, store: llms, ttlMs: TTL_MS });
    expect(await Promise.all([a.has(`${site.origin}/x`), a.has(`${site.origin}/y`)])).toEqual([true, true]);
    expect(await b.has(`${site.origin}/z`)).toBe(true);
    expect((site.hits.get('/llms.txt') ?? 0) - before).toBe(1);
    await sleep(TTL_MS + 100);
    expect(await b.has(`${site.origin}/z`)).toBe(true);
    expect(await a.has(`${site.origin}/z`)).toBe(true);
    expect((site.hits.get('/llms.txt') ?? 0) - before).toBe(2);
  });

  it('keeps crawling when Redis goes away: every cache fetches for itself and errors are reported', async () => {
    const lost = await startRedis();
    const lostErrors: unknown[] = [];
    const lostCaches = await createRedisCrawlCaches(lost.url, {
      commandTimeoutMs: 300,
      onError: (e) => lostErrors.push(e),
    });
    try {
      const origin = site.origin;
      const robotsBefore = site.hits.get('/robots.txt') ?? 0;
      const llmsBefore = site.hits.get('/llms.txt') ?? 0;
      await lost.stop();
      const started = Date.now();
      for (const _ of [1, 2]) {
        const robots = new RobotsCache({ fetcher, store: lostCaches.robots });
        expect(await robots.check(`${origin}/private/p`)).toEqual({ allowed: false, crawlDelaySecs: 2 });
        expect(await new LlmsTxtCache({ fetcher, store: lostCaches.llms }).has(`${origin}/`)).toBe(true);
      }
      expect((site.hits.get('/robots.txt') ?? 0) - robotsBefore).toBe(2);
      expect((site.hits.get('/llms.txt') ?? 0) - llmsBefore).toBe(2);
      expect(lostErrors.length).toBeGreaterThan(0);
      // Each of the 8 store calls waits at most about commandTimeoutMs.
      expect(Date.now() - started).toBeLessThan(8 * 300 + 2_000);
    } finally {
      await lostCaches.close();
      await lost.stop();
    }
  });
});
