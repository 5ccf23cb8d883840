// Known-item benchmark (`npm run bench -- known-item`): does a page come first when a client asks
// for words copied from it? The WCXB dev pages (../shared/testdata/wcxb-dev) are served from
// loopback (127.0.0.1 and ::1, each page under a path that says nothing: /p/0001.html), crawled by
// the real `quarry crawl --wait` (static HTML: the pages' scripts would only wait for the internet)
// and searched over HTTP through the real `quarry serve`. Each page with 40 words of reference text
// or more is asked 8 consecutive words of that text (a fixed, seeded position), as typed (default
// parameters), with `match=all` and with `match=any`; the table gives how often the page is first,
// in the first ten, the mean reciprocal rank (0 past ten) and p50 latency, per half of the pages
// (bench/lib/extract-sets.mjs). A passage the extraction lost cannot be found whatever the ranking:
// the "text kept" column counts the queries whose words are all in the page's indexed text.
// Run `npx tsc -b` first: it spawns the built CLI. BENCH_KNOWN_PAGES=200 asks fewer pages.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { pageIdForUrl } from '@quarry/core';
import { halfOf } from './lib/extract-sets.mjs';
import { freePort, waitForHealth } from './lib/served.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..');
const BIN = join(ROOT, 'packages/cli/bin/quarry.js');
const WCXB = join(ROOT, '../shared/testdata/wcxb-dev/dev');
const QUERY_WORDS = 8;
const MIN_TEXT_WORDS = 40;
const K = 10;
const MODES = [
  ['as typed, default parameters', {}],
  ['match=all', { match: 'all' }],
  ['match=any', { match: 'any' }],
];
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

export async function run() {
  if (!existsSync(WCXB)) return { title: 'Known item', rows: [], notes: [`skipped: ${WCXB} is absent`] };
  const limit = Number(process.env.BENCH_KNOWN_PAGES ?? Number.POSITIVE_INFINITY);
  const pages = loadPages(limit);
  const work = mkdtempSync(join(tmpdir(), 'quarry-known-'));
  const servers = await Promise.all(['127.0.0.1', '::1'].map((host) => serve(host, pages)));
  try {
    const urlOf = (page, i) => {
      const { host, port } = servers[i % servers.length];
      return `http://${host === '::1' ? '[::1]' : host}:${port}/p/${page.name}.html`;
    };
    pages.forEach((page, i) => {
      page.url = urlOf(page, i);
    });
    writeFileSync(join(work, 'seeds.txt'), `${pages.map((p) => p.url).join('\n')}\n`);
    const started = Date.now();
    // Asynchronously: the pages are served by this process.
    const crawl = spawn(
      process.execPath,
      [BIN, 'crawl', '--data', join(work, 'data'), '--seeds', join(work, 'seeds.txt'), '--max-depth', '0', '--wait'],
      {
        env: env({ QUARRY_ALLOW_HOSTS: '127.0.0.1,[::1]', QUARRY_HOST_DELAY_MS: '0' }),
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    crawl.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    const status = await new Promise((resolve) => crawl.once('exit', resolve));
    if (status !== 0) throw new Error(`quarry crawl failed: ${stderr}`);
    const crawlSeconds = (Date.now() - started) / 1000;
    const port = await freePort();
    const server = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--data', join(work, 'data')], {
      env: env({ QUARRY_HOST: '127.0.0.1', QUARRY_RATE_LIMIT_PUBLIC: '1000000' }),
      stdio: 'ignore',
    });
    try {
      await waitForHealth(port);
      return await measure(port, pages, crawlSeconds);
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
  } finally {
    await Promise.all(servers.map(({ server }) => new Promise((resolve) => server.close(resolve))));
    rmSync(work, { recursive: true, force: true });
  }
}

/** The WCXB pages in name order, each with its query: 8 words of its reference text from a seeded position. */
function loadPages(limit) {
  let seed = 7;
  const next = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  const pages = [];
  for (const file of readdirSync(join(WCXB, 'html')).sort()) {
    if (pages.length >= limit) break;
    const name = file.replace('.html.gz', '');
    const truth = JSON.parse(readFileSync(join(WCXB, 'ground-truth', `${name}.json`), 'utf8'));
    const words = (truth.ground_truth?.main_content ?? '').match(WORD) ?? [];
    // Every page is served (and crawled); the query's position is drawn for every page alike.
    const at = Math.floor(next() * Math.max(1, words.length - QUERY_WORDS - 10)) + 10;
    const query = words.length >= MIN_TEXT_WORDS ? words.slice(at, at + QUERY_WORDS).join(' ') : null;
    pages.push({ name, half: halfOf(name), query, html: join(WCXB, 'html', file), url: '' });
  }
  return pages;
}

/** Each page at /p/NAME.html on `host`, robots.txt allowing all, nothing else. */
function serve(host, pages) {
  const byName = new Map(pages.map((page) => [page.name, page]));
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\n');
    const page = byName.get(/^\/p\/(\d+)\.html$/.exec(req.url ?? '')?.[1] ?? '');
    if (!page) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(gunzipSync(readFileSync(page.html)));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve({ host, port: server.address().port, server }));
  });
}

async function measure(port, pages, crawlSeconds) {
  const asked = pages.filter((page) => page.query !== null);
  const kept = new Map();
  for (const page of asked) kept.set(page.name, await holdsQuery(port, page));
  const rows = [];
  for (const [mode, params] of MODES) {
    const found = [];
    for (const page of asked) {
      const started = performance.now();
      const query = new URLSearchParams({ q: page.query, limit: String(K), ...params });
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/search?${query}`);
      const ms = performance.now() - started;
      if (!res.ok) throw new Error(`"${page.query}" (${mode}): HTTP ${res.status} ${await res.text()}`);
      const urls = (await res.json()).results.map((r) => r.url);
      found.push({ half: page.half, rank: urls.indexOf(page.url) + 1, ms, kept: kept.get(page.name) });
    }
    for (const half of ['A', 'B', 'all']) {
      const mine = found.filter((f) => half === 'all' || f.half === half);
      const count = (test) => mine.filter(test).length;
      const share = (n) => `${n} (${((100 * n) / mine.length).toFixed(1)}%)`;
      rows.push({
        mode,
        half,
        queries: mine.length,
        'text kept': share(count((f) => f.kept)),
        first: share(count((f) => f.rank === 1)),
        'in first 10': share(count((f) => f.rank > 0)),
        MRR: (mine.reduce((sum, f) => sum + (f.rank > 0 ? 1 / f.rank : 0), 0) / mine.length).toFixed(3),
        'p50 ms': [...mine.map((f) => f.ms)].sort((a, b) => a - b)[Math.floor(mine.length / 2)].toFixed(1),
      });
    }
  }
  return {
    title: 'Known item: a page asked 8 consecutive words of its own text, over HTTP',
    rows,
    notes: [
      `${pages.length} WCXB dev pages served from 127.0.0.1 and ::1 and crawled with \`quarry crawl --wait\` (static HTML) in ${crawlSeconds.toFixed(0)} s; ${asked.length} have ${MIN_TEXT_WORDS} words of reference text or more and are asked.`,
      `Each is asked ${QUERY_WORDS} consecutive words of its reference text from a seeded position, limit ${K}; "first" and "in first 10" count the page's own URL; MRR counts 0 past ${K}.`,
      '"text kept": the page is indexed and its text (GET /api/v1/content) holds every word of the query, whatever the ranking.',
    ],
  };
}

/** Whether the page's indexed text holds every word of its query (case-insensitive). */
async function holdsQuery(port, page) {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/content/${pageIdForUrl(page.url)}`);
  if (!res.ok) return false;
  const { title, body_text: body } = await res.json();
  const words = new Set(`${title}\n${body}`.toLowerCase().match(WORD) ?? []);
  return (page.query.toLowerCase().match(WORD) ?? []).every((word) => words.has(word));
}

function env(extra) {
  // Static HTML only: no Chromium (its pages would wait for scripts from the internet).
  return { PATH: process.env.PATH, LOG_LEVEL: 'silent', CHROMIUM_PATH: '/nonexistent/chromium', ...extra };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { printResults } = await import('./lib/table.mjs');
  printResults(await run());
}
