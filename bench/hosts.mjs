// Hosts benchmark: the admin hosts view's query (`CrawlQueue.hosts`) on an embedded queue of
// 200,000 URLs over 2,000 hosts, filled through the queue's own `add` and then given a crawl's mix
// of states (60% done, 10% skipped, 10% failed, 20% queued) by SQL, in a file laid out as before
// 2026-12-05 (no per-host finished counts, no host-reason index): its first open measures the
// upgrade, which counts them from the frontier. Beside it, for scale, grouping the frontier by host
// (what the view would cost without the counts) and `stats()`, which the dashboard reads already.
// With redis-server installed, the distributed queue's counters too: 20,000 URLs over the same
// 2,000 hosts queued through `add` (its reads depend on the hosts, not the URLs).
// `node bench/hosts.mjs [--urls N] [--hosts N]` after `npx tsc -b`; `npm run bench -- hosts`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBullmqQueues, openSqliteQueues } from '@quarry/queue';
import { findServerBinary, startRedis } from '@quarry/testkit';
import Database from 'better-sqlite3';

const REASONS = {
  skipped: ['robots_disallowed', 'duplicate', 'soft_404'],
  failed: ['http_404', 'timeout', 'http_500'],
};

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/** Median and slowest of `runs` calls of `fn`, in ms. */
async function time(fn, runs = 15) {
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(runs / 2)].toFixed(1), max: ms[runs - 1].toFixed(1) };
}

async function fill(path, urls, hosts) {
  const queues = openSqliteQueues({ path });
  const batch = [];
  for (let i = 0; i < urls; i++) {
    const host = `site-${i % hosts}.example`;
    batch.push({ url: `https://${host}/page/${i}`, depth: 1, scope: host, seed: `https://${host}/` });
    if (batch.length === 5000) await queues.crawl.add(batch.splice(0));
  }
  await queues.crawl.add(batch);
  await queues.close();
  const db = new Database(path);
  // A crawl's mix: by seq, so every host has some of each state.
  db.exec(`UPDATE frontier SET updated_at = updated_at + seq, state = CASE
      WHEN seq % 10 < 6 THEN 'done' WHEN seq % 10 = 6 THEN 'skipped' WHEN seq % 10 = 7 THEN 'failed' ELSE 'queued' END`);
  for (const state of ['skipped', 'failed']) {
    REASONS[state].forEach((reason, i) => {
      db.prepare(`UPDATE frontier SET reason = ? WHERE state = ? AND (seq / 10) % 3 = ?`).run(reason, state, i);
    });
  }
  db.exec(`UPDATE hosts SET queued = (SELECT count(*) FROM frontier f WHERE f.host = hosts.host AND f.state = 'queued');
    DROP INDEX frontier_host_reason;
    ALTER TABLE hosts DROP COLUMN done; ALTER TABLE hosts DROP COLUMN skipped;
    ALTER TABLE hosts DROP COLUMN failed; ALTER TABLE hosts DROP COLUMN finished_at;`);
  db.close();
}

const QUERIES = [
  ['sort=queued, first page of 50', { sort: 'queued', limit: 50, offset: 0 }],
  ['sort=failed, first page of 50', { sort: 'failed', limit: 50, offset: 0 }],
  ['sort=last, page 20 of 50', { sort: 'last', limit: 50, offset: 950 }],
  ['q=site-12 (111 hosts), sort=done', { sort: 'done', limit: 50, offset: 0, q: 'site-12' }],
  ['q=nothing-matches', { sort: 'queued', limit: 50, offset: 0, q: 'nothing-matches' }],
];

async function timeQueries(crawl) {
  const rows = [];
  for (const [what, query] of QUERIES) {
    const page = await crawl.hosts(query);
    rows.push({ query: what, hosts: page.hosts.length, total: page.total, ...(await time(() => crawl.hosts(query))) });
  }
  return rows;
}

async function runRedis(hosts) {
  if (!findServerBinary('redis'))
    return { title: 'hosts view (distributed queue)', rows: [], notes: ['skipped: no redis-server'] };
  const redis = await startRedis();
  const queues = await openBullmqQueues({ redisUrl: redis.url, prefix: 'bench', hostDelayMs: 0 });
  try {
    const urls = hosts * 10;
    for (let i = 0; i < urls; i += 2000) {
      await queues.crawl.add(
        Array.from({ length: 2000 }, (_, j) => {
          const host = `site-${(i + j) % hosts}.example`;
          return { url: `https://${host}/page/${i + j}`, depth: 1, scope: host, seed: `https://${host}/` };
        }),
      );
    }
    return {
      title: `hosts view (distributed queue, ${urls.toLocaleString('en-US')} URLs over ${hosts.toLocaleString('en-US')} hosts), ms`,
      rows: await timeQueries(queues.crawl),
      notes: [],
    };
  } finally {
    await queues.close();
    await redis.stop();
  }
}

export async function run() {
  const urls = arg('urls', 200_000);
  const hosts = arg('hosts', 2_000);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-hosts-'));
  const path = join(dir, 'queue.db');
  try {
    await fill(path, urls, hosts);
    const started = performance.now();
    const queues = openSqliteQueues({ path });
    const upgradeMs = (performance.now() - started).toFixed(0);
    const rows = await timeQueries(queues.crawl);
    const stats = await queues.crawl.stats();
    rows.push({
      query: 'for scale: stats() (the dashboard totals)',
      hosts: '',
      total: stats.done,
      ...(await time(() => queues.crawl.stats(), 5)),
    });
    await queues.close();
    const db = new Database(path, { readonly: true });
    const grouped = db.prepare(
      `SELECT host, state, count(*) AS n FROM frontier INDEXED BY frontier_host_ready GROUP BY host, state`,
    );
    rows.push({
      query: 'for scale: the frontier counted by host and state',
      hosts: '',
      total: '',
      ...(await time(() => grouped.all(), 5)),
    });
    db.close();
    const embedded = {
      title: `hosts view (embedded queue, ${urls.toLocaleString('en-US')} URLs over ${hosts.toLocaleString('en-US')} hosts), ms`,
      rows,
      notes: [`first open of a file of the earlier layout (the index built, the counts filled): ${upgradeMs} ms`],
    };
    return [embedded, await runRedis(hosts)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { printResults } = await import('./lib/table.mjs');
  printResults(await run());
}
