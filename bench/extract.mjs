// Extraction benchmark: pages/s of extractHtml on mozilla/readability's test pages, on one core
// and on every core (worker_threads), for each DOM implementation, plus mean quality (token F1
// of the body text against expected.html, metadata accuracy). Imports the BUILT package:
//   npx tsc -b packages/extract && node bench/extract.mjs
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { normalizeLang, parseTimestamp } from '@quarry/core';
import { extractHtml, tokenF1 } from '@quarry/extract';
import { parseHTML } from 'linkedom';

const HERE = dirname(fileURLToPath(import.meta.url));
const PAGES_DIR = join(HERE, '../../shared/testdata/readability-pages');
const PAGE_URL = 'http://fakehost/test/page.html';

function loadSources() {
  return readdirSync(PAGES_DIR).map((name) => ({
    name,
    html: readFileSync(join(PAGES_DIR, name, 'source.html'), 'utf8'),
  }));
}

/** Extracts every page once; returns elapsed milliseconds. */
function timePass(sources, dom) {
  const start = performance.now();
  for (const { html } of sources) extractHtml(html, { url: PAGE_URL, dom });
  return performance.now() - start;
}

/**
 * One warm-up pass, then timed passes until at least minMs: pages per wall-clock second on this
 * thread, and pages per CPU second of the process (robust when other work shares the machine).
 */
function pagesPerSecond(sources, dom, minMs) {
  timePass(sources, dom);
  let pages = 0;
  let ms = 0;
  const cpuBefore = process.cpuUsage();
  while (ms < minMs) {
    ms += timePass(sources, dom);
    pages += sources.length;
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { wall: (pages * 1000) / ms, cpu: (pages * 1e6) / (cpu.user + cpu.system) };
}

function runWorkers(dom, threads, minMs) {
  const started = [];
  for (let i = 0; i < threads; i++) {
    started.push(
      new Promise((resolve, reject) => {
        const worker = new Worker(new URL(import.meta.url), { workerData: { dom, minMs } });
        worker.once('message', resolve);
        worker.once('error', reject);
      }),
    );
  }
  return Promise.all(started).then((rates) => rates.reduce((a, b) => a + b, 0));
}

function quality(sources, dom) {
  const hits = { title: [], author: [], lang: [], site: [], date: [] };
  const f1 = [];
  const norm = (s) =>
    (s ?? '')
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^(?:written )?by:?\s+/, '');
  for (const { name, html } of sources) {
    const expectedHtml = readFileSync(join(PAGES_DIR, name, 'expected.html'), 'utf8');
    const expected = parseHTML(`<html><body>${expectedHtml}</body></html>`).document.body.textContent ?? '';
    const meta = JSON.parse(readFileSync(join(PAGES_DIR, name, 'expected-metadata.json'), 'utf8'));
    const page = extractHtml(html, { url: PAGE_URL, dom });
    f1.push(tokenF1(page.body_text, expected));
    if (meta.title) {
      const g = norm(page.title);
      const w = norm(meta.title);
      hits.title.push(g === w || (g !== '' && w.startsWith(g) && /^\s*[|\-–—:·»/]/.test(w.slice(g.length))));
    }
    if (meta.byline) hits.author.push(norm(page.author).length >= 3 && norm(meta.byline).startsWith(norm(page.author)));
    if (meta.lang) hits.lang.push(page.lang === normalizeLang(meta.lang));
    if (meta.siteName) hits.site.push(page.site_name === meta.siteName);
    if (parseTimestamp(meta.publishedTime)) hits.date.push(page.published_at === parseTimestamp(meta.publishedTime));
  }
  const share = (list) => `${list.filter(Boolean).length}/${list.length}`;
  return {
    meanF1: f1.reduce((a, b) => a + b, 0) / f1.length,
    pagesBelow090: f1.filter((x) => x < 0.9).length,
    title: share(hits.title),
    author: share(hits.author),
    lang: share(hits.lang),
    site: share(hits.site),
    date: share(hits.date),
  };
}

/** The `npm run bench -- extract` entry (scripts/bench.js): the same rows as a result table. */
export async function run() {
  const rows = await runExtractBench({ print: false });
  return {
    title: 'Extraction (mozilla/readability test pages)',
    rows,
    notes: [
      rows.length === 0 ? 'skipped: ../shared/testdata is absent' : 'target: at least 40 pages/s per core (linkedom)',
    ],
  };
}

/**
 * Runs the benchmark and prints a table (unless `print` is false); resolves to its rows (empty when
 * the test data is absent).
 * @param {{ doms?: Array<'linkedom' | 'jsdom'>, minMs?: number, threads?: number, print?: boolean }} [options]
 */
export async function runExtractBench(options = {}) {
  if (!existsSync(PAGES_DIR)) {
    console.log(`extract bench skipped: ${PAGES_DIR} is absent`);
    return [];
  }
  const doms = options.doms ?? ['linkedom', 'jsdom'];
  const minMs = options.minMs ?? 5_000;
  const threads = options.threads ?? availableParallelism();
  const sources = loadSources();
  const rows = [];
  for (const dom of doms) {
    const q = quality(sources, dom);
    const single = pagesPerSecond(sources, dom, minMs);
    const multi = await runWorkers(dom, threads, minMs);
    rows.push({
      dom,
      pages: sources.length,
      'pages/s (1 core)': single.wall.toFixed(1),
      'pages/CPU-s': single.cpu.toFixed(1),
      [`pages/s (${threads} threads)`]: multi.toFixed(1),
      'mean F1': q.meanF1.toFixed(4),
      'F1<0.9': q.pagesBelow090,
      title: q.title,
      author: q.author,
      lang: q.lang,
      site: q.site,
      date: q.date,
    });
  }
  if (options.print !== false) console.table(rows);
  return rows;
}

if (!isMainThread) {
  parentPort?.postMessage(pagesPerSecond(loadSources(), workerData.dom, workerData.minMs).wall);
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runExtractBench();
}
