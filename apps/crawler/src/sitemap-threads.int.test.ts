import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createFetcher } from '@quarry/fetcher';
import { openSqliteQueues, type Queues } from '@quarry/queue';
import { type Site, startSite } from '@quarry/testkit';
import { createExtractPool } from './extract-pool.js';
import { parseSeed } from './seeds.js';
import { readSitemap, sitemapTasks } from './sitemaps.js';

const builtWorker = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '../dist/extract-worker.js'));
const PAGES = 60_000;

/**
 * A sitemap is read on an extraction thread, and here when that thread fails (out of its heap, or
 * of its time): its pages are queued either way.
 */
describe('a sitemap read on an extraction thread', () => {
  let site: Site;
  let dir: string;
  let queues: Queues;

  beforeAll(async () => {
    let body: Buffer | null = null;
    site = await startSite(
      {},
      {
        fallback: (_req, res) => {
          if (body === null) {
            const urls = Array.from({ length: PAGES }, (_, i) => `<url><loc>${site.origin}/p/${i}.html</loc></url>`);
            body = gzipSync(
              `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`,
            );
          }
          res.writeHead(200, { 'content-type': 'application/gzip' }).end(body);
        },
      },
    );
    dir = mkdtempSync(join(tmpdir(), 'quarry-sitemap-threads-'));
  });
  afterAll(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['on a thread', 'built'],
    ['here, when the thread fails', 'failing'],
  ])('queues every page it lists: %s', async (_, which) => {
    queues = openSqliteQueues({ path: join(dir, `q-${which}.db`) });
    // The crawler's own worker, or one whose every sitemap fails as a thread out of heap does.
    const failing = join(dir, 'failing-worker.mjs');
    writeFileSync(failing, "export default function () { throw new Error('JS heap out of memory'); }\n");
    const workerUrl = which === 'built' ? builtWorker : pathToFileURL(failing);
    const extractor = createExtractPool({ threads: 1, workerUrl });
    try {
      const seed = parseSeed(`${site.origin}/`, { maxPages: PAGES * 2 });
      const [task] = sitemapTasks([`${site.origin}/sitemap.xml.gz`], seed, 1, `${site.origin}/`);
      const fetcher = createFetcher({ allowHosts: ['127.0.0.1'] });
      const outcome = await readSitemap(
        { fetcher, robots: { sitemaps: async () => [] }, crawl: queues.crawl, extractor },
        { ...task!, attempt: 1 },
        seed,
        {},
      );
      expect(outcome).toMatchObject({ status: 'skipped', reason: 'link_list' });
      expect((await queues.crawl.stats()).queued).toBe(PAGES);
    } finally {
      await extractor.close();
      await queues.close();
    }
  });
});
