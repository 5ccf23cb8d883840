import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { AdminHosts } from './hosts.js';
import type { AdminStats } from './stats.js';
import { type AdminFixture, crawlOutcomes, startAdminFixture, TOKEN } from './testing/fixture.js';

const UNTIL_MS = Date.UTC(2026, 11, 5, 20, 35, 33);

function getHosts(fx: AdminFixture, query: string): request.Test {
  return request(fx.server).get(`/admin/api/hosts${query}`).set('Authorization', `Bearer ${TOKEN}`);
}

async function hostsOf(fx: AdminFixture, query: string): Promise<AdminHosts> {
  const res = await getHosts(fx, query);
  expect(res.status).toBe(200);
  return res.body as AdminHosts;
}

describe('admin hosts view', () => {
  let fx: AdminFixture;
  beforeAll(async () => {
    // As the distributed queues' shared board answers: a promise.
    fx = await startAdminFixture({
      backingOff: async () => [{ host: 'b.example', reason: 'http_429', untilMs: UNTIL_MS }],
    });
    // a.example: 2 done, 1 skipped; b.example: 1 done, 2 failed; c.example: 3 queued, never crawled.
    await crawlOutcomes(fx, {
      'https://a.example/1': { status: 'done' },
      'https://a.example/2': { status: 'done' },
      'https://a.example/3': { status: 'skipped', reason: 'robots_disallowed' },
      'https://b.example/1': { status: 'failed', reason: 'http_404' },
      'https://b.example/2': { status: 'failed', reason: 'http_404' },
      'https://b.example/3': { status: 'done' },
    });
    await fx.queues.crawl.add(
      [1, 2, 3].map((n) => ({ url: `https://c.example/${n}`, depth: 0, scope: 'c', seed: 'https://c.example/' })),
    );
  });
  afterAll(async () => {
    await fx.close();
  });

  it('needs the admin session or token, as the rest of the admin area', async () => {
    const res = await request(fx.server).get('/admin/api/hosts');
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect((await request(fx.server).get('/admin/api/hosts').set('Authorization', `Bearer ${TOKEN}x`)).status).toBe(
      401,
    );
    const page = await request(fx.server).get('/admin/hosts?sort=failed').set('Accept', 'text/html');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/admin/login?next=%2Fadmin%2Fhosts%3Fsort%3Dfailed');
  });

  it('lists each host’s counts, reasons, last finish and back-off, most queued first', async () => {
    const body = await hostsOf(fx, '');
    expect(body).toMatchObject({ sort: 'queued', limit: 50, offset: 0, q: null, total: 3, counting: 'urls' });
    expect(body.backoffKnown).toBe(true);
    expect(body.hosts.map((h) => h.host)).toEqual(['c.example', 'a.example', 'b.example']);
    const [c, a, b] = body.hosts;
    expect(c).toEqual({
      host: 'c.example',
      queued: 3,
      inFlight: 0,
      done: 0,
      skipped: 0,
      failed: 0,
      reasons: [],
      skippedPages: 0,
      listsRead: 0,
      lastFinishedAt: null,
      backingOff: null,
    });
    expect(a).toMatchObject({
      done: 2,
      skipped: 1,
      reasons: [{ state: 'skipped', reason: 'robots_disallowed', count: 1 }],
    });
    expect(a?.lastFinishedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(b).toMatchObject({
      done: 1,
      failed: 2,
      reasons: [{ state: 'failed', reason: 'http_404', count: 2 }],
      backingOff: { reason: 'http_429', until: '2026-12-05T20:35:33Z' },
    });
    // The totals and the hosts agree.
    const stats = await fx.queues.crawl.stats();
    for (const field of ['queued', 'done', 'skipped', 'failed'] as const) {
      expect(body.hosts.reduce((n, h) => n + h[field], 0)).toBe(stats[field]);
    }
  });

  it('sorts, pages and filters', async () => {
    expect((await hostsOf(fx, '?sort=failed')).hosts.map((h) => h.host)).toEqual([
      'b.example',
      'a.example',
      'c.example',
    ]);
    expect((await hostsOf(fx, '?sort=done')).hosts.map((h) => h.host)).toEqual(['a.example', 'b.example', 'c.example']);
    expect((await hostsOf(fx, '?sort=last')).hosts.at(-1)?.host).toBe('c.example');
    const second = await hostsOf(fx, '?sort=done&limit=2&offset=2');
    expect([second.total, second.hosts.map((h) => h.host)]).toEqual([3, ['c.example']]);
    // An empty filter field is no filter; a filter is taken in any case.
    expect((await hostsOf(fx, '?q=')).total).toBe(3);
    const filtered = await hostsOf(fx, '?q=B.EXA');
    expect([filtered.q, filtered.total, filtered.hosts.map((h) => h.host)]).toEqual(['b.exa', 1, ['b.example']]);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=1&limit=2', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=100001', 'offset'],
    ['sort=host', 'sort'],
    ['sort=done&sort=failed', 'sort'],
    ['q=a*b', 'q'],
    ['q=%3Cscript%3E', 'q'],
    [`q=${'a'.repeat(254)}`, 'q'],
  ])('refuses %s with a 400 problem naming %s', async (query, param) => {
    const res = await getHosts(fx, `?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    // The public API's problem for a bad parameter (it was /docs#problem-client-error, "Bad request").
    expect(JSON.parse(res.text)).toEqual({
      type: '/docs#problem-invalid-parameter',
      title: 'Invalid parameter',
      status: 400,
      detail: expect.any(String),
      param,
    });
    expect(res.text).not.toContain('<script>');
  });

  it('draws the page on the server, sort links and filter kept, and says what a bad parameter was', async () => {
    const res = await request(fx.server)
      .get('/admin/hosts?sort=failed&q=example')
      .set('Authorization', `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    const body = res.text.slice(res.text.indexOf('<tbody id="hosts">'));
    expect(body.indexOf('b.example')).toBeLessThan(body.indexOf('a.example'));
    expect(res.text).toContain(
      '<th class="count" aria-sort="descending"><a href="/admin/hosts?sort=failed&#38;q=example">Failed</a>',
    );
    expect(res.text).toContain('href="/admin/hosts?sort=done&#38;q=example"');
    expect(res.text).toContain('value="example"');
    expect(res.text).toContain('data-hosts-url="/admin/api/hosts?sort=failed&#38;limit=50&#38;offset=0&#38;q=example"');
    expect(res.text).toContain('http_429 until 2026-12-05T20:35:33Z');
    const bad = await request(fx.server).get('/admin/hosts?limit=0').set('Authorization', `Bearer ${TOKEN}`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('limit must be an integer from 1 to 100.');
  });
});

// An empty crawl said "No host matches." with no filter set.
describe('admin hosts view listing no host', () => {
  it('says whether there are no hosts yet, none matching the filter, or none on the page', async () => {
    const fx = await startAdminFixture();
    const tbody = async (query: string) => {
      const res = await request(fx.server).get(`/admin/hosts${query}`).set('Authorization', `Bearer ${TOKEN}`);
      return /<tbody id="hosts">(.*?)<\/tbody>/.exec(res.text)?.[1];
    };
    try {
      expect(await tbody('')).toBe(
        '<tr><td colspan="9" class="muted">No hosts yet: nothing has been queued or crawled.</td></tr>',
      );
      await crawlOutcomes(fx, { 'https://a.example/1': { status: 'done' } });
      expect(await tbody('?q=zzz')).toBe('<tr><td colspan="9" class="muted">No host matches.</td></tr>');
      expect(await tbody('?offset=50')).toBe('<tr><td colspan="9" class="muted">No hosts on this page.</td></tr>');
    } finally {
      await fx.close();
    }
  });
});

// The dashboard said Skipped 6 where the hosts said 7 for the only host: they counted its sitemap.
describe('admin hosts view beside the dashboard', () => {
  it('counts the pages skipped as the dashboard does, the sitemaps and feeds read apart', async () => {
    const fx = await startAdminFixture();
    try {
      await crawlOutcomes(fx, {
        'https://example.org/': { status: 'done' },
        'https://example.org/sitemap.xml': { status: 'skipped', reason: 'no_sitemap' },
        'https://example.org/feed.xml': { status: 'skipped', reason: 'link_list' },
        'https://example.org/draft': { status: 'skipped', reason: 'noindex' },
        'https://example.org/private': { status: 'skipped', reason: 'robots_disallowed' },
        'https://other.example/draft': { status: 'skipped', reason: 'noindex' },
      });
      const stats = (await request(fx.server).get('/admin/api/stats').set('Authorization', `Bearer ${TOKEN}`))
        .body as AdminStats;
      expect([stats.crawl.skipped, stats.skippedPages, stats.listsRead]).toEqual([5, 3, 2]);
      const { hosts } = await hostsOf(fx, '');
      const sum = (field: 'skipped' | 'skippedPages' | 'listsRead') => hosts.reduce((n, h) => n + h[field], 0);
      expect([sum('skipped'), sum('skippedPages'), sum('listsRead')]).toEqual([5, 3, 2]);
      expect(hosts.find((h) => h.host === 'example.org')).toMatchObject({ skipped: 4, skippedPages: 2, listsRead: 2 });
      // The pages show the same numbers.
      const dashboard = await request(fx.server).get('/admin/').set('Authorization', `Bearer ${TOKEN}`);
      expect(dashboard.text).toContain('data-stat="skippedPages">3</div>');
      const page = await request(fx.server).get('/admin/hosts?sort=skipped').set('Authorization', `Bearer ${TOKEN}`);
      // Each row's count cells: queued, in flight, done, skipped, failed.
      const rows = [
        ...page.text.matchAll(/<tr><td class="host">([^<]*)<\/td>((?:<td class="count[^"]*">[^<]*<\/td>)+)/g),
      ];
      const skippedCells = rows.map((m) => [m[1], [...(m[2] ?? '').matchAll(/">([^<]*)<\/td>/g)][3]?.[1]]);
      expect(skippedCells).toEqual([
        ['example.org', '2'],
        ['other.example', '1'],
      ]);
    } finally {
      await fx.close();
    }
  });
});

describe('admin hosts view without a crawler in the process', () => {
  it('says the back-off is unknown rather than none', async () => {
    const fx = await startAdminFixture();
    try {
      await fx.queues.crawl.add([{ url: 'https://a.example/', depth: 0, scope: 'a', seed: 'https://a.example/' }]);
      const body = await hostsOf(fx, '');
      expect(body.backoffKnown).toBe(false);
      expect(body.hosts[0]?.backingOff).toBeNull();
      const page = await request(fx.server).get('/admin/hosts').set('Authorization', `Bearer ${TOKEN}`);
      expect(page.text).toContain('unknown: no crawler in this process');
    } finally {
      await fx.close();
    }
  });
});
