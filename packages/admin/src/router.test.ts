import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { sendDashboard } from './pages/dashboard.js';
import { escapeHtml } from './pages/html.js';
import type { AdminStats } from './stats.js';
import { type AdminFixture, crawlOutcomes, page, startAdminFixture, TOKEN } from './testing/fixture.js';

/** The session cookie pair (`name=value`) from a login response. */
function cookieOf(res: request.Response): string {
  const set = res.headers['set-cookie'] as unknown as string[] | undefined;
  const cookie = set?.find((c) => c.startsWith('quarry_admin_session='));
  if (!cookie) throw new Error('no session cookie set');
  return cookie.split(';')[0] ?? '';
}

async function login(fx: AdminFixture, next?: string): Promise<request.Response> {
  return request(fx.server)
    .post('/admin/login')
    .set('Origin', fx.origin)
    .type('form')
    .send({ token: TOKEN, ...(next ? { next } : {}) });
}

function expectProblem(res: request.Response, status: number): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(res.text) as Record<string, unknown>;
  expect(body).toEqual({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String) });
  expect(res.text).not.toContain(TOKEN);
}

describe('admin router', () => {
  let fx: AdminFixture;
  beforeAll(async () => {
    fx = await startAdminFixture();
  });
  afterAll(async () => {
    await fx.close();
  });

  describe('without credentials', () => {
    it('redirects a page request to the login form, keeping where it was going', async () => {
      const res = await request(fx.server).get('/admin/queues').set('Accept', 'text/html');
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/admin/login?next=%2Fadmin%2Fqueues');
    });

    it('answers JSON requests with a 401 problem', async () => {
      const res = await request(fx.server).get('/admin/api/stats');
      expectProblem(res, 401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
      expectProblem(await request(fx.server).get('/admin/').set('Accept', 'application/json'), 401);
    });

    it('answers the API with a 401 problem whatever the case of its path, as the routes match it', async () => {
      const res = await request(fx.server).get('/admin/API/STATS').set('Accept', 'text/html');
      expectProblem(res, 401);
      const right = await request(fx.server).get('/admin/API/STATS').set('Authorization', `Bearer ${TOKEN}`);
      expect(right.status).toBe(200);
    });

    it('serves the login form to anyone', async () => {
      const res = await request(fx.server).get('/admin/login?next=%2Fadmin%2Fqueues');
      expect(res.status).toBe(200);
      expect(res.text).toContain('<form class="login" method="post" action="/admin/login">');
      expect(res.text).toContain('value="/admin/queues"');
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    });
  });

  describe('bearer token', () => {
    it('refuses a wrong token with 401', async () => {
      expectProblem(await request(fx.server).get('/admin/api/stats').set('Authorization', `Bearer ${TOKEN}x`), 401);
      expectProblem(await request(fx.server).get('/admin/').set('Authorization', 'Basic abc'), 401);
    });

    it('accepts the admin token for the stats and the dashboard', async () => {
      const stats = await request(fx.server).get('/admin/api/stats').set('Authorization', `Bearer ${TOKEN}`);
      expect(stats.status).toBe(200);
      expect(stats.headers['cache-control']).toBe('no-store');
      const body = stats.body as AdminStats;
      expect(body.crawl).toEqual(
        expect.objectContaining({ queued: expect.any(Number), topFailures: expect.any(Array) }),
      );
      expect(body.index).toEqual({
        waiting: expect.any(Number),
        active: expect.any(Number),
        failed: expect.any(Number),
      });
      expect(body.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const dash = await request(fx.server).get('/admin/').set('Authorization', `Bearer ${TOKEN}`);
      expect(dash.status).toBe(200);
      // Issue 10: the table lists skip reasons as well as failures (it was "Most common failure reasons").
      expect(dash.text).toContain('Why pages were skipped or failed');
    });
  });

  it('shows what the operator should act on, as text, in the stats and on the dashboard', async () => {
    const stale = await startAdminFixture({}, { earlierAnalysis: true });
    try {
      const auth = { Authorization: `Bearer ${TOKEN}` };
      const [notice, ...rest] = ((await request(stale.server).get('/admin/api/stats').set(auth)).body as AdminStats)
        .notices;
      expect(rest).toEqual([]);
      expect(notice).toContain('<i>');
      expect(notice).toMatch(/quarry reindex$/);
      const dash = await request(stale.server).get('/admin/').set(auth);
      expect(dash.text).toContain(`<p>${escapeHtml(notice ?? '')}</p>`);
      expect(dash.text).not.toContain('<i>');
      const fresh = (await request(fx.server).get('/admin/api/stats').set(auth)).body as AdminStats;
      expect(fresh.notices).toEqual([]);
    } finally {
      await stale.close();
    }
  });

  it("shows the queue backend's notices before the index's", async () => {
    const lost = 'Redis lost the crawl state (noticed 2026-12-07T10:00:00Z): run `quarry recrawl`';
    const withQueue = await startAdminFixture({ queueNotices: async () => [lost] }, { earlierAnalysis: true });
    try {
      const auth = { Authorization: `Bearer ${TOKEN}` };
      const { notices } = (await request(withQueue.server).get('/admin/api/stats').set(auth)).body as AdminStats;
      expect(notices).toHaveLength(2);
      expect(notices[0]).toBe(lost);
      expect(notices[1]).toMatch(/quarry reindex$/);
      expect((await request(withQueue.server).get('/admin/').set(auth)).text).toContain(`<p>${escapeHtml(lost)}</p>`);
    } finally {
      await withQueue.close();
    }
  });

  describe('login form', () => {
    it('sets an HttpOnly, SameSite=Strict cookie scoped to /admin that holds no token', async () => {
      const res = await login(fx);
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/admin/');
      const raw = (res.headers['set-cookie'] as unknown as string[])[0] ?? '';
      expect(raw).toMatch(/HttpOnly/);
      expect(raw).toMatch(/SameSite=Strict/);
      expect(raw).toMatch(/Path=\/admin(;|$)/);
      expect(raw).not.toContain(TOKEN);
      expect(raw).not.toContain(encodeURIComponent(TOKEN));
    });

    it('lets the cookie open the dashboard, the stats and the queues page', async () => {
      const cookie = cookieOf(await login(fx));
      const dash = await request(fx.server).get('/admin/').set('Cookie', cookie).set('Accept', 'text/html');
      expect(dash.status).toBe(200);
      expect(dash.text).toContain('Documents indexed');
      const stats = await request(fx.server).get('/admin/api/stats').set('Cookie', cookie);
      expect(stats.status).toBe(200);
      const queues = await request(fx.server).get('/admin/queues').set('Cookie', cookie);
      expect(queues.status).toBe(200);
      expect(queues.text).toContain('SQLite');
      expect(queues.text).toContain('href="/admin/"');
    });

    it('returns to a requested admin page, never elsewhere', async () => {
      expect((await login(fx, '/admin/queues')).headers.location).toBe('/admin/queues');
      expect((await login(fx, '//evil.example/')).headers.location).toBe('/admin/');
      // A browser resolves dot segments after the prefix was checked: out of the admin area.
      expect((await login(fx, '/admin/../../api/v1/search?q=x')).headers.location).toBe('/admin/');
      expect((await login(fx, '/admin/%2e%2e/api/v1/search?q=x')).headers.location).toBe('/admin/');
    });

    it('refuses a wrong token with 401 and no cookie', async () => {
      const res = await request(fx.server)
        .post('/admin/login')
        .set('Origin', fx.origin)
        .type('form')
        .send({ token: 'nope' });
      expect(res.status).toBe(401);
      expect(res.text).toContain('That is not the admin token.');
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('refuses logins from other sites or without an Origin', async () => {
      const cross = await request(fx.server)
        .post('/admin/login')
        .set('Origin', 'http://evil.example')
        .type('form')
        .send({ token: TOKEN });
      expectProblem(cross, 403);
      expect(cross.headers['set-cookie']).toBeUndefined();
      expectProblem(await request(fx.server).post('/admin/login').type('form').send({ token: TOKEN }), 403);
      const fetchSite = await request(fx.server)
        .post('/admin/login')
        .set('Sec-Fetch-Site', 'cross-site')
        .set('Origin', fx.origin)
        .type('form')
        .send({ token: TOKEN });
      expectProblem(fetchSite, 403);
    });

    it('refuses an oversized or malformed login body with a problem, no stack trace', async () => {
      const big = await request(fx.server)
        .post('/admin/login')
        .set('Origin', fx.origin)
        .type('form')
        .send({ token: 'x'.repeat(10_000) });
      expectProblem(big, 413);
      const bad = await request(fx.server)
        .post('/admin/login')
        .set('Origin', fx.origin)
        .set('Content-Type', 'application/x-www-form-urlencoded; charset=klingon')
        .send('token=x');
      expect([400, 415]).toContain(bad.status);
      expect(bad.text).not.toMatch(/at .*\.(ts|js):\d+/);
    });

    it('ignores a tampered cookie', async () => {
      const cookie = cookieOf(await login(fx));
      const tampered = `${cookie.slice(0, -2)}${cookie.endsWith('A') ? 'B' : 'A'}A`;
      const res = await request(fx.server).get('/admin/').set('Cookie', tampered).set('Accept', 'text/html');
      expect(res.status).toBe(303);
    });

    it('refuses cookie-authenticated state changes from another site', async () => {
      const cookie = cookieOf(await login(fx));
      const res = await request(fx.server)
        .post('/admin/api/stats')
        .set('Cookie', cookie)
        .set('Origin', 'http://evil.example');
      expectProblem(res, 403);
    });

    it('logs out: the cookie is cleared and no longer accepted', async () => {
      const cookie = cookieOf(await login(fx));
      const out = await request(fx.server).post('/admin/logout').set('Cookie', cookie).set('Origin', fx.origin);
      expect(out.status).toBe(303);
      expect(out.headers.location).toBe('/admin/login');
      const cleared = (out.headers['set-cookie'] as unknown as string[])[0] ?? '';
      expect(cleared).toMatch(/^quarry_admin_session=;/);
      expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
      expectProblem(await request(fx.server).get('/admin/api/stats').set('Cookie', cookie), 401);
    });
  });

  it('answers unknown admin paths with a 404 problem, after authentication', async () => {
    expectProblem(await request(fx.server).get('/admin/nope').set('Authorization', `Bearer ${TOKEN}`), 404);
    expectProblem(await request(fx.server).get('/admin/nope').set('Accept', 'application/json'), 401);
  });

  it('reflects the real queue and index in the stats', async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const before = (await request(fx.server).get('/admin/api/stats').set(auth)).body as AdminStats;
    const tasks = [1, 2, 3].map((n) => ({
      url: `https://example.org/s${n}`,
      depth: 0,
      scope: 'example.org',
      seed: 'https://example.org/',
    }));
    expect(await fx.queues.crawl.add(tasks)).toBe(3);
    await fx.queues.index.push([page(1), page(2)]);
    await fx.searchIndex.upsert([page(3), page(4), page(5)]);
    const after = (await request(fx.server).get('/admin/api/stats').set(auth)).body as AdminStats;
    expect(after.crawl.queued).toBe(before.crawl.queued + 3);
    expect(after.index.waiting).toBe(before.index.waiting + 2);
    expect(after.documents).toBe(before.documents + 3);

    // Crawl them: one fails, one is skipped, one is done; the counts and reasons follow.
    const outcomes: Record<string, { status: 'done' | 'skipped' | 'failed'; reason?: string }> = {
      'https://example.org/s1': { status: 'done' },
      'https://example.org/s2': { status: 'skipped', reason: 'robots_disallowed' },
      'https://example.org/s3': { status: 'failed', reason: 'too_large' },
    };
    const worker = fx.queues.crawl.work(async (task) => outcomes[task.url] ?? { status: 'done' }, { concurrency: 3 });
    const deadline = Date.now() + 10_000;
    while (!(await fx.queues.crawl.isIdle()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await worker.close();
    const done = (await request(fx.server).get('/admin/api/stats').set(auth)).body as AdminStats;
    expect(done.crawl).toEqual(
      expect.objectContaining({
        queued: 0,
        inFlight: 0,
        done: before.crawl.done + 1,
        skipped: before.crawl.skipped + 1,
        failed: before.crawl.failed + 1,
      }),
    );
    expect(done.crawl.topFailures).toEqual(expect.arrayContaining([{ reason: 'too_large', count: 1 }]));
    const html = await request(fx.server).get('/admin/').set(auth);
    expect(html.text).toContain('<code>too_large</code>');
    expect(done.crawl.reasons).toEqual(
      expect.arrayContaining([
        { state: 'skipped', reason: 'robots_disallowed', count: 1, examples: ['https://example.org/s2'] },
        { state: 'failed', reason: 'too_large', count: 1, examples: ['https://example.org/s3'] },
      ]),
    );
    expect(html.text).toContain('<code>robots_disallowed</code>');
    expect(html.text).toContain('<div>https://example.org/s2</div>');
  });
});

describe('admin router figures', () => {
  const auth = { Authorization: `Bearer ${TOKEN}` };

  it('counts the sitemaps and feeds read apart from the pages skipped, as quarry status does', async () => {
    const fx = await startAdminFixture();
    try {
      await crawlOutcomes(fx, {
        'https://example.org/': { status: 'done' },
        'https://example.org/sitemap.xml': { status: 'skipped', reason: 'no_sitemap' },
        'https://example.org/feed.xml': { status: 'skipped', reason: 'link_list' },
        'https://example.org/private': { status: 'skipped', reason: 'robots_disallowed' },
      });
      const stats = (await request(fx.server).get('/admin/api/stats').set(auth)).body as AdminStats;
      expect(stats.crawl.skipped).toBe(3);
      expect(stats).toEqual(expect.objectContaining({ skippedPages: 1, listsRead: 2 }));
      const html = (await request(fx.server).get('/admin/').set(auth)).text;
      expect(html).toContain('<div class="label">Skipped</div><div class="value" data-stat="skippedPages">1</div>');
      expect(html).toContain(
        '<div class="label">Sitemaps and feeds looked for</div><div class="value" data-stat="listsRead">2</div>',
      );
      // What a code that does not explain itself means, as quarry status says under its list.
      expect(html).toContain('<code>no_sitemap</code><div class="note">a sitemap tried for a seed');
      // The skipped rows add up to the Skipped tile: the sitemaps and feeds are listed apart, as
      // quarry status lists them (the table once showed 93 skipped under a tile of 60).
      const tbody = (id: string) => new RegExp(`<tbody id="${id}">(.*?)</tbody>`).exec(html)?.[1] ?? '';
      expect(tbody('reasons')).toContain('<td>skipped</td><td><code>robots_disallowed</code>');
      expect(tbody('reasons')).not.toMatch(/no_sitemap|link_list/);
      expect(tbody('lists')).toContain('<tr><td><code>no_sitemap</code>');
      expect(tbody('lists')).toContain('<tr><td><code>link_list</code>');
      expect(tbody('lists')).toContain('<div>https://example.org/feed.xml</div>');
    } finally {
      await fx.close();
    }
  });

  it('shows a long example URL by its start and end, whole in its title', async () => {
    const fx = await startAdminFixture();
    try {
      const long = `https://example.org/a?q=${'0123456789abcdef'.repeat(125)}&en=<1>`;
      expect(long.length).toBe(2031);
      await crawlOutcomes(fx, { [long]: { status: 'failed', reason: 'http_414' } });
      const html = (await request(fx.server).get('/admin/').set(auth)).text;
      expect(html).toContain(
        `<div title="${escapeHtml(long)}">${escapeHtml(`${long.slice(0, 80)}…${long.slice(-30)}`)}</div>`,
      );
      expect(html).not.toContain(`>${escapeHtml(long)}<`);
    } finally {
      await fx.close();
    }
  });

  it('adds a row for the reasons beyond the ten listed, so the rows add up to the tiles', async () => {
    const fx = await startAdminFixture();
    try {
      const outcomes = Object.fromEntries(
        Array.from({ length: 13 }, (_, n) => [
          `https://example.org/f${n}`,
          { status: 'failed' as const, reason: `http_${400 + n}` },
        ]),
      );
      await crawlOutcomes(fx, outcomes);
      const stats = (await request(fx.server).get('/admin/api/stats').set(auth)).body as AdminStats;
      expect(stats.crawl.failed).toBe(13);
      expect(stats.crawl.reasons.length).toBe(10);
      const html = (await request(fx.server).get('/admin/').set(auth)).text;
      expect(html).toContain('<tr><td>failed</td><td class="muted">other reasons</td><td class="count">3</td>');
      expect(html).not.toContain('<td>skipped</td><td class="muted">other reasons</td>');
    } finally {
      await fx.close();
    }
  });
});

// A logout was kept in the process's memory: once `quarry start` restarted, the logged-out cookie
// opened the dashboard again for the rest of its 12 hours.
describe('admin sessions across a restart', () => {
  it('keeps a session valid, and a logout in force, when the router is made again on the same file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-admin-logouts-'));
    const revokedSessionsFile = join(dir, 'admin-logouts.json');
    let before: AdminFixture | undefined = await startAdminFixture({ revokedSessionsFile });
    let after: AdminFixture | undefined;
    try {
      const kept = cookieOf(await login(before));
      const ended = cookieOf(await login(before));
      await request(before.server).post('/admin/logout').set('Cookie', ended).set('Origin', before.origin);
      expectProblem(await request(before.server).get('/admin/api/stats').set('Cookie', ended), 401);
      await before.close();
      before = undefined;
      after = await startAdminFixture({ revokedSessionsFile });
      expectProblem(await request(after.server).get('/admin/api/stats').set('Cookie', ended), 401);
      expect((await request(after.server).get('/admin/api/stats').set('Cookie', kept)).status).toBe(200);
    } finally {
      await before?.close();
      await after?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('admin router limits and failures', () => {
  it('does not count the right bearer token as a failure', async () => {
    const fx = await startAdminFixture({ maxFailedLogins: 2 });
    try {
      const auth = { Authorization: `Bearer ${TOKEN}` };
      for (let i = 0; i < 4; i++) expect((await request(fx.server).get('/admin/api/stats').set(auth)).status).toBe(200);
      // Nor when what it asks is wrong: a bad parameter is the admin's 400, not a failed login.
      for (let i = 0; i < 4; i++) {
        expect((await request(fx.server).get('/admin/api/hosts?sort=bogus').set(auth)).status).toBe(400);
      }
      expect((await request(fx.server).get('/admin/api/stats').set(auth)).status).toBe(200);
      expectProblem(await request(fx.server).get('/admin/api/stats').set('Authorization', 'Bearer wrong-1'), 401);
    } finally {
      await fx.close();
    }
  });

  it('rate limits failed logins per client', async () => {
    const fx = await startAdminFixture({ maxFailedLogins: 3 });
    try {
      for (let i = 0; i < 3; i++) {
        expect(
          (await request(fx.server).post('/admin/login').set('Origin', fx.origin).type('form').send({ token: 'wrong' }))
            .status,
        ).toBe(401);
      }
      const limited = await request(fx.server)
        .post('/admin/login')
        .set('Origin', fx.origin)
        .type('form')
        .send({ token: TOKEN });
      expect(limited.status).toBe(429);
      expect(limited.headers['set-cookie']).toBeUndefined();
      expectProblem(
        await request(fx.server).get('/admin/api/stats').set('Authorization', 'Bearer wrong-token-guess'),
        429,
      );
      // Nor is the right bearer token let through while the address is locked out: a 200 for it
      // beside a 429 for each wrong one would let guessing go on at full speed.
      expectProblem(await request(fx.server).get('/admin/api/stats').set('Authorization', `Bearer ${TOKEN}`), 429);
    } finally {
      await fx.close();
    }
  });

  it('answers 503 when a backend cannot serve, without its error', async () => {
    const errors: unknown[] = [];
    const fx = await startAdminFixture({ onError: (err) => errors.push(err) });
    try {
      await fx.searchIndex.close();
      const res = await request(fx.server).get('/admin/api/stats').set('Authorization', `Bearer ${TOKEN}`);
      expectProblem(res, 503);
      expect(errors.length).toBe(1);
      const dash = await request(fx.server).get('/admin/').set('Authorization', `Bearer ${TOKEN}`);
      expect(dash.status).toBe(200);
      expect(dash.text).toContain('The backends did not answer');
    } finally {
      await fx.close();
    }
  });

  it('refuses to build without a real token', async () => {
    const { createAdminRouter } = await import('./router.js');
    const fx = await startAdminFixture();
    try {
      const q = fx.queues;
      expect(() =>
        createAdminRouter({ token: '', crawl: q.crawl, index: q.index, searchIndex: fx.searchIndex }),
      ).toThrow(RangeError);
      expect(() =>
        createAdminRouter({ token: 'short', crawl: q.crawl, index: q.index, searchIndex: fx.searchIndex }),
      ).toThrow(RangeError);
      // Long enough, and guessed at once.
      expect(() =>
        createAdminRouter({ token: 'ab'.repeat(12), crawl: q.crawl, index: q.index, searchIndex: fx.searchIndex }),
      ).toThrow(/at least 6 different characters/);
      // A token no bearer can carry: with whitespace inside or around it.
      for (const token of [`${TOKEN.slice(0, 10)} ${TOKEN.slice(10)}`, ` ${TOKEN}`]) {
        expect(() => createAdminRouter({ token, crawl: q.crawl, index: q.index, searchIndex: fx.searchIndex })).toThrow(
          /no space or other whitespace inside/,
        );
      }
    } finally {
      await fx.close();
    }
  });
});

describe('admin router back-off', () => {
  const auth = { Authorization: `Bearer ${TOKEN}` };
  const UNTIL_MS = Date.UTC(2026, 11, 5, 20, 35, 33);

  it("reads the back-offs of a shared board, every worker's (a promise, as in distributed mode)", async () => {
    const fx = await startAdminFixture({
      backingOff: async () => [{ host: 'w.example', reason: 'http_503', untilMs: UNTIL_MS }],
    });
    try {
      const stats = (await request(fx.server).get('/admin/api/stats').set(auth)).body as AdminStats;
      expect(stats.backingOff).toEqual({
        total: 1,
        hosts: [{ host: 'w.example', reason: 'http_503', until: '2026-12-05T20:35:33Z' }],
      });
    } finally {
      await fx.close();
    }
  });

  it('lists the hosts the crawler of the process backs off from, with why and until when, as text', async () => {
    const hosts = [
      { host: 'a<img src=x>.example', reason: 'robots_unreachable', untilMs: UNTIL_MS },
      ...Array.from({ length: 24 }, (_, n) => ({ host: `h${n}.example`, reason: 'http_429', untilMs: UNTIL_MS })),
    ];
    const fx = await startAdminFixture({ backingOff: () => hosts });
    try {
      const stats = (await request(fx.server).get('/admin/api/stats').set(auth)).body as AdminStats;
      expect(stats.backingOff?.total).toBe(25);
      expect(stats.backingOff?.hosts).toHaveLength(20);
      expect(stats.backingOff?.hosts[0]).toEqual({
        host: 'a<img src=x>.example',
        reason: 'robots_unreachable',
        until: '2026-12-05T20:35:33Z',
      });
      const html = (await request(fx.server).get('/admin/').set(auth)).text;
      expect(html).toContain(
        `<tr><td>${escapeHtml('a<img src=x>.example')}</td><td><code>robots_unreachable</code></td><td>2026-12-05T20:35:33Z</td></tr>`,
      );
      expect(html).not.toContain('<img');
      expect(html).toContain('<td colspan="3" class="muted">and 5 more</td>');
    } finally {
      await fx.close();
    }
  });

  it('says when no host is backed off from, and when the process runs no crawler to ask', async () => {
    const idle = await startAdminFixture({ backingOff: () => [] });
    const apiOnly = await startAdminFixture();
    try {
      const none = (await request(idle.server).get('/admin/api/stats').set(auth)).body as AdminStats;
      expect(none.backingOff).toEqual({ total: 0, hosts: [] });
      expect((await request(idle.server).get('/admin/').set(auth)).text).toContain('No host is being backed off from.');
      const unknown = (await request(apiOnly.server).get('/admin/api/stats').set(auth)).body as AdminStats;
      expect(unknown.backingOff).toBeNull();
      // An embedded `quarry serve` has neither workers nor a Bull Board to point at.
      const embedded = (await request(apiOnly.server).get('/admin/').set(auth)).text;
      expect(embedded).toContain(
        'No crawler runs in this process (quarry serve): the crawler of quarry start or quarry crawl --wait keeps the hosts it backs off from in its own memory',
      );
      expect(embedded).not.toMatch(/quarry worker|delayed jobs/);
    } finally {
      await idle.close();
      await apiOnly.close();
    }
  });

  it('points a process of a distributed crawl without a crawler at the workers and the queues', async () => {
    const app = express();
    app.get('/', (_req, res) =>
      sendDashboard(res, { baseUrl: '', stats: null, refreshIntervalMs: 5000, distributed: true }),
    );
    const html = (await request(app).get('/')).text;
    expect(html).toContain(
      'data-no-crawler="No crawler runs in this process: each worker (quarry worker) backs off from hosts on its own; the pages waiting to be tried again are delayed jobs of the crawl queue (Queues)."',
    );
  });
});
