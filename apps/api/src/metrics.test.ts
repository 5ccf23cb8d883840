import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAdminRouter } from '@quarry/admin';
import { openSqliteQueues } from '@quarry/queue';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from './app.js';
import { QuarryMetrics } from './metrics.js';
import { createFixture, type Fixture } from './test-support/fixture.js';

const TOKEN = 'metrics-test-admin-token-0123456789';

/** Sample values by full series name with labels, e.g. `quarry_http_requests_total{route="/healthz",...}`. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (-?[0-9.e+-]+|NaN|Nan|\+Inf)$/.exec(line);
    if (!match?.[1] || !match[2]) throw new Error(`not Prometheus text: ${line}`);
    out.set(match[1], Number(match[2]));
  }
  return out;
}

describe('GET /metrics (issue 10, point 7)', () => {
  let fx: Fixture;
  let app: Express;
  let metrics: QuarryMetrics;
  let crawled = { queued: 3, inFlight: 1, done: 5, skipped: 2, failed: 1 };

  beforeAll(async () => {
    fx = await createFixture();
    metrics = new QuarryMetrics({
      index: fx.index,
      crawlStats: async () => crawled,
      indexStats: async () => ({ waiting: 4, active: 0, failed: 0 }),
    });
    app = createApp(fx.deps({ QUARRY_ADMIN_TOKEN: TOKEN }, { metrics }));
  });
  afterAll(async () => {
    await fx.cleanup();
  });

  const scrape = () => request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);

  it('is served to the admin token only', async () => {
    expect((await request(app).get('/metrics')).status).toBe(401);
    expect((await request(app).get('/metrics').set('Authorization', 'Bearer wrong')).status).toBe(401);
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('locks out an address after ten wrong tokens, the right one included, as the admin login does', async () => {
    const guarded = createApp(fx.deps({ QUARRY_ADMIN_TOKEN: TOKEN }, { metrics: new QuarryMetrics() }));
    const right = () => request(guarded).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    // The right token is no failure: it does not use up the allowance.
    for (let i = 0; i < 12; i++) expect((await right()).status).toBe(200);
    for (let i = 0; i < 10; i++) {
      expect((await request(guarded).get('/metrics').set('Authorization', `Bearer guess-${i}`)).status).toBe(401);
    }
    const wrong = await request(guarded).get('/metrics').set('Authorization', 'Bearer guess-10');
    expect(wrong.status).toBe(429);
    expect(wrong.body.detail).toMatch(/^Too many wrong admin tokens from this address; retry in \d+ seconds\.$/);
    expect((await right()).status).toBe(429);
    // Without a bearer credential nothing is guessed: the public limiter answers, as before.
    expect((await request(guarded).get('/metrics')).status).toBe(401);
  });

  it('does not exist without an admin token', async () => {
    const open = createApp(fx.deps({}, { metrics: new QuarryMetrics() }));
    expect((await request(open).get('/metrics')).status).toBe(404);
  });

  it('counts requests by route pattern and status, and times them', async () => {
    await request(app).get('/api/v1/search?q=quarry');
    await request(app).get('/api/v1/search?q=');
    await request(app).get('/api/v1/search?q[]=a');
    await request(app).get('/api/v1/content/nope');
    await request(app).get('/no/such/path/123');
    const s = samples((await scrape()).text);
    expect(s.get('quarry_http_requests_total{route="/api/v1/search",method="GET",status="200"}')).toBe(1);
    expect(s.get('quarry_http_requests_total{route="/api/v1/search",method="GET",status="400"}')).toBe(2);
    expect(s.get('quarry_http_requests_total{route="/api/v1/content/:id",method="GET",status="404"}')).toBe(1);
    expect(s.get('quarry_http_requests_total{route="unmatched",method="GET",status="404"}')).toBe(1);
    expect(s.get('quarry_http_request_duration_seconds_count{route="/api/v1/search",method="GET",status="200"}')).toBe(
      1,
    );
    expect([...s.keys()].some((k) => k.includes('/no/such/path'))).toBe(false);
  });

  it('counts a refused key (401) and a spent limit (429) under their route, not as unmatched', async () => {
    const limited = new QuarryMetrics();
    // A refused key spends the caller's public allowance too (3 a minute here).
    const small = createApp(
      fx.deps({ QUARRY_ADMIN_TOKEN: TOKEN, QUARRY_RATE_LIMIT_PUBLIC: '3' }, { metrics: limited }),
    );
    await request(small).get('/api/v1/search?q=quarry').set('Authorization', 'Bearer not-a-key');
    await request(small).get('/api/v1/content/nope').set('X-API-Key', 'not-a-key');
    expect((await request(small).get('/api/v1/search?q=quarry')).status).toBe(200);
    expect((await request(small).get('/api/v1/search?q=quarry')).status).toBe(429);
    const s = samples((await limited.render()).body);
    expect(s.get('quarry_http_requests_total{route="/api/v1/search",method="GET",status="401"}')).toBe(1);
    expect(s.get('quarry_http_requests_total{route="/api/v1/content/:id",method="GET",status="401"}')).toBe(1);
    expect(s.get('quarry_http_requests_total{route="/api/v1/search",method="GET",status="429"}')).toBe(1);
    expect([...s.keys()].some((k) => k.includes('unmatched'))).toBe(false);
  });

  // Both were once counted as unmatched: the preflight was answered, and the admin guard refused,
  // before any route was matched.
  it('counts a CORS preflight and a refused admin request under their route, not as unmatched', async () => {
    const counted = new QuarryMetrics();
    const queues = openSqliteQueues({ path: join(fx.dir, 'metrics-admin-queue.sqlite'), hostDelayMs: 0 });
    try {
      const adminRouter = () =>
        createAdminRouter({
          token: TOKEN,
          crawl: queues.crawl,
          index: queues.index,
          searchIndex: fx.index,
        });
      const counting = createApp(fx.deps({ QUARRY_ADMIN_TOKEN: TOKEN }, { metrics: counted, adminRouter }));
      const preflight = (path: string) =>
        request(counting)
          .options(path)
          .set('Origin', 'https://app.example')
          .set('Access-Control-Request-Method', 'GET');
      expect((await preflight('/api/v1/search')).status).toBe(204);
      expect((await preflight('/api/v1/content/abc')).status).toBe(204);
      expect((await request(counting).get('/admin/').set('Accept', 'text/html')).status).toBe(303);
      const wrong = 'Bearer wrong-token-0123456789';
      expect((await request(counting).get('/admin/api/stats').set('Authorization', wrong)).status).toBe(401);
      expect((await request(counting).get('/admin/queues')).status).toBe(303);
      expect((await request(counting).get('/admin/queues/api/queues')).status).toBe(401);
      expect((await request(counting).get('/admin/api/stats').set('Authorization', `Bearer ${TOKEN}`)).status).toBe(
        200,
      );
      const s = samples((await counted.render()).body);
      const count = (route: string, method: string, status: number) =>
        s.get(`quarry_http_requests_total{route="${route}",method="${method}",status="${status}"}`);
      expect(count('/api/v1/search', 'OPTIONS', 204)).toBe(1);
      expect(count('/api/v1/content/:id', 'OPTIONS', 204)).toBe(1);
      expect(count('/admin/', 'GET', 303)).toBe(1);
      expect(count('/admin/api/stats', 'GET', 401)).toBe(1);
      expect(count('/admin/api/stats', 'GET', 200)).toBe(1);
      expect(count('/admin/queues', 'GET', 303)).toBe(1);
      expect(count('/admin/queues/*path', 'GET', 401)).toBe(1);
      expect([...s.keys()].some((k) => k.includes('unmatched'))).toBe(false);
      // A path no route has is still unmatched, refused or not.
      expect((await preflight('/api/v1/nope')).status).toBe(204);
      expect((await request(counting).get('/admin/nope')).status).toBe(303);
      const after = samples((await counted.render()).body);
      expect(after.get('quarry_http_requests_total{route="unmatched",method="OPTIONS",status="204"}')).toBe(1);
      expect(after.get('quarry_http_requests_total{route="unmatched",method="GET",status="303"}')).toBe(1);
    } finally {
      await queues.close();
    }
  });

  it('reads queue depths, crawl states and indexed documents at scrape time', async () => {
    let s = samples((await scrape()).text);
    expect(s.get('quarry_queue_depth{queue="crawl",state="queued"}')).toBe(3);
    expect(s.get('quarry_queue_depth{queue="index",state="waiting"}')).toBe(4);
    expect(s.get('quarry_crawl_urls{state="done"}')).toBe(5);
    expect(s.get('quarry_index_documents')).toBe(await fx.index.count());
    crawled = { ...crawled, done: 6 };
    s = samples((await scrape()).text);
    expect(s.get('quarry_crawl_urls{state="done"}')).toBe(6);
  });

  it('answers without the counts of a backend that does not answer (Redis down), not after it', async () => {
    const never = <T>() => new Promise<T>(() => {});
    const stuck = new QuarryMetrics({
      index: { count: never },
      crawlStats: never,
      indexStats: never,
    });
    const open = createApp(fx.deps({ QUARRY_ADMIN_TOKEN: TOKEN }, { metrics: stuck }));
    const res = await request(open).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    const s = samples(res.text);
    expect([...s.keys()].some((name) => name.startsWith('quarry_crawl_urls'))).toBe(false);
    expect([...s.keys()].some((name) => name.startsWith('quarry_queue_depth'))).toBe(false);
    expect(s.get('quarry_index_documents')).toBeNaN();
  }, 20_000);

  it('counts crawl outcomes and fallback calls', async () => {
    metrics.crawlOutcome('skipped', 'blocked_address');
    metrics.crawlOutcome('skipped', 'blocked_address');
    metrics.crawlOutcome('done', undefined);
    metrics.fallbackRequest('searxng');
    metrics.fallbackError('searxng');
    const s = samples((await scrape()).text);
    expect(s.get('quarry_crawl_outcomes_total{state="skipped",reason="blocked_address"}')).toBe(2);
    expect(s.get('quarry_crawl_outcomes_total{state="done",reason="none"}')).toBe(1);
    expect(s.get('quarry_fallback_requests_total{provider="searxng"}')).toBe(1);
    expect(s.get('quarry_fallback_errors_total{provider="searxng"}')).toBe(1);
  });
});
