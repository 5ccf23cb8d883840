import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { threadNice } from '@quarry/core';
import { readSitemapResponse } from '@quarry/fetcher';
import iconv from 'iconv-lite';
import { createExtractPool } from './extract-pool.js';

const URL = 'https://news.example.cn/2024/05/17/story.html';
const SENTENCE = '北京时间昨天晚上，国家统计局发布了最新的经济数据，显示工业生产继续保持平稳增长。';
const html = `<html><head><meta charset="gb2312"><title>经济数据</title></head><body><article>${`<p>${SENTENCE.repeat(4)}</p>`.repeat(5)}</article></body></html>`;

/** The crawler's own worker module, built: a pool made from the sources runs its jobs inline. */
const builtWorker = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '../dist/extract-worker.js'));

describe('ExtractPool', () => {
  it('extracts an undecoded body the same as its decoded HTML', async () => {
    const pool = createExtractPool();
    try {
      const fromHtml = await pool.extract({ html, url: URL, contentLanguage: null });
      const gbk = iconv.encode(html, 'gbk');
      for (const contentType of ['text/html; charset=gbk', 'text/html', undefined]) {
        const fromBody = await pool.extractBody({ body: gbk, contentType, url: URL, contentLanguage: null });
        expect(fromBody).toEqual(fromHtml);
      }
      expect(fromHtml.body_text).toContain(SENTENCE);
      expect(fromHtml.lang).toBe('zh');
    } finally {
      await pool.close();
    }
  });

  it('fails a page whose extraction outlasts the deadline and replaces its thread', async () => {
    // A worker thread as the pool runs it, whose "extraction" of one page never ends (a page that
    // sends a pattern into endless backtracking), and answers any other at once.
    const dir = mkdtempSync(join(tmpdir(), 'quarry-extract-pool-'));
    const worker = join(dir, 'spin-worker.mjs');
    writeFileSync(
      worker,
      "export default function (job) { if (job.url.endsWith('/hang')) for (;;) {} return { url: job.url, body_text: 'ok' }; }\n",
    );
    const pool = createExtractPool({ threads: 1, timeoutMs: 500, workerUrl: pathToFileURL(worker) });
    try {
      await expect(
        pool.extract({ html: '', url: 'https://example.com/hang', contentLanguage: null }),
      ).rejects.toMatchObject({
        code: 'extraction_timeout',
      });
      // The one thread was stopped and replaced: the next page is extracted.
      const next = await pool.extract({ html: '', url: 'https://example.com/next', contentLanguage: null });
      expect(next.body_text).toBe('ok');
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a page plainly when its full reading outlasts the deadline', async () => {
    // The crawler's own worker (built), except that a full reading of a page never ends.
    const dir = mkdtempSync(join(tmpdir(), 'quarry-extract-pool-'));
    const worker = join(dir, 'slow-worker.mjs');
    const real = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '../dist/extract-worker.js')).href;
    writeFileSync(
      worker,
      `import extract from ${JSON.stringify(real)};\nexport default function (job) { if (!job.plain) for (;;) {} return extract(job); }\n`,
    );
    // The plain reading runs on the thread started in place of the stopped one, and shares its
    // deadline: 3 s was too short for that start and the reading on a loaded CI machine.
    const pool = createExtractPool({ threads: 1, timeoutMs: 8_000, workerUrl: pathToFileURL(worker) });
    try {
      const page = await pool.extractBody({
        body: iconv.encode(html, 'gbk'),
        contentType: 'text/html; charset=gbk',
        url: URL,
        contentLanguage: null,
      });
      expect(page.plain).toBe(true);
      expect(page.body_text).toContain(SENTENCE);
      expect(page).toMatchObject({ title: '经济数据', lang: 'zh' });
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a gzipped sitemap on its thread as it is read here', async () => {
    const urls = Array.from({ length: 2000 }, (_, i) => `https://example.com/post/${i}?a=1&amp;b=2`);
    const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
      .map((u) => `<url><loc>${u}</loc></url>`)
      .join('')}</urlset>`;
    const body = gzipSync(Buffer.from(xml));
    const pool = createExtractPool({ threads: 1, workerUrl: builtWorker });
    try {
      const read = await pool.readSitemap({
        body,
        finalUrl: 'https://example.com/sitemap.xml.gz',
        maxBodyBytes: 1 << 20,
      });
      expect(read).toEqual(
        await readSitemapResponse({ body, finalUrl: 'https://example.com/sitemap.xml.gz' }, 1 << 20),
      );
      expect(read.urls).toHaveLength(2000);
      expect(read.urls[7]).toBe('https://example.com/post/7?a=1&b=2');
      // Past the size cap the sitemap is cut, there as here.
      const cut = await pool.readSitemap({ body, finalUrl: 'https://example.com/s.xml.gz', maxBodyBytes: 1000 });
      expect(cut.urls.length).toBeLessThan(50);
      expect(cut).toEqual(await readSitemapResponse({ body, finalUrl: 'https://example.com/s.xml.gz' }, 1000));
    } finally {
      await pool.close();
    }
  });

  it('reads a large sitemap in a small heap, scanning its tags rather than building its tree', async () => {
    // 60,000 URLs, 5.4 MB: parsed whole, their tree ran a 64 MiB thread out of heap.
    const urls = Array.from({ length: 60_000 }, (_, i) => `<url><loc>https://example.com/p/${i}.html</loc></url>`);
    const body = gzipSync(
      Buffer.from(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`,
      ),
    );
    const pool = createExtractPool({ threads: 1, maxHeapMb: 64, workerUrl: builtWorker });
    try {
      const read = await pool.readSitemap({
        body,
        finalUrl: 'https://example.com/sitemap.xml.gz',
        maxBodyBytes: 50 << 20,
      });
      expect(read.urls).toHaveLength(60_000);
      expect(read.urls[59_999]).toBe('https://example.com/p/59999.html');
    } finally {
      await pool.close();
    }
  });

  const linux = process.platform === 'linux' && existsSync('/proc/self/task');
  (linux ? it : it.skip)('extracts at the worker priority, the main thread keeping its own', async () => {
    const niced = () =>
      readdirSync('/proc/self/task').filter((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) >= 10;
      }).length;
    const main = threadNice();
    const before = niced();
    const pool = createExtractPool({ threads: 1, workerUrl: builtWorker });
    try {
      const page = await pool.extract({ html, url: URL, contentLanguage: null });
      expect(page.body_text).toContain(SENTENCE);
      expect(niced()).toBe(before + 1);
      expect(threadNice()).toBe(main);
    } finally {
      await pool.close();
    }
  });

  it('fails a job at once, retryable, when no thread can start, and survives it', async () => {
    // A thread that runs out of heap as it starts, and one whose module throws as it loads: Piscina
    // starts no thread for the job a failed start leaves queued, which waited for its deadline twice.
    const dir = mkdtempSync(join(tmpdir(), 'quarry-extract-pool-'));
    const workers = {
      greedy: 'const kept = []; for (;;) kept.push(new Array(100_000).fill(1));\nexport default function () {}\n',
      broken: "throw new Error('a module that will not load');\nexport default function () {}\n",
    };
    try {
      for (const [name, source] of Object.entries(workers)) {
        const worker = join(dir, `${name}-worker.mjs`);
        writeFileSync(worker, source);
        // Deadlines far past the test's own timeout: waiting for them fails the test.
        const pool = createExtractPool({
          threads: 1,
          maxHeapMb: 16,
          timeoutMs: 60_000,
          workerUrl: pathToFileURL(worker),
        });
        try {
          const job = { html: '', url: 'https://example.com/', contentLanguage: null };
          const failure = pool.extract(job);
          await expect(failure).rejects.toMatchObject({ code: 'extraction_unavailable', retryable: true });
          await expect(failure).rejects.toThrow(name === 'broken' ? /a module that will not load/ : /memory limit/);
          await expect(
            pool.readSitemap({ body: Buffer.from(''), finalUrl: 'https://example.com/s.xml', maxBodyBytes: 1_000 }),
          ).rejects.toMatchObject({ code: 'extraction_unavailable' });
        } finally {
          await pool.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('extracts on a new thread when a thread failed once as it started', async () => {
    // The first thread finds a marker file, removes it and throws (a start that ran out of memory
    // on a busy machine); the second starts.
    const dir = mkdtempSync(join(tmpdir(), 'quarry-extract-pool-'));
    const marker = join(dir, 'fail-once');
    writeFileSync(marker, '');
    const worker = join(dir, 'flaky-worker.mjs');
    writeFileSync(
      worker,
      `import { existsSync, rmSync } from 'node:fs';\nconst marker = ${JSON.stringify(marker)};\nif (existsSync(marker)) { rmSync(marker); throw new Error('failed to start'); }\nexport default function (job) { return { url: job.url, body_text: 'ok' }; }\n`,
    );
    const pool = createExtractPool({ threads: 1, timeoutMs: 60_000, workerUrl: pathToFileURL(worker) });
    try {
      const page = await pool.extract({ html: '', url: 'https://example.com/a', contentLanguage: null });
      expect(page.body_text).toBe('ok');
      expect(existsSync(marker)).toBe(false);
      const next = await pool.extract({ html: '', url: 'https://example.com/b', contentLanguage: null });
      expect(next.body_text).toBe('ok');
    } finally {
      await pool.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
