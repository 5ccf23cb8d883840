import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Route, type Site, startSite } from '@quarry/testkit';
import { requireBuiltCli, runCli, spawnCli } from './testing/run-cli.js';

// Depth 3 from the seed (the default): pages 0 to 3.
const PAGES = 4;

/** Sample values by series (`name{labels}`); throws on any line that is not Prometheus text. */
function parsePrometheus(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* /.test(line)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})?) (\S+)$/.exec(line);
    if (!m?.[1] || !m[2] || Number.isNaN(Number(m[2]))) throw new Error(`not Prometheus text: ${line}`);
    out.set(m[1], Number(m[2]));
  }
  return out;
}

const sum = (samples: Map<string, number>, prefix: string) =>
  [...samples].filter(([k]) => k.startsWith(prefix)).reduce((n, [, v]) => n + v, 0);

/** Logs in to the dashboard at `url` with the token stored in `dir`; the session cookie (`name=value`). */
async function adminSession(url: string, dir: string): Promise<string> {
  const token = readFileSync(join(dir, 'admin-token'), 'utf8').trim();
  const res = await fetch(`${url}/admin/login`, {
    method: 'POST',
    headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  return (res.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
}

/** A running `quarry start` (or `serve`) whose stderr is collected. */
const start = (args: string[], env: Record<string, string>, command: 'start' | 'serve' = 'start') =>
  spawnCli([command, ...args], env);

// Each test runs its own processes on a data dir of its own (ports 0), so the three run at once: most of
// their time is waiting (a crawl's host delay, a progress interval).
describe('quarry start tells what it does and serves metrics (issue 10, points 4, 6 and 7)', () => {
  let site: Site;
  let dir: string;

  beforeAll(async () => {
    requireBuiltCli();
    const routes: Record<string, Route> = { '/robots.txt': { body: '' } };
    for (let i = 0; i < PAGES; i++) {
      const next = i + 1 < PAGES ? `<a href="/p/${i + 1}.html">next</a>` : '';
      routes[`/p/${i}.html`] = {
        headers: { 'content-type': 'text/html' },
        body: `<html lang="en"><head><title>Heron part ${i}</title></head><body><article><h1>Heron part ${i}</h1><p>Heron note ${i}. ${'Herons wade in the shallow water of the local lake. '.repeat(15)}</p>${next}</article></body></html>`,
      };
    }
    site = await startSite(routes);
    dir = mkdtempSync(join(tmpdir(), 'quarry-start-'));
  });
  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.concurrent('announces its real address, admin page and token file, reports progress, and serves moving metrics', async () => {
    const env = {
      QUARRY_DATA_DIR: dir,
      PORT: '0',
      QUARRY_ALLOW_HOSTS: '127.0.0.1',
      QUARRY_HOST_DELAY_MS: '900',
      // Port 0 for both: a port picked beforehand can be taken before the process binds it.
      QUARRY_METRICS_PORT: '0',
      LOG_LEVEL: 'silent',
    };
    const quarry = start(['--seed', `${site.origin}/p/0.html`], env);
    try {
      const [, port, url] = await quarry.waitFor(
        /Quarry is listening on 0\.0\.0\.0:(\d+) \(every interface; from this machine: (http:\/\/127\.0\.0\.1:\d+)\)/,
      );
      expect(url).toBe(`http://127.0.0.1:${port}`);
      const tokenFile = join(dir, 'admin-token');
      expect(quarry.stderr).toContain(`admin:   ${url}/admin/  (token: ${tokenFile})`);
      // Its stderr is a pipe here, as a container's log is: the token stays in its file.
      expect(quarry.stderr).toContain(`Generated an admin token, stored in ${tokenFile}`);
      expect(quarry.stderr).not.toContain(readFileSync(tokenFile, 'utf8').trim());
      const [, metricsPort] = await quarry.waitFor(
        /metrics: http:\/\/127\.0\.0\.1:\d+\/metrics \(admin token\); without a token on 0\.0\.0\.0:(\d+)\/metrics/,
      );
      expect(quarry.stderr).toContain(
        `metrics: ${url}/metrics (admin token); without a token on 0.0.0.0:${metricsPort}/metrics`,
      );
      expect(metricsPort).not.toBe('0');
      const token = readFileSync(tokenFile, 'utf8').trim();
      const scrape = async () => {
        const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
        expect(res.status).toBe(200);
        return parsePrometheus(await res.text());
      };
      expect((await fetch(`${url}/metrics`)).status).toBe(401);

      const first = await scrape();
      await quarry.waitFor(/crawl: \d+ done, \d+ queued, \d+ in flight, \d+ skipped, \d+ failed \| [\d.]+ pages\/s/);
      await quarry.waitFor(/crawl idle: 4 done/, 150_000);
      const after = await scrape();
      expect(sum(after, 'quarry_crawl_outcomes_total')).toBeGreaterThan(sum(first, 'quarry_crawl_outcomes_total'));
      expect(after.get('quarry_crawl_outcomes_total{state="done",reason="none"}')).toBe(PAGES);
      expect(after.get('quarry_crawl_urls{state="done"}')).toBe(PAGES);
      expect(after.get('quarry_queue_depth{queue="crawl",state="queued"}')).toBe(0);

      // Query-string hygiene, end to end.
      const search = (qs: string) => fetch(`${url}/api/v1/search?${qs}`);
      const filtered = await search(`q=${encodeURIComponent('site:127.0.0.1 -zebra')}`);
      // Valid now (was a 400 "only exclusions"); which pages it returns is the index backend's part.
      expect(filtered.status).toBe(200);
      expect(Array.isArray(((await filtered.json()) as { results: unknown }).results)).toBe(true);
      for (const [qs, param] of [
        ['q[]=a', 'q[]'],
        ['q=a&offset[$gt]=1', 'offset[$gt]'],
        ['q=a&q=b', 'q'],
      ] as const) {
        const res = await search(qs);
        expect([qs, res.status, ((await res.json()) as { param?: string }).param]).toEqual([qs, 400, param]);
      }
      // Scraped until both are counted (each request is counted once answered, the index gauge
      // moves as the indexer writes), for at most 10 s; then both must hold.
      const refusedSearches = '{route="/api/v1/search",method="GET",status="400"}';
      let counted = await scrape();
      for (const until = Date.now() + 10_000; Date.now() < until; counted = await scrape()) {
        const done = counted.get(`quarry_http_requests_total${refusedSearches}`) === 3;
        if (done && counted.get('quarry_index_documents') === PAGES) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(counted.get(`quarry_http_requests_total${refusedSearches}`)).toBe(3);
      expect(counted.get('quarry_index_documents') ?? 0).toBe(PAGES);

      // The separate metrics port needs no token.
      const open = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(open.status).toBe(200);
      expect(parsePrometheus(await open.text()).has('quarry_crawl_urls{state="done"}')).toBe(true);
    } finally {
      expect(await quarry.stop()).toBe(0);
    }

    // Every start names the admin page and token file again, and an idle crawler stays quiet.
    const again = start([], { ...env, QUARRY_METRICS_PORT: '' });
    let kept = '';
    let ended = '';
    try {
      const [, url = ''] = await again.waitFor(/from this machine: (http:\/\/127\.0\.0\.1:\d+)\)/);
      // Two sessions, one logged out: a restart keeps the other, and the logout.
      [kept, ended] = [await adminSession(url, dir), await adminSession(url, dir)];
      const out = await fetch(`${url}/admin/logout`, {
        method: 'POST',
        headers: { cookie: ended, origin: url },
        redirect: 'manual',
      });
      expect(out.status).toBe(303);
      expect(again.stderr).toContain(`(token: ${join(dir, 'admin-token')})`);
      expect(again.stderr).not.toContain('Generated an admin token');
      await new Promise((r) => setTimeout(r, 6500));
      expect(again.stderr).not.toMatch(/crawl( idle)?: /);
    } finally {
      expect(await again.stop()).toBe(0);
    }

    // `quarry serve` on the same data dir opens /metrics with the token `start` stored there.
    const served = start([], { ...env, QUARRY_METRICS_PORT: '' }, 'serve');
    try {
      const [, url] = await served.waitFor(/from this machine: (http:\/\/127\.0\.0\.1:\d+)\)/);
      expect(served.stderr).toContain(`(token: ${join(dir, 'admin-token')})`);
      const token = readFileSync(join(dir, 'admin-token'), 'utf8').trim();
      expect((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      expect((await fetch(`${url}/metrics`)).status).toBe(401);
      const stats = (cookie: string) => fetch(`${url}/admin/api/stats`, { headers: { cookie } });
      expect((await stats(kept)).status).toBe(200);
      expect((await stats(ended)).status).toBe(401);
    } finally {
      expect(await served.stop()).toBe(0);
    }
  }, 400_000);

  it.concurrent('gives its seeds the budget and depth of --max-pages and --max-depth, as crawl does', async () => {
    const own = mkdtempSync(join(tmpdir(), 'quarry-start-depth-'));
    const env = { QUARRY_DATA_DIR: own, PORT: '0', QUARRY_ALLOW_HOSTS: '127.0.0.1', QUARRY_HOST_DELAY_MS: '100' };
    const quarry = start(['--seed', `${site.origin}/p/0.html`, '--max-depth', '1'], { ...env, LOG_LEVEL: 'silent' });
    try {
      // Pages 0 and 1 of the 4 a depth of 3 reaches.
      await quarry.waitFor(/crawl idle: 2 done, 0 queued/, 60_000);
    } finally {
      expect(await quarry.stop()).toBe(0);
      rmSync(own, { recursive: true, force: true });
    }
    const refused = await runCli(['start', '--max-pages', '0'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("'--max-pages <n>' argument '0' is invalid");
  }, 120_000);

  it.concurrent('shows the hosts its crawler backs off from on the dashboard, as the progress line names them', async () => {
    const own = mkdtempSync(join(tmpdir(), 'quarry-start-backoff-'));
    const failing = await startSite({
      '/robots.txt': { status: 500, body: 'robots.txt is down' },
      '/': { headers: { 'content-type': 'text/html' }, body: '<html><title>never read</title></html>' },
    });
    const env = { QUARRY_DATA_DIR: own, PORT: '0', QUARRY_ALLOW_HOSTS: '127.0.0.1', LOG_LEVEL: 'silent' };
    const stats = async (url: string) => {
      const token = readFileSync(join(own, 'admin-token'), 'utf8').trim();
      const res = await fetch(`${url}/admin/api/stats`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      return (await res.json()) as { backingOff: { total: number; hosts: unknown[] } | null };
    };
    try {
      const quarry = start(['--seed', `${failing.origin}/`], env);
      try {
        const [, url = ''] = await quarry.waitFor(/from this machine: (http:\/\/127\.0\.0\.1:\d+)\)/);
        await quarry.waitFor(/backing off: 127\.0\.0\.1 \(robots_unreachable\)/, 60_000);
        const { backingOff } = await stats(url);
        expect(backingOff?.hosts).toContainEqual({
          host: '127.0.0.1',
          reason: 'robots_unreachable',
          until: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        });
      } finally {
        expect(await quarry.stop()).toBe(0);
      }
      // `quarry serve` runs no crawler: it has no back-off to show, and says so rather than "none".
      const served = start([], env, 'serve');
      try {
        const [, url = ''] = await served.waitFor(/from this machine: (http:\/\/127\.0\.0\.1:\d+)\)/);
        expect((await stats(url)).backingOff).toBeNull();
      } finally {
        expect(await served.stop()).toBe(0);
      }
    } finally {
      await failing.close();
      rmSync(own, { recursive: true, force: true });
    }
  }, 180_000);
});
