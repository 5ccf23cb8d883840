import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAdminRouter } from '@quarry/admin';
import { SqliteKeyStore } from '@quarry/keys';
import { openSqliteQueues, type Queues } from '@quarry/queue';
import express from 'express';
import request from 'supertest';
import { createApp } from './app.js';
import { QuarryMetrics } from './metrics.js';
import { createFixture, type Fixture } from './test-support/fixture.js';
import { type ReceivedResponse, specProblems } from './test-support/openapi-validator.js';

const SEARCH = '/api/v1/search';
const ADMIN_TOKEN = 'admin-token-0123456789abcdef';

let fx: Fixture;
let keysDir: string;
let keys: SqliteKeyStore;

beforeAll(async () => {
  fx = await createFixture();
  keysDir = await mkdtemp(join(tmpdir(), 'quarry-keys-'));
  keys = new SqliteKeyStore({ path: join(keysDir, 'keys.sqlite') });
});
afterAll(async () => {
  await keys.close();
  await rm(keysDir, { recursive: true, force: true });
  await fx.cleanup();
});

function valid<T extends ReceivedResponse>(res: T, path: string | null = SEARCH): T {
  expect(specProblems(res, path)).toEqual([]);
  return res;
}

/** The real admin router over `queues` and the fixture's index, counting wrong tokens with the API's limiter. */
const realAdminRouter =
  (queues: Queues) =>
  ({ adminGuesses }: { adminGuesses: express.RequestHandler }) =>
    createAdminRouter({
      token: ADMIN_TOKEN,
      crawl: queues.crawl,
      index: queues.index,
      searchIndex: fx.index,
      guessLimiter: adminGuesses,
    });

const publicApp = (hops = 0, limit = 3) =>
  createApp(fx.deps({ QUARRY_RATE_LIMIT_PUBLIC: String(limit), QUARRY_TRUST_PROXY: String(hops) }));

describe('public tier', () => {
  it('limits per client IP with draft-8 headers, then answers 429 with Retry-After', async () => {
    const app = publicApp();
    for (let i = 0; i < 3; i++) {
      const res = valid(await request(app).get(`${SEARCH}?q=quarry`));
      expect(res.status).toBe(200);
      expect(res.headers.ratelimit).toMatch(new RegExp(`^"public"; r=${2 - i}; t=\\d+$`));
      expect(res.headers['ratelimit-policy']).toMatch(/^"public"; q=3; w=60; pk=/);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
    const limited = await request(app).get('/api/v1/content/AAAAAAAAAAAAAAAAAAAAAA');
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body.detail).toContain(`${retryAfter} seconds`);
    valid(limited, '/api/v1/content/{id}');
    // Health checks are never limited.
    for (let i = 0; i < 5; i++) expect((await request(app).get('/healthz')).status).toBe(200);
  });

  it('ignores X-Forwarded-For when no proxy is trusted', async () => {
    const app = publicApp(0);
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = valid(await request(app).get(`${SEARCH}?q=quarry`).set('X-Forwarded-For', `203.0.113.${i}`));
      codes.push(res.status);
    }
    expect(codes).toEqual([200, 200, 200, 429, 429]);
  });

  it('uses the forwarded address behind one trusted proxy', async () => {
    const app = publicApp(1);
    for (let i = 0; i < 5; i++) {
      const res = valid(await request(app).get(`${SEARCH}?q=quarry`).set('X-Forwarded-For', `203.0.113.${i}`));
      expect(res.status).toBe(200);
    }
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = valid(await request(app).get(`${SEARCH}?q=quarry`).set('X-Forwarded-For', '198.51.100.7'));
      codes.push(res.status);
    }
    expect(codes).toEqual([200, 200, 200, 429]);
  });

  it('groups IPv6 clients by /56', async () => {
    const app = publicApp(1);
    const from = async (ip: string) =>
      valid(await request(app).get(`${SEARCH}?q=quarry`).set('X-Forwarded-For', ip)).status;
    const sameSubnet = ['2001:db8:0:1::1', '2001:db8:0:2::abcd', '2001:db8:0:ff::9', '2001:db8:0:42::1'];
    const codes = [];
    for (const ip of sameSubnet) codes.push(await from(ip));
    expect(codes).toEqual([200, 200, 200, 429]);
    expect(await from('2001:db8:0:100::1')).toBe(200);
  });
});

describe('dedicated keys', () => {
  it('gives a valid key its own limit and X-RateLimit headers (Reset in seconds)', async () => {
    const { key } = await keys.create('integration', 2);
    const app = createApp(fx.deps({ QUARRY_RATE_LIMIT_PUBLIC: '1' }, { keys }));
    const first = valid(await request(app).get(`${SEARCH}?q=quarry`).set('Authorization', `Bearer ${key}`));
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('2');
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    const reset = Number(first.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    const second = valid(await request(app).get(`${SEARCH}?q=quarry`).set('X-API-Key', key));
    expect(second.headers['x-ratelimit-remaining']).toBe('0');
    const third = valid(await request(app).get(`${SEARCH}?q=quarry`).set('X-API-Key', key));
    expect(third.status).toBe(429);
    expect(third.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    // The key's use did not spend the public quota of this IP.
    expect(valid(await request(app).get(`${SEARCH}?q=quarry`)).status).toBe(200);
  });

  it('refuses unknown, revoked and malformed keys with 401, never as public', async () => {
    const { key, record } = await keys.create('to-revoke', 100);
    const app = createApp(fx.deps({}, { keys }));
    expect(valid(await request(app).get(`${SEARCH}?q=quarry`).set('X-API-Key', key)).status).toBe(200);
    await keys.revoke(record.id);
    const cases: [string, string][] = [
      ['X-API-Key', key],
      ['Authorization', `Bearer ${key}`],
      ['Authorization', 'Bearer qk_unknownkeyunknownkeyunknownkey'],
      ['Authorization', 'Bearer a b'],
      ['Authorization', 'Bearer'],
      ['X-API-Key', 'x'.repeat(300)],
    ];
    for (const [header, value] of cases) {
      const res = valid(await request(app).get(`${SEARCH}?q=quarry`).set(header, value));
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      expect(JSON.stringify(res.body)).not.toContain(value);
    }
    const { key: other } = await keys.create('other', 100);
    const mixed = await request(app)
      .get(`${SEARCH}?q=quarry`)
      .set('X-API-Key', other)
      .set('Authorization', 'Bearer qk_x');
    expect(valid(mixed).status).toBe(401);
    // An empty header presents no key, nor does another scheme (a proxy's Basic credentials).
    expect(valid(await request(app).get(`${SEARCH}?q=quarry`).set('X-API-Key', '')).status).toBe(200);
    const proxied = valid(await request(app).get(`${SEARCH}?q=quarry`).set('Authorization', 'Basic dXNlcjpwYXNz'));
    expect(proxied.status).toBe(200);
    expect(proxied.headers.ratelimit).toMatch(/^"public"/);
  });

  it('refuses any key when no key store is configured', async () => {
    const app = createApp(fx.deps());
    const res = valid(await request(app).get(`${SEARCH}?q=quarry`).set('Authorization', 'Bearer qk_anything'));
    expect(res.status).toBe(401);
  });
});

describe('/admin', () => {
  const adminRouter = express.Router().get('/status', (_req, res) => {
    res.json({ ok: true });
  });

  it('does not exist without an admin token', async () => {
    const app = createApp(fx.deps({}, { adminRouter: () => adminRouter }));
    const res = valid(await request(app).get('/admin/status').set('Authorization', 'Bearer anything'), null);
    expect(res.status).toBe(404);
  });

  it('hands an installed admin router every request; the real one refuses without the token', async () => {
    const queues = openSqliteQueues({ path: join(fx.dir, 'admin-queue.sqlite'), hostDelayMs: 0 });
    try {
      const app = createApp(fx.deps({ QUARRY_ADMIN_TOKEN: ADMIN_TOKEN }, { adminRouter: realAdminRouter(queues) }));
      for (const auth of [
        undefined,
        'Bearer wrong-token-0123456789',
        `Basic ${ADMIN_TOKEN}`,
        `Bearer ${ADMIN_TOKEN}x`,
      ]) {
        const req = request(app).get('/admin/api/stats').set('Accept', 'application/json');
        const res = await (auth ? req.set('Authorization', auth) : req);
        expect(res.status).toBe(401);
      }
      const ok = await request(app).get('/admin/api/stats').set('Authorization', `Bearer ${ADMIN_TOKEN}`);
      expect(ok.status).toBe(200);
      expect(ok.body.documents).toBe(await fx.index.count());
      expect(ok.headers['cache-control']).toContain('no-store');
    } finally {
      await queues.close();
    }
  });

  // There were two counts, the dashboard's own and the one of /metrics and /mcp: during a lockout
  // of /admin, /metrics still said whether a guess was right, and a guesser had twice the tries.
  it('counts wrong tokens once for /admin, /metrics and /mcp: a lockout on one covers the others', async () => {
    const queues = openSqliteQueues({ path: join(fx.dir, 'admin-guesses-queue.sqlite'), hostDelayMs: 0 });
    const appWithDashboard = () =>
      createApp(
        fx.deps(
          { QUARRY_ADMIN_TOKEN: ADMIN_TOKEN },
          {
            metrics: new QuarryMetrics(),
            adminRouter: realAdminRouter(queues),
          },
        ),
      );
    const right = `Bearer ${ADMIN_TOKEN}`;
    const mcp = (app: express.Express) =>
      request(app)
        .post('/mcp')
        .set('Authorization', right)
        .set('Accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    try {
      // Five wrong at the login form and five as bearers of the dashboard's API spend them all.
      const byAdmin = appWithDashboard();
      for (let i = 0; i < 5; i++) {
        const form = await request(byAdmin)
          .post('/admin/login')
          .set('Origin', 'http://127.0.0.1')
          .set('Host', '127.0.0.1')
          .type('form')
          .send({ token: `wrong-${i}` });
        expect(form.status).toBe(401);
        const bearer = await request(byAdmin).get('/admin/api/stats').set('Authorization', `Bearer wrong-${i}`);
        expect(bearer.status).toBe(401);
      }
      expect((await request(byAdmin).get('/metrics').set('Authorization', right)).status).toBe(429);
      expect((await mcp(byAdmin)).status).toBe(429);
      expect((await request(byAdmin).get('/admin/api/stats').set('Authorization', right)).status).toBe(429);
      // The login form says so on its page, as it did with a count of its own.
      const form = await request(byAdmin)
        .post('/admin/login')
        .set('Origin', 'http://127.0.0.1')
        .set('Host', '127.0.0.1')
        .set('Accept', 'text/html')
        .type('form')
        .send({ token: ADMIN_TOKEN });
      expect(form.status).toBe(429);
      expect(form.headers['content-type']).toMatch(/^text\/html/);
      expect(form.text).toContain('Too many failed logins from this address');
      expect(form.headers['set-cookie']).toBeUndefined();

      // And the other way round: guesses on /metrics lock the dashboard.
      const byMetrics = appWithDashboard();
      for (let i = 0; i < 10; i++) {
        expect((await request(byMetrics).get('/metrics').set('Authorization', `Bearer wrong-${i}`)).status).toBe(401);
      }
      expect((await request(byMetrics).get('/admin/api/stats').set('Authorization', right)).status).toBe(429);
    } finally {
      await queues.close();
    }
  });

  it('answers 404 behind the token when no admin pages are installed', async () => {
    const app = createApp(fx.deps({ QUARRY_ADMIN_TOKEN: ADMIN_TOKEN }));
    const res = valid(await request(app).get('/admin/').set('Authorization', `Bearer ${ADMIN_TOKEN}`), null);
    expect(res.status).toBe(404);
  });
});
