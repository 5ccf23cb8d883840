import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Route, type Site, startSite } from '@quarry/testkit';
import { type RunningCli, requireBuiltCli, runCli, spawnCli } from './testing/run-cli.js';

/** One page, served at three URLs, each time with another timestamp in its footer. */
const frontPage = () => `<!doctype html><html lang="en"><head><title>The Tundra Gazette</title></head><body>
<nav><a href="/index.html">Home</a> <a href="/?edition=usa">US edition</a></nav>
<article><h1>The Tundra Gazette</h1>${'<p>The ptarmigan turns white in winter and brown in summer, and our readers send us their sightings.</p>'.repeat(8)}</article>
<footer>Served at ${new Date().toISOString()}</footer></body></html>`;

describe('one page, one document, through the built CLI (issue 10, point 3)', () => {
  let site: Site;
  let dir: string;
  let server: RunningCli | undefined;
  const env = () => ({
    QUARRY_DATA_DIR: dir,
    QUARRY_ALLOW_HOSTS: '127.0.0.1',
    QUARRY_HOST_DELAY_MS: '0',
    LOG_LEVEL: 'silent',
  });

  beforeAll(async () => {
    requireBuiltCli();
    const page = (_req: IncomingMessage, res: ServerResponse) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(frontPage());
    const routes: Record<string, Route> = { '/': page, '/index.html': page, '/?edition=usa': page };
    site = await startSite(routes);
    dir = mkdtempSync(join(tmpdir(), 'quarry-one-doc-'));
  });
  afterAll(async () => {
    await server?.stop();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('crawls /, /index.html and /?edition=usa, keeps one, and says why in quarry status', async () => {
    const run = await runCli(['crawl', '--seed', `${site.origin}/`, '--wait'], env(), { timeoutMs: 100_000 });
    // What the command printed, shown when it failed or hung.
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr.slice(-3000) }).toEqual({ code: 0, stderr: '' });
    // The site has no /sitemap.xml (404): tried once, under the host's delay, no failure, and no sitemap read.
    expect(run.stdout).toMatch(/crawl finished: 1 done, 2 skipped, 0 failed \(and 1 sitemap missing or empty\)/);
    const status = await runCli(['status'], env());
    expect(status.stdout).toContain('documents indexed: 1');
    expect(status.stdout).toContain('1 done, 2 skipped, 0 failed (and 1 sitemap missing or empty)');
    // Each list adds up to its count on the line above: the pages skipped, then the sitemaps apart.
    expect(status.stdout).toMatch(/skipped, by reason:\n\s+2\s+duplicate\s+e\.g\. /);
    expect(status.stdout).toMatch(/sitemaps and feeds, by reason:\n\s+1\s+no_sitemap\s+e\.g\. \S+\/sitemap\.xml\n/);
    const json = JSON.parse((await runCli(['status', '--json'], env())).stdout);
    expect({ skipped: json.crawl.skipped, skippedPages: json.skippedPages, listsRead: json.listsRead }).toEqual({
      skipped: 3,
      skippedPages: 2,
      listsRead: 1,
    });
    expect(status.stdout).toContain(`${site.origin}/index.html`);
    expect(status.stdout).toContain(`${site.origin}/?edition=usa`);
    expect(status.stdout).toContain('duplicate: the same main text is indexed under another URL');
  }, 120_000);

  it('answers a search with one result, under the shortest URL', async () => {
    server = spawnCli(['serve'], { ...env(), PORT: '0', QUARRY_HOST: '127.0.0.1' });
    const res = await fetch(`${await server.listening(50_000)}/api/v1/search?q=ptarmigan`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { total: number; results: { url: string }[] };
    expect(body.results.map((r) => r.url)).toEqual([`${site.origin}/`]);
    expect(body.total).toBe(1);
  }, 60_000);
});
