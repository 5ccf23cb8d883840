// Crawl benchmark: a ~10,000-page site on 127.0.0.1-4 built from ../shared/testdata pages, crawled
// end to end (fetch, extract, index) in embedded mode with politeness delays off; beside it the
// extraction-only ceiling (the extraction step alone on the same pages, all cores) and the ratio.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileBlobStore } from '@quarry/blobstore';
import { loadConfig } from '@quarry/core';
import { Crawler, createExtractPool, parseSeed, startIndexer } from '@quarry/crawler';
import { createFetcher, decodeHtml } from '@quarry/fetcher';
import { LanceSearchIndex } from '@quarry/index-lance';
import { openSqliteQueues } from '@quarry/queue';
import { pino } from 'pino';
import { rssSampler, startCrawlSite } from './lib/crawl-site.mjs';

export const HOSTS = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];

export function crawlSize() {
  return Number(process.env.BENCH_CRAWL_PAGES ?? 10_000);
}

/** Waits until the crawl frontier and the index queue are both empty (twice in a row). */
export async function waitIdle(queues, { pollMs = 250, timeoutMs = 3_600_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let idle = 0;
  while (idle < 2 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, pollMs));
    const idx = await queues.index.stats();
    idle = (await queues.crawl.isIdle()) && idx.waiting + idx.active === 0 ? idle + 1 : 0;
  }
}

/**
 * The pool job for a fetched page, as the crawler's page handler builds it (apps/crawler
 * page-handler.ts extractPage): decoded on the caller, HTML to the pool. Keep the two in step, or
 * the ceiling no longer measures the extraction work the crawl does.
 */
function ceilingJob(res, url) {
  return {
    html: decodeHtml(res.body, { contentType: res.headers['content-type'] }).text,
    url,
    contentLanguage: null,
  };
}

/** Extraction-only pages/s over the same pages the site serves, on every core, and its CPU ms per page. */
async function extractionCeiling(origins, samplePages) {
  const fetcher = createFetcher({ allowHosts: ['127.0.0.0/8'] });
  const jobs = [];
  for (let i = 0; i < samplePages; i++) {
    const origin = origins[i % origins.length];
    const url = `${origin}/p/${Math.floor(i / origins.length)}.html`;
    jobs.push(ceilingJob(await fetcher.fetch(url), url));
  }
  await fetcher.close();
  // The crawler's own pool (same threads, same heap caps), so the two figures compare like with like.
  const threads = availableParallelism();
  const pool = createExtractPool({ threads });
  const run = (job) => ('body' in job ? pool.extractBody(job) : pool.extract(job));
  await Promise.all(jobs.slice(0, threads * 2).map(run)); // warm up
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  await Promise.all(jobs.map(run));
  const secs = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await pool.close();
  return { pagesPerSec: jobs.length / secs, cpuMsPerPage: (cpu.user + cpu.system) / 1000 / jobs.length, threads };
}

/** Crawls the site end to end in embedded mode; returns pages/s, CPU ms per page and peak RSS. */
export async function crawlEmbedded(origins, pagesPerHost) {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-crawl-'));
  const config = loadConfig({
    QUARRY_DATA_DIR: dir,
    QUARRY_ALLOW_HOSTS: '127.0.0.0/8',
    QUARRY_HOST_DELAY_MS: '0',
    QUARRY_CRAWL_CONCURRENCY: '32',
    LOG_LEVEL: 'warn',
  });
  const logger = pino({ level: 'warn' });
  const queues = openSqliteQueues({ path: join(dir, 'queue.db'), hostDelayMs: 0, perHostConcurrency: 8 });
  const index = await LanceSearchIndex.open({ path: join(dir, 'index') });
  const blobs = new FileBlobStore({ dir: join(dir, 'blobs') });
  const crawler = new Crawler({ config, queues, logger });
  const indexer = startIndexer({ queue: queues.index, index, blobs, logger, batchSize: 200 });
  await crawler.addSeeds(origins.map((o) => parseSeed(`${o}/ depth=100 pages=${pagesPerHost + 10}`)));
  const rss = rssSampler();
  const heapLog = process.env.BENCH_HEAP_LOG
    ? setInterval(async () => {
        const m = process.memoryUsage();
        const s = await queues.crawl.stats();
        console.error(
          `done=${s.done} rss=${(m.rss / 1048576) | 0} heap=${(m.heapUsed / 1048576) | 0} ext=${(m.external / 1048576) | 0} ab=${(m.arrayBuffers / 1048576) | 0}`,
        );
      }, 5000)
    : null;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  crawler.start();
  await waitIdle(queues);
  const secs = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const peakRssMiB = rss.stop();
  if (heapLog) clearInterval(heapLog);
  const pages = await index.count();
  const stats = await queues.crawl.stats();
  await crawler.close();
  await indexer.close();
  await queues.close();
  await index.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    pages,
    secs,
    pagesPerSec: pages / secs,
    cpuMsPerPage: (cpu.user + cpu.system) / 1000 / Math.max(1, stats.done),
    peakRssMiB,
    failed: stats.failed,
    topFailures: stats.topFailures,
  };
}

export async function run({ root }) {
  const loadBefore = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const total = crawlSize();
  const pagesPerHost = Math.ceil(total / HOSTS.length);
  const site = await startCrawlSite(root, { hosts: HOSTS, pagesPerHost });
  if (!site) return { title: 'crawl', rows: [], notes: ['skipped: ../shared/testdata is absent'] };
  try {
    const ceiling = await extractionCeiling(site.origins, Math.min(2000, total));
    const siteCpu0 = await site.cpuMs();
    const e2e = await crawlEmbedded(site.origins, pagesPerHost);
    const siteCpuMsPerPage = ((await site.cpuMs()) - siteCpu0) / Math.max(1, e2e.pages);
    return {
      title: `Crawl, embedded mode (${e2e.pages} pages on ${HOSTS.length} hosts, politeness off)`,
      rows: [
        {
          measure: 'end-to-end (fetch, extract, index)',
          'pages/s': e2e.pagesPerSec.toFixed(1),
          'CPU ms/page': e2e.cpuMsPerPage.toFixed(1),
          'peak RSS MiB': e2e.peakRssMiB,
          seconds: e2e.secs.toFixed(1),
        },
        {
          measure: `extraction only, ${ceiling.threads} threads`,
          'pages/s': ceiling.pagesPerSec.toFixed(1),
          'CPU ms/page': ceiling.cpuMsPerPage.toFixed(1),
          'peak RSS MiB': '',
          seconds: '',
        },
        {
          measure: 'ratio end-to-end / ceiling',
          'pages/s': `${((100 * e2e.pagesPerSec) / ceiling.pagesPerSec).toFixed(0)}%`,
          'CPU ms/page': '',
          'peak RSS MiB': '',
          seconds: '',
        },
      ],
      notes: [
        `failed tasks: ${e2e.failed} ${JSON.stringify(e2e.topFailures)}`,
        `the site server (another process on the same cores) used ${siteCpuMsPerPage.toFixed(1)} CPU ms/page`,
        `load average before the run: ${loadBefore}; after: ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
        'target: end-to-end at least 80% of the extraction-only ceiling',
      ],
    };
  } finally {
    site.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printResults } = await import('./lib/table.mjs');
  printResults(await run({ root: new URL('..', import.meta.url).pathname }));
}
