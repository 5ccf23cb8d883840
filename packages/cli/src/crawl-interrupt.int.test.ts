import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Route, type Site, startSite } from '@quarry/testkit';
import { BIN, requireBuiltCli, runCli } from './testing/run-cli.js';

/** Enough pages that a third of them fetched leaves the crawl well short of its end. */
const PAGES = 18;
const CONCURRENCY = 2;
/** What a shell reports for a command stopped by SIGINT (128 + 2). */
const SIGINT_EXIT = 130;

describe('quarry crawl --wait, interrupted with SIGINT, then resumed with --wait alone', () => {
  let site: Site;
  let dir: string;
  const env = (): Record<string, string> => ({
    QUARRY_DATA_DIR: dir,
    QUARRY_ALLOW_HOSTS: '127.0.0.1',
    QUARRY_HOST_DELAY_MS: '0',
    QUARRY_CRAWL_CONCURRENCY: String(CONCURRENCY),
    LOG_LEVEL: 'silent',
  });
  const pageHits = () => [...site.hits.entries()].filter(([path]) => path.startsWith('/p/'));

  beforeAll(async () => {
    requireBuiltCli();
    const links = Array.from({ length: PAGES }, (_, i) => `<a href="/p/${i}.html">part ${i}</a>`).join(' ');
    const routes: Record<string, Route> = {
      '/robots.txt': { body: '' },
      '/': {
        headers: { 'content-type': 'text/html' },
        body: `<html lang="en"><head><title>Contents</title></head><body><article><h1>Contents</h1><p>${'The parts of a slow serial story, one page each. '.repeat(15)}</p>${links}</article></body></html>`,
      },
    };
    for (let i = 0; i < PAGES; i++) {
      const body = `<html lang="en"><head><title>Part ${i}</title></head><body><article><h1>Part ${i}</h1><p>Part ${i} of a slow serial story. ${'A slow page of a long serial story. '.repeat(20)}</p></article></body></html>`;
      // Slow pages, so that the signal lands mid-crawl; each text its own (the same text is one document).
      routes[`/p/${i}.html`] = (_req, res) => {
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(body), 80);
      };
    }
    site = await startSite(routes);
    dir = mkdtempSync(join(tmpdir(), 'quarry-interrupt-'));
  });
  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 130 saying how to resume, and `crawl --wait` alone crawls the rest', async () => {
    const child = spawn(process.execPath, [BIN, 'crawl', '--seed', `${site.origin}/`, '--wait'], {
      env: { PATH: process.env.PATH ?? '', ...env() },
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    while (pageHits().length < PAGES / 3) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    expect(await exited).toBe(SIGINT_EXIT);
    expect(stdout).toMatch(/^interrupted: \d+ done, \d+ skipped, 0 failed/m);
    expect(stdout).toMatch(/\(\d+ URLs? still queued: `quarry crawl --wait` crawls (?:it|them)\)/);
    expect(pageHits().length).toBeLessThan(PAGES);

    const resumed = await runCli(['crawl', '--wait'], env());
    expect(resumed.stderr).not.toContain('give --seed');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(new RegExp(`crawl finished: ${PAGES + 1} done, \\d+ skipped, 0 failed`));
    const hits = pageHits();
    expect(hits).toHaveLength(PAGES);
    // Only pages in flight when the signal came may be fetched twice.
    expect(hits.filter(([, n]) => n > 1).length).toBeLessThanOrEqual(CONCURRENCY);
  }, 180_000);

  it('stops at once when a page in flight hangs, and queues it again', async () => {
    const hanging = await startSite({
      '/robots.txt': { body: '' },
      '/': { body: '<html><body><h1>Hanging</h1><a href="/hang.html">hang</a></body></html>' },
      // Answers after 20 s: in flight when the signal comes.
      '/hang.html': (_req, res) => {
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>late</p>'), 20_000);
      },
    });
    const own = mkdtempSync(join(tmpdir(), 'quarry-interrupt-hang-'));
    try {
      const child = spawn(process.execPath, [BIN, 'crawl', '--seed', `${hanging.origin}/`, '--wait'], {
        env: { PATH: process.env.PATH ?? '', ...env(), QUARRY_DATA_DIR: own },
      });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.resume();
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      while (!hanging.hits.has('/hang.html')) await new Promise((r) => setTimeout(r, 20));
      const signalledAt = Date.now();
      child.kill('SIGINT');
      expect(await exited).toBe(SIGINT_EXIT);
      // A 2 s grace for the page, and the process's own closing; it waited the queue's 10 s.
      expect(Date.now() - signalledAt).toBeLessThan(7_000);
      expect(stdout).toMatch(/\(1 URL still queued: `quarry crawl --wait` crawls it\)/);
    } finally {
      await hanging.close();
      rmSync(own, { recursive: true, force: true });
    }
  }, 60_000);

  it('still refuses a crawl command with nothing to do', async () => {
    const run = await runCli(['crawl'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('give --seed URL, --seeds FILE or --recrawl AGE, or --wait');
  });
});
