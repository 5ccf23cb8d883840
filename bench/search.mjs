// Search benchmark: builds a realistic corpus (real page text, Chinese news, IR collections and
// generated text), imports it into the embedded LanceDB index (import and index build timed, disk
// size measured), times a fixed query mix in-process, then the same mix while pages are written at
// a crawler's rate (background folds on), then serves the index with the real API in a child
// process (so its peak RSS is its own) and loads it with autocannon, one run per query shape plus
// one over the whole mix. Run `npx tsc -b` first: it imports the built packages.
// `node bench/search.mjs [docs]`, or BENCH_SEARCH_DOCS=1000000 npm run bench -- search
// (BENCH_SEARCH_HTTP=0 leaves out the HTTP runs, BENCH_WRITE_SECS sets the writing phase, 90 s, 0 none;
// BENCH_SEARCH_DIR keeps the corpus and index there and reuses an import of the same size, whose
// writing phases then add their pages to it; with BENCH_REIMPORT=1 its corpus is imported again).
// The child mode, `node bench/search.mjs --serve <index dir> <blob dir>`, is internal.

import { execFileSync, fork } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as lancedb from '@lancedb/lancedb';
import { createApp, startServer } from '@quarry/api';
import { FileBlobStore } from '@quarry/blobstore';
import { loadConfig, normalizeLang, pageIdForUrl, readLines, TIME_RANGES_MS, toIsoUtc } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import { parseQuery } from '@quarry/query';
import autocannon from 'autocannon';
import { pino } from 'pino';

const HERE = dirname(fileURLToPath(import.meta.url));
/** Where the shared test data lives (pages, Chinese news, IR collections). */
export const TESTDATA_DIR = join(HERE, '../../shared/testdata');

const DAY_MS = 86_400_000;
const SPAN_MS = 2 * 365 * DAY_MS;
/** As `quarry import` writes them (its default batch size). */
const BATCH_DOCS = 5000;
const WARMUP_RUNS = 20;
const MEASURED_RUNS = 200;
/** HTTP load: connections (issue 2: 32), seconds per query shape and for the whole mix. */
const HTTP_CONNECTIONS = 32;
const HTTP_SHAPE_SECS = 3;
const HTTP_MIX_SECS = 6;
const HTTP_WARMUP_SECS = 2;

/**
 * The fixed query mix: one entry per shape, with HTTP-style parameters (`q`, `time_range`, `site`,
 * `lang`, `lang_priority`). Words were picked from the corpus sources: rare (a technical term of
 * one IR collection), very common, several, and so on.
 */
export const QUERY_MIX = [
  { shape: 'rare word', params: { q: 'multiterm' } },
  { shape: 'common word', params: { q: 'time' } },
  { shape: '2 common words (AND)', params: { q: 'information system' } },
  {
    shape: '8-word question (match=any)',
    params: { q: 'how do the boundary layer effects change heat transfer', match: 'any' },
  },
  { shape: 'words joined with OR', params: { q: 'library OR museum' } },
  { shape: '3-word phrase', params: { q: '"boundary layer flow"' } },
  { shape: 'phrase + word', params: { q: '"boundary layer" heat' } },
  { shape: '-word', params: { q: 'flow -turbulent' } },
  { shape: 'title-only word', params: { q: 'intitle:heat' } },
  { shape: 'common word + site', params: { q: 'data site:news0.example.com' } },
  { shape: 'common word + site path', params: { q: 'data site:news0.example.com/p' } },
  { shape: 'common word + lang', params: { q: 'time', lang: 'de' } },
  { shape: 'common word + 30 days', params: { q: 'information', time_range: '30d' } },
  { shape: 'lang_priority', params: { q: 'system', lang_priority: 'de' } },
  { shape: 'Chinese', params: { q: '记者' } },
  // One character: any of the ~21,000 tokens it may begin (see `pairsBeginningWith`).
  { shape: 'Chinese, one character', params: { q: '记' } },
  { shape: 'stop word only', params: { q: 'the' } },
];

/** Writes during the search-while-writing phase: the crawl benchmark's rate, in one batch a second. */
const WRITE_PAGES_PER_SEC = 30;
const WRITE_PHASE_SECS = Number(process.env.BENCH_WRITE_SECS ?? 90);
/** The generator seed of the writing phase's pages (the corpus's is 42). */
const FRESH_PAGES_SEED = 7;

/** Deterministic PRNG (mulberry32) so every run builds the same corpus. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function htmlToText(html) {
  return html
    .replace(/<(script|style|noscript)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

function paragraphs(text, minChars = 80) {
  return text
    .split(/(?<=[.!?。！？])\s*/u)
    .reduce((acc, sentence) => {
      const last = acc.at(-1);
      if (last !== undefined && last.length < minChars) acc[acc.length - 1] = `${last} ${sentence}`;
      else acc.push(sentence);
      return acc;
    }, [])
    .filter((p) => p.length >= 20);
}

function readJsonl(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

/** Loads the text pools once: Latin-script paragraphs by language, Chinese paragraphs, titles. */
function loadSources() {
  if (!existsSync(TESTDATA_DIR)) throw new Error(`test data not found at ${TESTDATA_DIR}`);
  const byLang = new Map();
  const titles = [];
  const add = (lang, text) => {
    if (!byLang.has(lang)) byLang.set(lang, []);
    byLang.get(lang).push(...paragraphs(text));
  };
  const pagesDir = join(TESTDATA_DIR, 'readability-pages');
  for (const name of readdirSync(pagesDir)) {
    const file = join(pagesDir, name, 'expected.html');
    if (!existsSync(file)) continue;
    const meta = JSON.parse(readFileSync(join(pagesDir, name, 'expected-metadata.json'), 'utf8'));
    add(normalizeLang(meta.lang) ?? 'en', htmlToText(readFileSync(file, 'utf8')));
    if (meta.title) titles.push(meta.title);
  }
  const ir = [];
  for (const collection of ['cranfield', 'cisi']) {
    const file = join(TESTDATA_DIR, 'ir', collection, 'docs.jsonl');
    if (!existsSync(file)) continue;
    for (const doc of readJsonl(file)) {
      ir.push(...paragraphs(doc.text ?? ''));
      if (doc.title) titles.push(doc.title);
    }
  }
  const zh = [];
  const zhDir = join(TESTDATA_DIR, 'chinese-pages', 'original');
  const gbk = new TextDecoder('gbk');
  for (const name of readdirSync(zhDir)) {
    const bytes = readFileSync(join(zhDir, name));
    const head = bytes.subarray(0, 2048).toString('latin1');
    const text = /charset=["']?utf-?8/i.test(head) ? bytes.toString('utf8') : gbk.decode(bytes);
    zh.push(...paragraphs(htmlToText(text), 40).filter((p) => /[\u4e00-\u9fff]{8}/u.test(p)));
  }
  const vocabulary = zipfVocabulary([...(byLang.get('en') ?? []), ...ir]);
  return { byLang, ir, zh, titles, vocabulary };
}

function zipfVocabulary(texts) {
  const counts = new Map();
  for (const text of texts) {
    for (const word of text.toLowerCase().match(/[a-z]{3,}/g) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([w]) => w);
}

function pick(random, list) {
  return list[Math.floor(random() * list.length)];
}

/** Word index from a Zipf-like distribution over the vocabulary (rank^-1). */
function zipfWord(random, vocabulary) {
  const rank = Math.floor(Math.exp(random() * Math.log(vocabulary.length)));
  return vocabulary[Math.min(vocabulary.length - 1, rank)];
}

function generatedSentence(random, vocabulary) {
  const words = Array.from({ length: 8 + Math.floor(random() * 14) }, () => zipfWord(random, vocabulary));
  const sentence = words.join(' ');
  return `${sentence[0].toUpperCase()}${sentence.slice(1)}.`;
}

/** English pages mix real page text (40%), IR abstracts (15%) and generated Zipf text (45%). */
function paragraphFor(random, sources, lang, pool) {
  if (lang !== 'en') return pick(random, pool);
  const r = random();
  if (r < 0.4) return pick(random, pool);
  if (r < 0.55 && sources.ir.length > 0) return pick(random, sources.ir);
  return generatedSentence(random, sources.vocabulary);
}

const LANG_WEIGHTS = [
  ['en', 0.72],
  ['de', 0.05],
  ['fr', 0.05],
  ['es', 0.04],
  ['ja', 0.02],
  ['zh', 0.1],
  ['und', 0.02],
];
const FILETYPES = [
  ['html', 0.9],
  ['pdf', 0.04],
  ['doc', 0.01],
  ['docx', 0.01],
  ['ppt', 0.01],
  ['pptx', 0.01],
  ['xls', 0.01],
  ['xlsx', 0.01],
];
const EXTENSION = {
  html: '',
  pdf: '.pdf',
  doc: '.doc',
  docx: '.docx',
  ppt: '.ppt',
  pptx: '.pptx',
  xls: '.xls',
  xlsx: '.xlsx',
};

function weighted(random, table) {
  let r = random();
  for (const [value, weight] of table) {
    r -= weight;
    if (r <= 0) return value;
  }
  return table[0][0];
}

/** Hosts: 2,000 sites with Zipf-distributed sizes, some pages on subdomains. */
function hostFor(random) {
  const site = Math.min(1999, Math.floor(Math.exp(random() * Math.log(2000))) - 1);
  const kind = ['news', 'blog', 'docs', 'shop', 'wiki'][site % 5];
  const base = `${kind}${site}.example.${['com', 'org', 'net', 'de', 'cn'][site % 5]}`;
  return random() < 0.2 ? `${pick(random, ['www', 'en', 'm', 'api'])}.${base}` : base;
}

/**
 * Builds `n` realistic documents (a generator; same output on every run). Bodies are 2 to 20 KB of
 * UTF-8 (log-uniform), ~10% Chinese; crawl times spread over the two years before `nowMs`, rising
 * with the document number as a crawl would.
 */
export function* buildCorpus(n, { nowMs = Date.now(), seed = 42 } = {}) {
  const random = rng(seed);
  const sources = loadSources();
  for (let i = 0; i < n; i++) {
    let lang = weighted(random, LANG_WEIGHTS);
    const chinese = lang === 'zh';
    // Languages without real text in the test data are labelled as what their text is.
    if (!chinese && !sources.byLang.has(lang)) lang = 'en';
    const pool = chinese ? sources.zh : sources.byLang.get(lang);
    const targetBytes = Math.round(2048 * Math.exp(random() * Math.log(10)));
    const parts = [];
    let bytes = 0;
    while (bytes < targetBytes) {
      const part = paragraphFor(random, sources, lang, pool);
      parts.push(part);
      bytes += Buffer.byteLength(part) + 1;
    }
    const title = chinese
      ? pick(random, sources.zh).slice(0, 24)
      : `${pick(random, sources.titles)} ${zipfWord(random, sources.vocabulary)}`.slice(0, 140);
    const filetype = weighted(random, FILETYPES);
    const host = hostFor(random);
    const url = `https://${host}/p/${i}${EXTENSION[filetype]}`;
    const crawledMs = nowMs - SPAN_MS + Math.floor((i / n) * SPAN_MS) - Math.floor(random() * 3 * DAY_MS);
    const body = parts.join(chinese ? '' : ' ');
    yield {
      id: pageIdForUrl(url),
      url,
      title,
      body_text: body,
      lang,
      author: null,
      published_at: random() < 0.5 ? toIsoUtc(new Date(crawledMs - Math.floor(random() * 30 * DAY_MS))) : null,
      crawled_at: toIsoUtc(new Date(crawledMs)),
      site_name: random() < 0.5 ? `Site ${host.split('.').at(-2)}` : null,
      has_llms_txt: random() < 0.1,
      filetype,
      domain: host,
      word_count: chinese ? body.length : body.split(/\s+/).length,
    };
  }
}

/** Writes the corpus as JSONL (the `quarry import` format); resolves to the file path. */
export async function writeCorpusJsonl(path, n, options = {}) {
  const out = createWriteStream(path);
  for (const doc of buildCorpus(n, options)) {
    if (!out.write(`${JSON.stringify(doc)}\n`)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  return path;
}

/** Turns HTTP-style parameters into the index query the API would build. */
export function toIndexQuery(params, nowMs = Date.now()) {
  const rangeMs = params.time_range ? TIME_RANGES_MS[params.time_range] : null;
  return {
    query: parseQuery(params.q),
    ...(params.lang ? { lang: params.lang } : {}),
    ...(params.site ? { site: params.site } : {}),
    ...(params.lang_priority ? { langPriority: params.lang_priority } : {}),
    ...(rangeMs ? { crawledAfter: toIsoUtc(new Date(nowMs - rangeMs)) } : {}),
    ...(params.match ? { match: params.match } : {}),
    limit: params.limit ?? 10,
    offset: params.offset ?? 0,
  };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Writes `docs` documents as JSONL under `dir` (a temp dir by default, removed afterwards), imports
 * them into a fresh LanceDB index as `quarry import` does (bulk writes, then one index build, both
 * timed), times the query mix, then the mix again while pages are written, and optionally over HTTP.
 */
export async function runSearchBench({
  docs = Number(process.env.BENCH_SEARCH_DOCS ?? 100_000),
  dir = process.env.BENCH_SEARCH_DIR,
  runs = MEASURED_RUNS,
  http = process.env.BENCH_SEARCH_HTTP !== '0',
  log = console.log,
} = {}) {
  const workDir = dir ?? mkdtempSync(join(tmpdir(), 'quarry-bench-search-'));
  mkdirSync(workDir, { recursive: true });
  const corpusFile = join(workDir, 'corpus.jsonl');
  const indexDir = join(workDir, 'index');
  // A kept directory (BENCH_SEARCH_DIR) that already holds an import of the same size is reused:
  // at 1M pages the import takes most of an hour, the query timings a few minutes.
  const importedFile = join(workDir, 'imported.json');
  const kept = existsSync(importedFile) ? JSON.parse(readFileSync(importedFile, 'utf8')) : null;
  const keptCorpus = kept !== null && kept.docs === docs;
  if (keptCorpus && process.env.BENCH_REIMPORT !== '1') {
    log(`  reusing the import of ${docs} documents in ${workDir} (made ${new Date(kept.nowMs).toISOString()})`);
    return await timeImported({ ...kept, workDir, indexDir, runs, http, log });
  }
  // BENCH_REIMPORT=1 imports the kept corpus again into a new index (its dates stay as written).
  const nowMs = keptCorpus ? kept.nowMs : Date.now();
  if (keptCorpus) {
    rmSync(indexDir, { recursive: true, force: true });
    log(`  importing the kept corpus of ${docs} documents again`);
  } else {
    log(`  writing ${docs} documents to ${corpusFile}`);
    await writeCorpusJsonl(corpusFile, docs, { nowMs });
  }
  const index = await LanceSearchIndex.open({ path: indexDir, autoMaintain: false });
  try {
    // The index's import rate: read and parse JSONL, upsert in `quarry import`'s batch size, then
    // build the full-text indexes once. `quarry import` also validates each line, counts words and
    // writes durable blobs, which the README reports separately.
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    let imported = 0;
    let batch = [];
    // Two batches in flight, as `quarry import` writes: one is analysed on this thread while the
    // engine writes the other on its own threads.
    const inflight = [];
    const write = async () => {
      inflight.push(index.upsert(batch));
      imported += batch.length;
      batch = [];
      if (inflight.length >= 2) await inflight.shift();
      if (imported % 50_000 === 0) {
        log(`  written ${imported} (${Math.round(imported / ((performance.now() - started) / 1000))} docs/s)`);
      }
    };
    // Lines read as `quarry import` reads them.
    for await (const { text: line } of readLines(corpusFile)) {
      if (!line) continue;
      batch.push(JSON.parse(line));
      if (batch.length === BATCH_DOCS) await write();
    }
    if (batch.length > 0) await write();
    await Promise.all(inflight);
    const writtenMs = performance.now() - started;
    await index.flush();
    const importMs = performance.now() - started;
    const importDocsPerSec = Math.round(imported / (importMs / 1000));
    const importCpu = process.cpuUsage(cpuStarted);
    const importCpuMsPerDoc = (importCpu.user + importCpu.system) / 1000 / imported;
    const diskMib = duMib(indexDir);
    log(
      `  imported ${imported}: rows written in ${(writtenMs / 1000).toFixed(1)} s, indexes built in ${((importMs - writtenMs) / 1000).toFixed(1)} s; ${diskMib} MiB`,
    );
    // A serving process's maintainer next compacts the import's files (one per write) in the
    // background; it is run here at once, and timed apart, so that searches are timed after it.
    const compacting = performance.now();
    await index.flush();
    const compactSecs = (performance.now() - compacting) / 1000;
    log(`  the import's files compacted in ${compactSecs.toFixed(1)} s; ${duMib(indexDir)} MiB`);
    await index.close();
    const figures = {
      docs: imported,
      compactSecs,
      nowMs,
      importDocsPerSec,
      importCpuMsPerDoc,
      writeDocsPerSec: Math.round(imported / (writtenMs / 1000)),
      buildSecs: (importMs - writtenMs) / 1000,
      diskMib,
    };
    if (dir) writeFileSync(importedFile, JSON.stringify(figures));
    return await timeImported({ ...figures, workDir, indexDir, runs, http, log });
  } finally {
    await index.close();
    if (!dir) rmSync(workDir, { recursive: true, force: true });
  }
}

/** Times the query mix on an imported index, then over HTTP, then while pages are written. */
async function timeImported({ workDir, indexDir, runs, http, log, ...figures }) {
  let index = await LanceSearchIndex.open({ path: indexDir, autoMaintain: false });
  try {
    // A reused index holds the pages an earlier writing phase left unfolded: fold them first, so
    // that the query mix is timed on a fully folded index as after an import.
    if ((await unfoldedRows(indexDir)) > 0) {
      const folding = performance.now();
      await index.flush();
      log(`  folded the pages left unfolded in ${((performance.now() - folding) / 1000).toFixed(1)} s`);
    }
    const rows = await timeMix(index, figures.nowMs, runs);
    await index.close();
    const loadAverage = loadavg()[0];
    // Over HTTP while every page is folded (the writing phase below leaves pages unfolded).
    const api = http ? await runHttpBench(indexDir, join(workDir, 'blobs'), log) : null;
    // Search while writing, with background folds as `quarry start` runs them (BENCH_WRITE_SECS=0
    // leaves it out).
    if (WRITE_PHASE_SECS <= 0) return { ...figures, rows, during: null, loadAverage, api };
    index = await LanceSearchIndex.open({ path: indexDir });
    const during = await searchWhileWriting(index, figures.nowMs, log);
    await index.close();
    during.diskMib = duMib(indexDir);
    return { ...figures, rows, during, loadAverage, api };
  } finally {
    await index.close();
  }
}

/** Pages of the index at `dir` not in its full-text index yet (left by a writing phase). */
async function unfoldedRows(dir) {
  const db = await lancedb.connect(dir);
  try {
    const table = await db.openTable('pages');
    const stats = await table.indexStats('t_text_idx');
    table.close();
    return stats?.numUnindexedRows ?? 0;
  } finally {
    db.close();
  }
}

async function timeMix(index, nowMs, runs) {
  const rows = [];
  for (const { shape, params } of QUERY_MIX) {
    const query = toIndexQuery(params, nowMs);
    let result;
    for (let i = 0; i < WARMUP_RUNS; i++) result = await index.search(query);
    const times = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await index.search(query);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    rows.push({
      shape,
      q: Object.entries(params)
        .map(([k, v]) => (k === 'q' ? v : `${k}=${v}`))
        .join(' '),
      total: `${result.total}${result.totalIsEstimate ? '+' : ''}`,
      p50_ms: percentile(times, 50).toFixed(2),
      p95_ms: percentile(times, 95).toFixed(2),
      p99_ms: percentile(times, 99).toFixed(2),
    });
  }
  return rows;
}

/**
 * Writes WRITE_PAGES_PER_SEC new pages a second (each with a unique word) while searching the mix
 * in a loop; reports search latency over the phase, how long each page took to be found by its
 * word after its write was acknowledged, and the folds the index ran.
 */
async function searchWhileWriting(index, nowMs, log) {
  const until = Date.now() + WRITE_PHASE_SECS * 1000;
  const times = [];
  const visibleAfterMs = [];
  let written = 0;
  const fresh = buildCorpus(Number.MAX_SAFE_INTEGER, { nowMs, seed: FRESH_PAGES_SEED });
  const writer = (async () => {
    let n = 0;
    while (Date.now() < until) {
      const tick = Date.now();
      const batch = Array.from({ length: WRITE_PAGES_PER_SEC }, () => {
        const i = n++;
        // Pages like the corpus's (a phrase or a word of the query mix no likelier on them), each
        // with a word of its own to find it by.
        const page = fresh.next().value;
        const url = `https://fresh.example.com/page/${i}`;
        return {
          ...page,
          id: pageIdForUrl(url),
          url,
          domain: 'fresh.example.com',
          body_text: `${page.body_text} freshmark${i}`,
          crawled_at: toIsoUtc(new Date()),
          word_count: page.word_count + 1,
        };
      });
      await index.upsert(batch);
      written += batch.length;
      const probe = batch.at(-1).body_text.match(/freshmark\d+/)[0];
      const acked = Date.now();
      while ((await index.search({ query: parseQuery(probe), limit: 1, offset: 0 })).hits.length === 0) {
        await new Promise((r) => setTimeout(r, 50));
      }
      visibleAfterMs.push(Date.now() - acked);
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - tick))));
    }
  })();
  const queries = QUERY_MIX.map(({ params }) => toIndexQuery(params, nowMs));
  const byShape = QUERY_MIX.map(() => []);
  for (let i = 0; Date.now() < until; i++) {
    const started = performance.now();
    await index.search(queries[i % queries.length]);
    times.push(performance.now() - started);
    byShape[i % queries.length].push(times.at(-1));
  }
  await writer;
  times.sort((a, b) => a - b);
  visibleAfterMs.sort((a, b) => a - b);
  const result = {
    secs: WRITE_PHASE_SECS,
    written,
    searches: times.length,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    maxMs: times.at(-1),
    visibleP99Ms: percentile(visibleAfterMs, 99),
    // Per shape, p50 / p99 in ms.
    shapes: QUERY_MIX.map(({ shape }, i) => {
      const sorted = byShape[i].sort((a, b) => a - b);
      return `${shape} ${percentile(sorted, 50)?.toFixed(0)}/${percentile(sorted, 99)?.toFixed(0)}`;
    }),
  };
  log(
    `  while writing: ${result.searches} searches, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms`,
  );
  return result;
}

function duMib(dir) {
  return Math.round(Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split(/\s/)[0]) / 1024);
}

/** Query string of one mix entry, as a client would send it. */
function searchPath(params) {
  return `/api/v1/search?${new URLSearchParams(params)}`;
}

/**
 * Serves the index with the real API in a child process, loads it with autocannon (32 connections)
 * per query shape and over the whole mix, and reads the child's peak RSS when it stops.
 */
export async function runHttpBench(indexFile, blobDir, log = console.log) {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', indexFile, blobDir], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages = [];
  const waiters = [];
  child.on('message', (message) => {
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else messages.push(message);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const next = () =>
    messages.length > 0
      ? Promise.resolve(messages.shift())
      : Promise.race([
          new Promise((resolve) => waiters.push(resolve)),
          exited.then((code) => {
            throw new Error(`API child exited early (${code})`);
          }),
        ]);
  try {
    const { url } = await next();
    log(`  API (child ${child.pid}) at ${url}; ${HTTP_CONNECTIONS} connections`);
    const load = (requests, duration) =>
      autocannon({ url, connections: HTTP_CONNECTIONS, duration, requests, timeout: 10 });
    const mix = QUERY_MIX.map(({ params }) => ({ method: 'GET', path: searchPath(params) }));
    // Warm-up over the whole mix, as the in-process runs warm up each shape: statements prepared
    // and page caches filled in every search thread.
    await load(mix, HTTP_WARMUP_SECS);
    const row = (shape, result) => ({
      shape,
      req_per_s: Math.round(result.requests.average),
      p50_ms: result.latency.p50,
      p99_ms: result.latency.p99,
      max_ms: result.latency.max,
      non2xx: result.non2xx + result.errors + result.timeouts,
    });
    const rows = [];
    for (const { shape, params } of QUERY_MIX) {
      const result = await load([{ method: 'GET', path: searchPath(params) }], HTTP_SHAPE_SECS);
      rows.push(row(shape, result));
      log(`  HTTP ${shape}: ${rows.at(-1).req_per_s} req/s, p99 ${rows.at(-1).p99_ms} ms`);
    }
    rows.push(row('whole mix', await load(mix, HTTP_MIX_SECS)));
    child.send({ type: 'stop' });
    const { peakRssKib } = await next();
    return { rows, peakRssMib: Math.round(peakRssKib / 1024) };
  } finally {
    if (child.exitCode === null) child.kill();
    await exited;
  }
}

/** Child mode: the API on an existing index until told to stop; reports its peak RSS. */
async function serve(indexFile, blobDir) {
  const config = loadConfig({ QUARRY_RATE_LIMIT_PUBLIC: '1000000', LOG_LEVEL: 'silent' });
  const index = await LanceSearchIndex.open({ path: indexFile, autoMaintain: false });
  const app = createApp({
    config,
    index,
    blobs: new FileBlobStore({ dir: blobDir }),
    logger: pino({ level: 'silent' }),
  });
  const server = await startServer(app, { port: 0, host: '127.0.0.1' });
  process.send({ url: server.url });
  process.on('message', async (message) => {
    if (message?.type !== 'stop') return;
    await server.close();
    await index.close();
    const status = readFileSync('/proc/self/status', 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
    const peakRssKib = status ? Number(status[1]) : process.resourceUsage().maxRSS;
    process.send({ peakRssKib }, () => process.disconnect());
  });
}

/** Entry point for `npm run bench` (scripts/bench.js): the in-process, while-writing and HTTP tables. */
export async function run() {
  const result = await runSearchBench();
  const d = result.during;
  return [
    {
      title: `Search, in-process (LanceDB, ${result.docs} docs; import ${result.importDocsPerSec} docs/s, index on disk ${result.diskMib} MiB)`,
      rows: result.rows,
      notes: [
        'total with + is an estimate (past 1,000 matches, counted in a fixed 1/64 sample of the pages)',
        `import: rows written at ${result.writeDocsPerSec} docs/s, then full-text indexes built in ${result.buildSecs.toFixed(1)} s; CPU ${result.importCpuMsPerDoc.toFixed(3)} ms/doc (all threads, JSONL parsing included)`,
        `after the import, the background compaction of its files (not in the import rate; searches are timed after it): ${result.compactSecs?.toFixed(1) ?? '-'} s`,
        `1-minute load average at the end: ${result.loadAverage.toFixed(1)}`,
      ],
    },
    ...(d
      ? [
          {
            title: `Search while writing ${WRITE_PAGES_PER_SEC} pages/s for ${d.secs} s (background folds on)`,
            rows: [
              {
                written: d.written,
                searches: d.searches,
                p50_ms: d.p50Ms.toFixed(1),
                p99_ms: d.p99Ms.toFixed(1),
                max_ms: d.maxMs.toFixed(1),
                'new page found after (p99)': `${d.visibleP99Ms} ms`,
                'disk after': `${d.diskMib} MiB`,
              },
            ],
            notes: [
              'the whole query mix in a loop on one connection while a writer adds a batch a second',
              `per shape, p50/p99 ms: ${d.shapes.join('; ')}`,
            ],
          },
        ]
      : []),
    ...(result.api
      ? [
          {
            title: `Search over HTTP (API in a child process, autocannon, ${HTTP_CONNECTIONS} connections)`,
            rows: result.api.rows,
            notes: [
              `${HTTP_WARMUP_SECS} s warm-up over the mix, then ${HTTP_SHAPE_SECS} s per shape and ${HTTP_MIX_SECS} s for the whole mix (each shape in turn)`,
              `API process peak RSS (VmHWM): ${result.api.peakRssMib} MiB`,
            ],
          },
        ]
      : []),
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] === '--serve') {
    await serve(process.argv[3], process.argv[4]);
  } else {
    const { printResults } = await import('./lib/table.mjs');
    if (process.argv[2]) process.env.BENCH_SEARCH_DOCS = process.argv[2];
    printResults(await run());
  }
}
