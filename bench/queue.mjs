// Queue benchmark: the crawl benchmark's site crawled through BullMQ on a real redis-server with 1
// and 2 crawler worker processes (plus one indexer process), beside the embedded mode on the same site.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LanceSearchIndex } from '@quarry/index-lance';
import { openBullmqQueues } from '@quarry/queue';
import { findServerBinary, startRedis } from '@quarry/testkit';
import { crawlEmbedded, crawlSize, HOSTS, waitIdle } from './crawl.mjs';
import { startCrawlSite } from './lib/crawl-site.mjs';

function quarry(root, args, env) {
  return spawn(process.execPath, [join(root, 'packages/cli/bin/quarry.js'), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function crawlDistributed(root, origins, pagesPerHost, workers) {
  const redis = await startRedis();
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-queue-'));
  const env = {
    REDIS_URL: redis.url,
    QUARRY_DATA_DIR: dir,
    QUARRY_ALLOW_HOSTS: '127.0.0.0/8',
    QUARRY_HOST_DELAY_MS: '0',
    QUARRY_CRAWL_CONCURRENCY: '32',
    LOG_LEVEL: 'warn',
  };
  const seedArgs = origins.flatMap((o) => ['--seed', `${o}/`]);
  await new Promise((resolve, reject) =>
    quarry(root, ['crawl', ...seedArgs, '--max-depth', '100', '--max-pages', String(pagesPerHost + 10)], env).once(
      'exit',
      (code) => (code === 0 ? resolve() : reject(new Error(`quarry crawl exited ${code}`))),
    ),
  );
  const queues = await openBullmqQueues({ redisUrl: redis.url, prefix: 'quarry', hostDelayMs: 0 });
  const started = performance.now();
  const children = [quarry(root, ['worker', '--role', 'index'], env)];
  for (let i = 0; i < workers; i++) children.push(quarry(root, ['worker', '--role', 'crawl'], env));
  await waitIdle(queues, { pollMs: 500 });
  const secs = (performance.now() - started) / 1000;
  const stats = await queues.crawl.stats();
  await Promise.all(
    children.map(
      (c) =>
        new Promise((resolve) => {
          c.once('exit', resolve);
          c.kill('SIGTERM');
        }),
    ),
  );
  await queues.close();
  const index = await LanceSearchIndex.open({ path: join(dir, 'index') });
  const pages = await index.count();
  await index.close();
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
  return { pages, secs, pagesPerSec: pages / secs, failed: stats.failed };
}

export async function run({ root }) {
  if (!findServerBinary('redis'))
    return { title: 'queue', rows: [], notes: ['skipped: redis-server is not installed'] };
  const pagesPerHost = Math.ceil(crawlSize() / HOSTS.length);
  const site = await startCrawlSite(root, { hosts: HOSTS, pagesPerHost });
  if (!site) return { title: 'queue', rows: [], notes: ['skipped: ../shared/testdata is absent'] };
  try {
    const embedded = await crawlEmbedded(site.origins, pagesPerHost);
    const rows = [
      {
        mode: 'embedded (SQLite queue)',
        processes: 1,
        pages: embedded.pages,
        'pages/s': embedded.pagesPerSec.toFixed(1),
        'vs embedded': '100%',
      },
    ];
    for (const workers of [1, 2]) {
      const d = await crawlDistributed(root, site.origins, pagesPerHost, workers);
      rows.push({
        mode: 'BullMQ on Redis',
        processes: `${workers} crawler + 1 indexer`,
        pages: d.pages,
        'pages/s': d.pagesPerSec.toFixed(1),
        'vs embedded': `${((100 * d.pagesPerSec) / embedded.pagesPerSec).toFixed(0)}%`,
      });
    }
    return { title: `Queues: embedded vs BullMQ (${crawlSize()} pages, politeness off)`, rows };
  } finally {
    site.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printResults } = await import('./lib/table.mjs');
  printResults(await run({ root: new URL('..', import.meta.url).pathname }));
}
