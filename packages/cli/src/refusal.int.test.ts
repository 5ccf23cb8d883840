import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Route, type Site, startSite } from '@quarry/testkit';
import { requireBuiltCli, runCli } from './testing/run-cli.js';

const article = (word: string) =>
  `<html lang="en"><head><title>About the ${word}</title></head><body><article><h1>About the ${word}</h1><p>${`The ${word} lives on a small site of a local network. `.repeat(15)}</p></article></body></html>`;

describe('a site on the operator own network (issue 10, points 1 and 2)', () => {
  let site: Site;
  let dir: string;
  let laterReady = false;
  const quarry = (args: string[], env: Record<string, string> = {}) =>
    runCli(args, { QUARRY_DATA_DIR: dir, QUARRY_HOST_DELAY_MS: '0', LOG_LEVEL: 'silent', ...env });
  const allowed = { QUARRY_ALLOW_HOSTS: '127.0.0.1' };
  /** Requests for pages (robots.txt, sitemaps and llms.txt aside). */
  const pageHits = () => (site.hits.get('/') ?? 0) + (site.hits.get('/later.html') ?? 0);

  beforeAll(async () => {
    requireBuiltCli();
    const routes: Record<string, Route> = {
      '/robots.txt': { body: 'User-agent: *\nDisallow: /private/\n' },
      '/': { headers: { 'content-type': 'text/html' }, body: article('otter') },
      '/later.html': (_req: IncomingMessage, res: ServerResponse) => {
        if (!laterReady) res.writeHead(404, { 'content-type': 'text/html' }).end('<html>not yet</html>');
        else res.writeHead(200, { 'content-type': 'text/html' }).end(article('badger'));
      },
    };
    site = await startSite(routes);
    dir = mkdtempSync(join(tmpdir(), 'quarry-refusal-'));
  });
  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a private seed at once, naming QUARRY_ALLOW_HOSTS, and records the true reason', async () => {
    const run = await quarry(['crawl', '--seed', `${site.origin}/`, '--wait']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`seed ${site.origin}/ is refused: 127.0.0.1 is a private or reserved address`);
    expect(run.stderr).toContain('QUARRY_ALLOW_HOSTS=127.0.0.1');
    expect(run.stdout).toMatch(/crawl finished: 0 done, 1 skipped, 0 failed/);
    // Neither the page nor robots.txt was requested: the address policy refused the connection.
    expect(site.hits.size).toBe(0);

    // Both reports at once: they only read.
    const [status, asJson] = await Promise.all([quarry(['status']), quarry(['status', '--json'])]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/skipped, by reason:\n\s+1\s+blocked_address\s+e\.g\. http:\/\/127\.0\.0\.1:\d+\//);
    expect(status.stdout).not.toContain('robots_disallowed');
    const json = JSON.parse(asJson.stdout);
    expect(json.crawl.reasons).toEqual([
      { state: 'skipped', reason: 'blocked_address', count: 1, examples: [`${site.origin}/`] },
    ]);
  }, 180_000);

  it('crawls the same seed once the host is allowed, saying it was queued again', async () => {
    const run = await quarry(['crawl', '--seed', `${site.origin}/`, '--wait'], allowed);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('queued again, as they ended skipped or failed (1):');
    expect(run.stderr).toContain(`${site.origin}/ (was skipped: blocked_address)`);
    expect(run.stdout).toMatch(/crawl finished: 1 done, 0 skipped, 0 failed/);
    expect(site.hits.get('/')).toBe(1);
    expect(site.hits.get('/robots.txt')).toBe(1);
  }, 180_000);

  it('leaves a done seed alone, and re-seeds a failed one once it is fixed', async () => {
    const failing = await quarry(['crawl', '--seed', `${site.origin}/later.html`, '--wait'], allowed);
    expect(failing.stdout).toMatch(/1 done, 0 skipped, 1 failed/);
    expect(failing.stderr).toContain('queued 1 new seed URL');
    laterReady = true;
    const before = pageHits();
    const again = await quarry(
      ['crawl', '--seed', `${site.origin}/`, '--seed', `${site.origin}/later.html`, '--wait'],
      allowed,
    );
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`${site.origin}/later.html (was failed: http_404)`);
    expect(again.stderr).toContain(
      'left alone, already crawled with as large a budget, depth and scope (--recrawl AGE crawls pages again) (1):',
    );
    expect(again.stdout).toMatch(/crawl finished: 2 done, 0 skipped, 0 failed/);
    // Only the failed seed was fetched again.
    expect(pageHits() - before).toBe(1);
    expect(site.hits.get('/')).toBe(1);
  }, 180_000);

  it('says a seed queued for another crawler is refused only by one without the host allowed, and exits 0', async () => {
    const run = await quarry(['crawl', '--seed', `${site.origin}/queued.html`]);
    // Queued: the crawler of a running `quarry start` may have the host allowed.
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`seed ${site.origin}/queued.html is at a private or reserved address (127.0.0.1)`);
    expect(run.stderr).toContain('It is queued: a crawler started with QUARRY_ALLOW_HOSTS=127.0.0.1');
    expect(run.stderr).not.toContain('is refused');
    expect(run.stderr).toContain('queued 1 new seed URL');
    // Queued, not crawled: this command does not wait.
    expect(site.hits.get('/queued.html')).toBeUndefined();
  }, 180_000);
  // The last two tests have data dirs of their own and check no request counts: they run at once,
  // after the ones above (which count the site's requests).
  it.concurrent('says nothing of the address policy for a seed it does not queue, within a forgotten site', async () => {
    const forgetDir = mkdtempSync(join(tmpdir(), 'quarry-refusal-forgotten-'));
    const here = (args: string[]) =>
      runCli(args, { QUARRY_DATA_DIR: forgetDir, QUARRY_HOST_DELAY_MS: '0', LOG_LEVEL: 'silent' });
    try {
      expect((await here(['forget', `${site.host}:${site.port}`, '--keep-pages'])).code).toBe(0);
      // Without and with --wait, at once: neither queues anything.
      const runs = await Promise.all(
        [[], ['--wait']].map((wait) => here(['crawl', '--seed', `${site.origin}/bbc-1.html`, ...wait])),
      );
      for (const run of runs) {
        expect(run.stderr).toContain('not queued, within a site taken out of the crawl');
        expect(run.stderr).not.toContain('private or reserved');
        expect(run.stderr).not.toContain('QUARRY_ALLOW_HOSTS');
        // Nothing refused was queued: no configuration problem.
        expect(run.code).toBe(0);
      }
    } finally {
      rmSync(forgetDir, { recursive: true, force: true });
    }
  }, 180_000);

  it.concurrent("logs to stderr while crawling, leaving stdout to the crawl's counts", async () => {
    const logDir = mkdtempSync(join(tmpdir(), 'quarry-refusal-log-'));
    try {
      const run = await runCli(['crawl', '--seed', `${site.origin}/`, '--wait'], {
        QUARRY_DATA_DIR: logDir,
        QUARRY_HOST_DELAY_MS: '0',
        LOG_LEVEL: 'debug',
        ...allowed,
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^crawl finished: 1 done, 0 skipped, 0 failed/m);
      expect(run.stdout).not.toContain('{"level"');
      expect(run.stderr).toMatch(/^\{"level":\d+/m);
    } finally {
      rmSync(logDir, { recursive: true, force: true });
    }
  });
});
