// Soak benchmark: the embedded default (`quarry start`, a child process) crawling a large loopback
// site of real WCXB pages (lib/soak-site-server.mjs, 8 hosts, politeness delays off) for
// BENCH_SOAK_SECS (default 180), sampled every BENCH_SOAK_SAMPLE_SECS (default 30): memory (RSS with
// the threads, the fold process, the V8 heap after a full collection), file descriptors, threads,
// the data dir by part, the log, pages indexed per second and CPU per page, the queues, and search
// latency over HTTP of 20 fixed queries asked one after another all along the crawl
// (BENCH_SOAK_SEARCH_GAP_MS apart, default 250), and how many were answered with an error.
// BENCH_SOAK_NODE_ARGS adds flags to the quarry process (`--cpu-prof --cpu-prof-dir=DIR` to
// profile it). Then `quarry start` is stopped, and
// `quarry serve` on the same data dir is asked the queries again. What grows without levelling off
// shows in the table; the summary gives RSS growth per 10,000 pages after warm-up, pages/s and
// search p50 early and late.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { testdataDir } from './lib/corpus-pages.mjs';
import { startCrawlSite } from './lib/crawl-site.mjs';
import { freePort, waitForHealth } from './lib/served.mjs';

const HOSTS = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7', '127.0.0.8', '127.0.0.9'];
/** Pages a second the site is sized for (above what two cores crawl), so it never runs out. */
const SIZING_PAGES_PER_SEC = 70;
const MiB = 1048576;

function settings() {
  const secs = Number(process.env.BENCH_SOAK_SECS ?? 180);
  const sampleSecs = Number(process.env.BENCH_SOAK_SAMPLE_SECS ?? 30);
  const pagesPerHost = Math.max(2000, Math.ceil((secs * SIZING_PAGES_PER_SEC) / HOSTS.length));
  return { secs, sampleSecs, pagesPerHost, keep: process.env.BENCH_SOAK_KEEP === '1' };
}

/** 20 queries from the served pages: the first three words of every 60th WCXB page's reference title. */
function fixedQueries(root) {
  const dir = join(testdataDir(root), 'wcxb-dev', 'dev', 'ground-truth');
  const names = readdirSync(dir).sort();
  const queries = [];
  for (let k = 0; k < names.length && queries.length < 20; k += 60) {
    const title = JSON.parse(readFileSync(join(dir, names[k]), 'utf8')).ground_truth?.title ?? '';
    const words = title.toLowerCase().match(/\p{L}[\p{L}\p{N}]+/gu) ?? [];
    if (words.length >= 2) queries.push(words.slice(0, 3).join(' '));
  }
  return queries;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const quantile = (values, q) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/**
 * Searches over HTTP all along the crawl, one at a time with BENCH_SOAK_SEARCH_GAP_MS (default 250)
 * between them, cycling through the queries: what a user asking while it crawls sees. Each sample
 * takes the latencies since the last one (`take`); `all` keeps every one for the summary.
 */
function searchAllAlong(port, queries) {
  const gapMs = Number(process.env.BENCH_SOAK_SEARCH_GAP_MS ?? 250);
  const state = { window: [], all: [], failed: new Map(), stopped: false };
  const done = (async () => {
    for (let k = 0; !state.stopped; k++) {
      const started = performance.now();
      try {
        const res = await fetch(
          `http://127.0.0.1:${port}/api/v1/search?q=${encodeURIComponent(queries[k % queries.length])}&limit=10`,
        );
        await res.arrayBuffer();
        if (res.ok) {
          const ms = performance.now() - started;
          state.window.push(ms);
          state.all.push(ms);
        } else if (!state.stopped) {
          state.failed.set(res.status, (state.failed.get(res.status) ?? 0) + 1);
        }
      } catch {
        // The process stopping: the loop ends with it.
      }
      await sleep(gapMs);
    }
  })();
  return {
    take: () => state.window.splice(0),
    all: () => state.all,
    /** Searches answered with an error, as `N (status S)` parts; empty when none. */
    failed: () => [...state.failed].map(([status, count]) => `${count} (status ${status})`).join(', '),
    stop: () => {
      state.stopped = true;
      return done;
    },
  };
}

/** Each query once over HTTP, one at a time: p50 and p95 in ms. */
async function searchLatency(port, queries) {
  const ms = [];
  for (const q of queries) {
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/search?q=${encodeURIComponent(q)}&limit=10`);
    await res.arrayBuffer();
    ms.push(performance.now() - started);
  }
  return { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95) };
}

/** Bytes on disk under a path (allocated blocks), and its number of files. */
function diskUsage(path) {
  let bytes = 0;
  let files = 0;
  const walk = (p) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      return; // removed meanwhile (a fold deletes old versions)
    }
    if (st.isDirectory()) {
      let names = [];
      try {
        names = readdirSync(p);
      } catch {}
      for (const n of names) walk(join(p, n));
    } else {
      bytes += st.blocks * 512;
      files++;
    }
  };
  walk(path);
  return { bytes, files };
}

/** The table directory of the LanceDB index (`index/<table>.lance`), or null before its creation. */
function lanceTable(dataDir) {
  try {
    const name = readdirSync(join(dataDir, 'index')).find((n) => n.endsWith('.lance'));
    return name ? join(dataDir, 'index', name) : null;
  } catch {
    return null;
  }
}

function procStatus(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { rssKiB: field('VmRSS'), threads: field('Threads') };
}

/** CPU ms of a process so far (user + system), from /proc/PID/stat. */
function procCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
}

/** The PIDs of a process's descendants (the fold process, a browser). */
function descendants(pid) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {}
  }
  const out = [];
  const visit = (p) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      visit(c);
    }
  };
  visit(pid);
  return out;
}

/** Values of a Prometheus text exposition, by metric name and label set. */
function parseMetrics(text) {
  const values = new Map();
  for (const line of text.split('\n')) {
    const m = /^(\w+)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (m) values.set(`${m[1]}${m[2] ?? ''}`, Number(m[3]));
  }
  return values;
}

/** Asks the probe in the quarry process (lib/soak-probe.mjs) for its heap; null when it does not answer. */
async function probe(file) {
  const before = readLines(file).length;
  writeFileSync(`${file}.request`, '');
  for (let i = 0; i < 40; i++) {
    await sleep(100);
    const lines = readLines(file);
    if (lines.length > before) return JSON.parse(lines[lines.length - 1]);
  }
  return null;
}

function readLines(file) {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

function fileSize(path) {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** One sample of the running `quarry start`. */
async function sample(ctx, started) {
  const { pid, dataDir } = ctx;
  const own = procStatus(pid);
  const children = descendants(pid).map((c) => {
    try {
      return procStatus(c).rssKiB;
    } catch {
      return 0;
    }
  });
  const heap = await probe(ctx.probeFile);
  const metrics = parseMetrics(await (await fetch(`http://127.0.0.1:${ctx.metricsPort}/metrics`)).text());
  const table = lanceTable(dataDir);
  const searched = ctx.searches.take();
  const search = { p50: quantile(searched, 0.5), p95: quantile(searched, 0.95), n: searched.length };
  return {
    secs: (Date.now() - started) / 1000,
    cpuMs: procCpuMs(pid),
    rssMiB: own.rssKiB / 1024,
    childrenMiB: children.reduce((a, b) => a + b, 0) / 1024,
    threads: own.threads,
    fds: readdirSync(`/proc/${pid}/fd`).length,
    heapMiB: heap ? heap.heapUsed / MiB : Number.NaN,
    externalMiB: heap ? heap.external / MiB : Number.NaN,
    loopP99Ms: heap?.loopP99Ms ?? Number.NaN,
    documents: metrics.get('quarry_index_documents') ?? 0,
    done: metrics.get('quarry_crawl_urls{state="done"}') ?? 0,
    queued: metrics.get('quarry_crawl_urls{state="queued"}') ?? 0,
    indexWaiting: metrics.get('quarry_queue_depth{queue="index",state="waiting"}') ?? 0,
    indexMiB: diskUsage(join(dataDir, 'index')).bytes / MiB,
    versions: table ? diskUsage(join(table, '_versions')).files : 0,
    dataFiles: table ? diskUsage(join(table, 'data')).files : 0,
    queueMiB: fileSize(join(dataDir, 'queue.db')) / MiB,
    walMiB: fileSize(join(dataDir, 'queue.db-wal')) / MiB,
    blobsMiB: diskUsage(join(dataDir, 'blobs')).bytes / MiB,
    logKiB: (fileSize(ctx.stdoutFile) + fileSize(ctx.stderrFile)) / 1024,
    p50: search.p50,
    p95: search.p95,
    searches: search.n,
  };
}

function startQuarry(root, args, env, stdoutFile, stderrFile, nodeArgs = []) {
  const out = openSync(stdoutFile, 'a');
  const err = openSync(stderrFile, 'a');
  return spawn(process.execPath, [...nodeArgs, join(root, 'packages', 'cli', 'bin', 'quarry.js'), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', out, err],
  });
}

async function stopProcess(child, timeoutMs = 60_000) {
  if (child.exitCode !== null) return { secs: 0, code: child.exitCode };
  const started = Date.now();
  const exited = new Promise((r) => child.once('exit', (code, signal) => r(code ?? signal)));
  child.kill('SIGTERM');
  const code = await Promise.race([exited, sleep(timeoutMs).then(() => 'timeout')]);
  if (code === 'timeout') child.kill('SIGKILL');
  return { secs: (Date.now() - started) / 1000, code };
}

async function runCli(root, args, env) {
  const child = spawn(process.execPath, [join(root, 'packages', 'cli', 'bin', 'quarry.js'), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c) => {
    out += c;
  });
  await new Promise((r) => child.once('exit', r));
  return out;
}

const fmt = (v, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : '–');

/** Rows of the table: the first sample, one every `everySecs`, and the last. */
function tableRows(samples, everySecs) {
  const rows = [];
  let next = 0;
  samples.forEach((s, k) => {
    const last = k === samples.length - 1;
    if (!(k === 0 || last || s.secs >= next)) return;
    next = Math.floor(s.secs / everySecs + 1) * everySecs;
    const prev = samples[Math.max(0, k - 1)];
    const window = k === 0 ? s : prev;
    const dt = s.secs - (k === 0 ? 0 : window.secs);
    const pages = s.documents - (k === 0 ? 0 : window.documents);
    rows.push({
      min: fmt(s.secs / 60, 1),
      pages: s.documents,
      'pages/s': fmt(pages / dt, 1),
      'CPU ms/page': fmt(
        (s.cpuMs - (k === 0 ? 0 : window.cpuMs)) / Math.max(1, s.done - (k === 0 ? 0 : window.done)),
        0,
      ),
      'RSS MiB': fmt(s.rssMiB),
      'children MiB': fmt(s.childrenMiB),
      'heap MiB': fmt(s.heapMiB),
      'ext MiB': fmt(s.externalMiB),
      fds: s.fds,
      threads: s.threads,
      'index MiB': fmt(s.indexMiB),
      'versions/data files': `${s.versions}/${s.dataFiles}`,
      'queue.db+wal MiB': `${fmt(s.queueMiB, 1)}+${fmt(s.walMiB, 1)}`,
      'blobs MiB': fmt(s.blobsMiB),
      'log KiB': fmt(s.logKiB),
      queued: s.queued,
      'index waiting': s.indexWaiting,
      'loop p99 ms': fmt(s.loopP99Ms),
      'search p50/p95 ms (n)': `${fmt(s.p50, 1)}/${fmt(s.p95, 1)} (${s.searches})`,
    });
  });
  return rows;
}

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((a, p) => a + p[0], 0) / n;
  const my = points.reduce((a, p) => a + p[1], 0) / n;
  const sxy = points.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0);
  const sxx = points.reduce((a, p) => a + (p[0] - mx) ** 2, 0);
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

function summary(samples) {
  const warm = samples.filter((s) => s.secs >= Math.min(300, samples[samples.length - 1].secs / 4));
  const rssPer10k = slope(warm.map((s) => [s.documents / 10_000, s.rssMiB]));
  const heapPer10k = slope(warm.map((s) => [s.documents / 10_000, s.heapMiB]));
  const end = samples[samples.length - 1];
  const rateBetween = (a, b) => (b.documents - a.documents) / (b.secs - a.secs);
  const at = (secs) => samples.reduce((best, s) => (Math.abs(s.secs - secs) < Math.abs(best.secs - secs) ? s : best));
  const q = end.secs / 4;
  const first = rateBetween({ secs: 0, documents: 0 }, at(q));
  const last = rateBetween(at(3 * q), end);
  const searched = samples.filter((s) => s.documents > 0);
  return { rssPer10k, heapPer10k, first, last, p50First: searched[0]?.p50, p50Last: end.p50 };
}

export async function run({ root }) {
  const { secs, sampleSecs, pagesPerHost, keep } = settings();
  const site = await startCrawlSite(root, { hosts: HOSTS, pagesPerHost, server: 'soak-site-server.mjs' });
  if (!site) return { title: 'soak', rows: [], notes: ['skipped: ../shared/testdata is absent'] };
  const base = mkdtempSync(join(tmpdir(), 'quarry-bench-soak-'));
  const dataDir = join(base, 'data');
  mkdirSync(dataDir);
  const seedsFile = join(base, 'seeds.txt');
  writeFileSync(seedsFile, site.origins.map((o) => `${o}/ depth=100 pages=${pagesPerHost + 10}\n`).join(''));
  const [port, metricsPort] = [await freePort(), await freePort()];
  const env = {
    QUARRY_DATA_DIR: dataDir,
    QUARRY_HOST: '127.0.0.1',
    QUARRY_ALLOW_HOSTS: '127.0.0.0/8',
    QUARRY_HOST_DELAY_MS: '0',
    QUARRY_RATE_LIMIT_PUBLIC: '1000000',
    QUARRY_METRICS_PORT: String(metricsPort),
    LOG_LEVEL: 'info',
  };
  const ctx = {
    dataDir,
    port,
    metricsPort,
    queries: fixedQueries(root),
    probeFile: join(base, 'probe.jsonl'),
    stdoutFile: join(base, 'quarry.out'),
    stderrFile: join(base, 'quarry.err'),
  };
  const loadBefore = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const quarry = startQuarry(
    root,
    ['start', '--port', String(port), '--seeds', seedsFile],
    { ...env, SOAK_PROBE_FILE: ctx.probeFile },
    ctx.stdoutFile,
    ctx.stderrFile,
    [
      '--expose-gc',
      '--import',
      join(root, 'bench', 'lib', 'soak-probe.mjs'),
      ...(process.env.BENCH_SOAK_NODE_ARGS ?? '').split(' ').filter(Boolean),
    ],
  );
  ctx.pid = quarry.pid;
  const samples = [];
  const samplesFile = join(base, 'samples.jsonl');
  const after = {};
  try {
    await waitForHealth(port);
    ctx.searches = searchAllAlong(port, ctx.queries);
    const started = Date.now();
    while (Date.now() - started < secs * 1000) {
      await sleep(Math.max(0, started + (samples.length + 1) * sampleSecs * 1000 - Date.now()));
      if (quarry.exitCode !== null) throw new Error(`quarry start exited with ${quarry.exitCode}`);
      const s = await sample(ctx, started);
      samples.push(s);
      writeFileSync(samplesFile, `${JSON.stringify(s)}\n`, { flag: 'a' });
      if (process.env.BENCH_SOAK_VERBOSE === '1') console.error(JSON.stringify(s));
    }
    await ctx.searches.stop();
    after.stop = await stopProcess(quarry);
    after.status = JSON.parse(await runCli(root, ['status', '--json'], env));
    // The API alone on the crawled data dir: search latency once nothing is written, and after a minute
    // (its maintenance folds what the crawl left unfolded).
    const servePort = await freePort();
    const serveStarted = Date.now();
    const serve = startQuarry(root, ['serve', '--port', String(servePort)], env, ctx.stdoutFile, ctx.stderrFile);
    try {
      await waitForHealth(servePort);
      after.serveReadySecs = (Date.now() - serveStarted) / 1000;
      await searchLatency(servePort, ctx.queries); // first reads of the index files
      after.search = await searchLatency(servePort, [...ctx.queries, ...ctx.queries, ...ctx.queries]);
      await sleep(60_000);
      after.searchLater = await searchLatency(servePort, ctx.queries);
      after.serveRssMiB = procStatus(serve.pid).rssKiB / 1024;
    } finally {
      await stopProcess(serve);
    }
    const table = lanceTable(dataDir);
    after.indexMiB = diskUsage(join(dataDir, 'index')).bytes / MiB;
    after.versions = table ? diskUsage(join(table, '_versions')).files : 0;
    after.dataFiles = table ? diskUsage(join(table, 'data')).files : 0;
  } finally {
    await ctx.searches?.stop();
    await stopProcess(quarry);
    site.stop();
    if (!keep) rmSync(base, { recursive: true, force: true });
  }
  if (samples.length === 0) return { title: 'soak', rows: [], notes: ['no sample taken'] };
  const everySecs = Math.max(sampleSecs, Math.round(secs / 12 / 60) * 60);
  const sum = summary(samples);
  const crawl = after.status?.crawl ?? {};
  return {
    title: `Soak: quarry start for ${fmt(secs / 60, 1)} min on ${HOSTS.length} loopback hosts (${pagesPerHost} pages each, politeness off, ${availableParallelism()} cores)`,
    rows: tableRows(samples, everySecs),
    notes: [
      `search while crawling (every ${Number(process.env.BENCH_SOAK_SEARCH_GAP_MS ?? 250)} ms, one at a time): ${ctx.searches.all().length} searches, p50 ${fmt(quantile(ctx.searches.all(), 0.5), 1)} ms, p95 ${fmt(quantile(ctx.searches.all(), 0.95), 1)} ms, p99 ${fmt(quantile(ctx.searches.all(), 0.99), 1)} ms; failed: ${ctx.searches.failed() || 'none'}`,
      `summary: RSS ${fmt(sum.rssPer10k, 1)} MiB per 10,000 pages after warm-up (heap ${fmt(sum.heapPer10k, 1)}); pages/s first quarter ${fmt(sum.first, 1)}, last quarter ${fmt(sum.last, 1)}; search p50 first ${fmt(sum.p50First, 1)} ms, last ${fmt(sum.p50Last, 1)} ms, after the crawl (quarry serve) ${fmt(after.search?.p50, 1)} ms (p95 ${fmt(after.search?.p95, 1)}), a minute later ${fmt(after.searchLater?.p50, 1)} ms`,
      `stop: quarry start exited ${after.stop?.code} in ${fmt(after.stop?.secs, 1)} s; quarry serve ready in ${fmt(after.serveReadySecs, 1)} s, RSS ${fmt(after.serveRssMiB)} MiB; index after it ${fmt(after.indexMiB)} MiB, ${after.versions} versions, ${after.dataFiles} data files`,
      `crawl at the end: ${crawl.done} done, ${crawl.skipped} skipped, ${crawl.failed} failed, ${crawl.queued} queued; ${after.status?.documents} documents; reasons ${(crawl.reasons ?? []).map((r) => `${r.state} ${r.reason} ${r.count}`).join(', ')}`,
      `queries: ${ctx.queries.length} (the first three words of WCXB reference titles), one at a time over HTTP each sample`,
      `load average before the run: ${loadBefore}; after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}${keep ? `; data and samples kept in ${base}` : ''}`,
    ],
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printResults } = await import('./lib/table.mjs');
  printResults(await run({ root: new URL('..', import.meta.url).pathname }));
}
