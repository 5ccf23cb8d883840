import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { pageIdForUrl } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import { openBullmqQueues, type Queues } from '@quarry/queue';
import { describeWithServer, type RedisServer, type Site, startRedis, startSite } from '@quarry/testkit';
import { requireBuiltCli, spawnCli } from './testing/run-cli.js';

const PAGES = 120;
/** Every wait of the test together, on a loaded CI machine; jest's timeout (300 s) leaves room to report. */
const BUDGET_MS = 270_000;
/**
 * The workers' job lock (QUARRY_JOB_LOCK_MS), a third of the default: a SIGKILLed worker's jobs and
 * host slot are handed over 10 to 20 s after its last renewal rather than 30 to 60 s. Live workers
 * renew it every 5 s, which a loaded machine's stalls stay well within.
 */
const JOB_LOCK_MS = 10_000;
const WORDS = ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'heath', 'isle', 'jade'];

/** Page i: a unique word pair, a paragraph long enough for Readability, links to i+1, 2i+1, 2i+2. */
function page(i: number): string {
  const tag = `${WORDS[i % 10]}${WORDS[Math.floor(i / 10) % 10]}${Math.floor(i / 100)}`;
  const links = [i + 1, 2 * i + 1, 2 * i + 2]
    .filter((t) => t < PAGES)
    .map((t) => `<a href="/p/${t}.html">next ${t}</a>`);
  const para = `Page ${i} describes the ${tag} expedition in detail. `.repeat(12);
  return `<!doctype html><html lang="en"><head><title>Expedition ${tag}</title></head><body><article><h1>Expedition ${tag}</h1><p>${para}</p><p>${para}</p></article><nav>${links.join(' ')}</nav></body></html>`;
}

describeWithServer('redis', 'distributed crawl: BullMQ on Redis, two crawler processes, one indexer, one API', () => {
  let redis: RedisServer;
  let site: Site;
  let dir: string;
  let queues: Queues;
  const children: ChildProcess[] = [];
  let env: Record<string, string>;

  const quarry = (args: string[], more: Record<string, string> = {}) => {
    const cli = spawnCli(args, { ...env, ...more });
    children.push(cli.child);
    return cli;
  };

  beforeAll(async () => {
    requireBuiltCli();
    redis = await startRedis({ appendOnly: true });
    const routes: Record<string, { body: string }> = { '/robots.txt': { body: '' } };
    for (let i = 0; i < PAGES; i++) routes[`/p/${i}.html`] = { body: page(i) };
    site = await startSite(routes);
    dir = mkdtempSync(join(tmpdir(), 'quarry-dist-'));
    env = {
      REDIS_URL: redis.url,
      QUARRY_DATA_DIR: dir,
      QUARRY_ALLOW_HOSTS: '127.0.0.1',
      QUARRY_HOST_DELAY_MS: '0',
      QUARRY_CRAWL_CONCURRENCY: '2',
      QUARRY_JOB_LOCK_MS: String(JOB_LOCK_MS),
      LOG_LEVEL: 'warn',
    };
    queues = await openBullmqQueues({ redisUrl: redis.url, prefix: 'quarry', hostDelayMs: 0 });
  }, 30_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await queues?.close();
    await site?.close();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('indexes every page exactly once although a worker is SIGKILLed and Redis restarts mid-crawl', async () => {
    const seeded = quarry(['crawl', '--seed', `${site.origin}/p/0.html`, '--max-depth', '20', '--max-pages', '500']);
    expect(await new Promise((r) => seeded.child.once('exit', r))).toBe(0);

    quarry(['worker', '--role', 'index']);
    const doomed = quarry(['worker', '--role', 'crawl']);
    quarry(['worker', '--role', 'crawl']);
    // Port 0: a port picked beforehand can be taken by the time the process binds it.
    const api = quarry(['serve'], { PORT: '0', QUARRY_HOST: '127.0.0.1' });
    const base = await api.listening(60_000);

    // One time budget for every wait, inside jest's timeout, so a slow machine fails naming the phase
    // and the counts rather than with a bare timeout. A SIGKILLed worker costs up to a lock period
    // (JOB_LOCK_MS) of its host's slot, and up to lock + stalled interval (twice it) before its jobs
    // run elsewhere.
    const started = Date.now();
    const until = async (what: string, check: () => Promise<boolean>, everyMs = 100) => {
      while (Date.now() - started < BUDGET_MS) {
        if (await check()) return;
        await new Promise((r) => setTimeout(r, everyMs));
      }
      const counts = await Promise.all([queues.crawl.stats(), queues.index.stats()]).catch(() => 'unavailable');
      throw new Error(`no ${what} within ${BUDGET_MS / 1000} s: ${JSON.stringify(counts)}`);
    };
    const doneAtLeast = (n: number) => async () => (await queues.crawl.stats()).done >= n;
    await until(`${PAGES / 4} pages done`, doneAtLeast(PAGES / 4));
    doomed.child.kill('SIGKILL');
    await until(`${PAGES / 2} pages done`, doneAtLeast(PAGES / 2));
    await redis.restart();

    let idle = 0;
    const idleThrice = async () => {
      try {
        const idx = await queues.index.stats();
        idle = (await queues.crawl.isIdle()) && idx.waiting + idx.active === 0 ? idle + 1 : 0;
      } catch {
        idle = 0; // Redis is coming back
      }
      return idle >= 3;
    };
    await until('idle queues (three looks in a row)', idleThrice, 500);

    const index = await LanceSearchIndex.open({ path: join(dir, 'index'), autoMaintain: false });
    try {
      const missing: number[] = [];
      for (let i = 0; i < PAGES; i++) {
        if (!(await index.has(pageIdForUrl(`${site.origin}/p/${i}.html`)))) missing.push(i);
      }
      // Named pages, not just a count: a lost page tells which links (from i-1, (i-1)/2) dropped it.
      expect({ missing, crawl: await queues.crawl.stats() }).toMatchObject({ missing: [], crawl: { failed: 0 } });
      expect(await index.count()).toBe(PAGES);
    } finally {
      await index.close();
    }
    // The API process serves what the indexer wrote.
    const res = await fetch(`${base}/api/v1/search?q=${WORDS[7]}${WORDS[3]}0`).catch((err: unknown) => {
      throw new Error(`the API is gone (${api.child.exitCode ?? 'running'}):\n${api.stderr}`, { cause: err });
    });
    const body = (await res.json()) as { results: { url: string }[] };
    const urls = body.results.map((r) => r.url);
    if (urls.length === 0) {
      // Seen once on CI (2026-12-05, not again in reruns): the page was in the index, the API
      // process answered no result. Whether it comes later tells a stale read from a lost page.
      const asked = Date.now();
      let later: string[] = [];
      while (later.length === 0 && Date.now() - asked < 10_000) {
        await new Promise((r) => setTimeout(r, 500));
        const again = (await (await fetch(`${base}/api/v1/search?q=${WORDS[7]}${WORDS[3]}0`)).json()) as typeof body;
        later = again.results.map((r) => r.url);
      }
      throw new Error(
        `the API process found nothing for page 37, which the index holds; asked again: ${
          later.length > 0 ? `found after ${Date.now() - asked} ms (a stale read)` : 'still nothing after 10 s'
        }\n${api.stdout.split('\n').slice(-20).join('\n')}`,
      );
    }
    expect(urls).toEqual([`${site.origin}/p/37.html`]);
  }, 300_000);
});
