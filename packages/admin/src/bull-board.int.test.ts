import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { openBullmqQueues, type Queues } from '@quarry/queue';
import { describeWithServer, type RedisServer, startRedis } from '@quarry/testkit';
import { Queue } from 'bullmq';
import request from 'supertest';
import { type AdminFixture, startAdminFixture, TOKEN } from './testing/fixture.js';

// The names and prefix the queue package gives its BullMQ queues (packages/queue/src/bullmq).
const PREFIX = 'quarry';
const QUEUE_NAMES = ['crawl', 'index'] as const;

describeWithServer('redis', 'Bull Board under /admin/queues (distributed mode)', () => {
  let redis: RedisServer;
  let queues: Queues;
  let bullQueues: Queue[];
  let fx: AdminFixture;
  const auth = { Authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    redis = await startRedis();
    queues = await openBullmqQueues({ redisUrl: redis.url, prefix: PREFIX, hostDelayMs: 0 });
    const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
    bullQueues = QUEUE_NAMES.map((name) => new Queue(name, { connection, prefix: PREFIX }));
    // With its buttons, to show that they need the same origin (the default is read-only: below).
    fx = await startAdminFixture({ bullQueues, bullBoardReadOnly: false });
  });
  afterAll(async () => {
    await fx?.close();
    await Promise.all((bullQueues ?? []).map((q) => q.close()));
    await queues?.close();
    await redis?.stop();
  });

  it('serves the Bull Board page with its base path, under a CSP that keeps it on this host', async () => {
    const res = await request(fx.server).get('/admin/queues').set(auth);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<base href="/admin/queues/"');
    expect(res.text).toContain('Quarry queues');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(res.headers['content-security-policy']).not.toMatch(/googleapis/);
    const script = /src="(static\/js\/main\.[^"]+\.js)"/.exec(res.text)?.[1];
    expect(script).toBeDefined();
    const asset = await request(fx.server).get(`/admin/queues/${script}`).set(auth);
    expect(asset.status).toBe(200);
  });

  it('needs the admin token for the page and its API', async () => {
    const page = await request(fx.server).get('/admin/queues').set('Accept', 'text/html');
    expect(page.status).toBe(303);
    expect((await request(fx.server).get('/admin/queues/api/queues')).status).toBe(401);
    expect(
      (await request(fx.server).get('/admin/queues/api/queues').set('Authorization', 'Bearer wrong-token-xyz')).status,
    ).toBe(401);
  });

  it("lists Quarry's BullMQ queues with the jobs the crawl queue really holds", async () => {
    const tasks = [1, 2, 3, 4].map((n) => ({
      url: `https://example.org/b${n}`,
      depth: 0,
      scope: 'example.org',
      seed: 'https://example.org/',
    }));
    expect(await queues.crawl.add(tasks)).toBe(4);
    const res = await request(fx.server).get('/admin/queues/api/queues').set(auth);
    expect(res.status).toBe(200);
    const list = (res.body as { queues: { name: string; counts: Record<string, number> }[] }).queues;
    expect(list.map((q) => q.name).sort()).toEqual(['crawl', 'index']);
    const crawl = list.find((q) => q.name === 'crawl');
    expect((crawl?.counts.waiting ?? 0) + (crawl?.counts.prioritized ?? 0) + (crawl?.counts.delayed ?? 0)).toBe(4);
  });

  it('lets a logged-in admin pause a queue only from the same origin', async () => {
    const login = await request(fx.server)
      .post('/admin/login')
      .set('Origin', fx.origin)
      .type('form')
      .send({ token: TOKEN });
    const cookie = ((login.headers['set-cookie'] as unknown as string[])[0] ?? '').split(';')[0] ?? '';
    const crawlQueue = bullQueues[0] as Queue;
    const cross = await request(fx.server)
      .put('/admin/queues/api/queues/crawl/pause')
      .set('Cookie', cookie)
      .set('Origin', 'http://evil.example');
    expect(cross.status).toBe(403);
    expect(await crawlQueue.isPaused()).toBe(false);
    const same = await request(fx.server)
      .put('/admin/queues/api/queues/crawl/pause')
      .set('Cookie', cookie)
      .set('Origin', fx.origin);
    expect(same.status).toBe(200);
    expect(await crawlQueue.isPaused()).toBe(true);
    await crawlQueue.resume();
  });
});

describeWithServer('redis', "Bull Board as Quarry serves it: read-only, behind the crawl's bookkeeping", () => {
  it('refuses to pause or empty a queue', async () => {
    const redis = await startRedis();
    const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
    const bullQueues = QUEUE_NAMES.map((name) => new Queue(name, { connection, prefix: PREFIX }));
    const fx = await startAdminFixture({ bullQueues });
    try {
      const crawlQueue = bullQueues[0] as Queue;
      await crawlQueue.add('x', { url: 'https://example.org/' }, { jobId: 'kept' });
      const auth = { Authorization: `Bearer ${TOKEN}` };
      const page = await request(fx.server).get('/admin/queues/api/queues').set(auth);
      expect(page.status).toBe(200);
      const listed = (page.body as { queues: { name: string; readOnlyMode: boolean }[] }).queues;
      expect(listed.map((q) => [q.name, q.readOnlyMode])).toEqual([
        ['crawl', true],
        ['index', true],
      ]);
      for (const action of ['pause', 'empty']) {
        const res = await request(fx.server).put(`/admin/queues/api/queues/crawl/${action}`).set(auth);
        expect(res.status).toBeGreaterThanOrEqual(400);
      }
      expect(await crawlQueue.isPaused()).toBe(false);
      expect(await crawlQueue.getJob('kept')).toBeDefined();
    } finally {
      await fx.close();
      await Promise.all(bullQueues.map((q) => q.close()));
      await redis.stop();
    }
  }, 30_000);
});

describeWithServer('redis', 'Bull Board while Redis is away', () => {
  it('answers its API with a 503 problem within the timeout, not after Redis is back', async () => {
    const redis = await startRedis();
    const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
    const bullQueues = QUEUE_NAMES.map((name) => new Queue(name, { connection, prefix: PREFIX }));
    // Each reconnection attempt is an error event; unheard, it would end the test process.
    for (const q of bullQueues) q.on('error', () => {});
    const fx = await startAdminFixture({ bullQueues, statsTimeoutMs: 500 });
    const auth = { Authorization: `Bearer ${TOKEN}` };
    try {
      expect((await request(fx.server).get('/admin/queues/api/queues').set(auth)).status).toBe(200);
      await redis.stop({ keepData: true });
      const started = Date.now();
      const res = await request(fx.server).get('/admin/queues/api/queues').set(auth).timeout(10_000);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect((res.body as { detail: string }).detail).toBe('Redis did not answer; the queues show again once it does.');
      // The page itself is Bull Board's, with no Redis behind it; it still loads, and its requests say why.
      expect((await request(fx.server).get('/admin/queues').set(auth)).status).toBe(200);
    } finally {
      await fx.close();
      // The queues close only once Redis answers what they hold: it comes back to let them.
      await redis.restart();
      await Promise.all(bullQueues.map((q) => q.close()));
      await redis.stop();
    }
  });
});
