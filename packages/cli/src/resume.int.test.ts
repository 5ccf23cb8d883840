import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LanceSearchIndex } from '@quarry/index-lance';
import { type Route, type Site, startSite } from '@quarry/testkit';

const ROOT = join(new URL('.', import.meta.url).pathname, '../../..');
const BIN = join(ROOT, 'packages/cli/bin/quarry.js');
const PAGES = 40;
const CONCURRENCY = 2;

describe('quarry crawl --wait, killed with SIGKILL and started again', () => {
  let site: Site;
  let dir: string;
  const env = (): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    QUARRY_DATA_DIR: dir,
    QUARRY_ALLOW_HOSTS: '127.0.0.1',
    QUARRY_HOST_DELAY_MS: '0',
    QUARRY_CRAWL_CONCURRENCY: String(CONCURRENCY),
    LOG_LEVEL: 'silent',
  });
  const crawl = (): ChildProcess =>
    spawn(process.execPath, [BIN, 'crawl', '--seed', `${site.origin}/p/0.html`, '--max-depth', '100', '--wait'], {
      env: env(),
      stdio: 'ignore',
    });
  const pageHits = () => [...site.hits.entries()].filter(([path]) => path.startsWith('/p/'));

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'packages/cli/dist/main.js'))) throw new Error('run `npm run build` first');
    const routes: Record<string, Route> = { '/robots.txt': { body: '' } };
    for (let i = 0; i < PAGES; i++) {
      const next = i + 1 < PAGES ? `<a href="/p/${i + 1}.html">next</a>` : '';
      const body = `<html lang="en"><head><title>Chapter ${i}</title></head><body><article><h1>Chapter ${i}</h1><p>Part ${i} of a slow serial story. ${'A slow page of a long serial story. '.repeat(20)}</p>${next}</article></body></html>`;
      // Slow pages, so that the kill lands mid-crawl; each text its own (the same text is one document).
      routes[`/p/${i}.html`] = (_req, res) => {
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(body), 60);
      };
    }
    site = await startSite(routes);
    dir = mkdtempSync(join(tmpdir(), 'quarry-resume-'));
  });

  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resumes where it stopped and refetches nothing already done', async () => {
    const first = crawl();
    while (pageHits().length < PAGES / 3) await new Promise((r) => setTimeout(r, 20));
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const fetchedBeforeKill = pageHits().length;
    expect(fetchedBeforeKill).toBeLessThan(PAGES);

    const second = crawl();
    expect(await new Promise((r) => second.once('exit', r))).toBe(0);

    const index = await LanceSearchIndex.open({ path: join(dir, 'index'), autoMaintain: false });
    try {
      expect(await index.count()).toBe(PAGES);
    } finally {
      await index.close();
    }
    const hits = pageHits();
    expect(hits).toHaveLength(PAGES);
    // Only pages in flight at the moment of the kill may be fetched twice.
    const refetched = hits.filter(([, n]) => n > 1).length;
    expect(refetched).toBeLessThanOrEqual(CONCURRENCY);
  }, 120_000);
});
