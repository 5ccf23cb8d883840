// Extraction benchmark. Quality per data set and fixed half (see bench/lib/extract-sets.mjs: half A
// is where heuristics are tuned, half B is held out): main-text F1 by the set's own metric, title,
// author and date accuracy, pages/s. Speed of extractHtml on mozilla/readability's test pages on
// one core and on every core (worker_threads), for each DOM implementation. Imports the BUILT
// packages:
//   npx tsc -b packages/extract && node bench/extract.mjs [--set wcxb] [--half B] [--dump out.json]
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createExtractPool } from '@quarry/crawler';
import { extractHtml } from '@quarry/extract';
import { halfOf, loadExtractSets, readabilitySources } from './lib/extract-sets.mjs';
import { hostilePages } from './lib/hostile-pages.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const TESTDATA = join(HERE, '../../shared/testdata');
const WCXB_TYPES = ['article', 'forum', 'product', 'collection', 'listing', 'documentation', 'service'];

/** Extracts every page once; returns elapsed milliseconds. `dom` may end in `-nomd` (no markdown). */
function timePass(sources, dom) {
  const impl = dom.replace(/-nomd$/, '');
  const markdown = !dom.endsWith('-nomd');
  const start = performance.now();
  for (const { html, url } of sources) extractHtml(html, { url, dom: impl, markdown });
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

/** Extracts and scores every page of a set (linkedom, the production path); one result per page. */
function scoreSet(set, half, dom) {
  const results = [];
  for (const page of set.pages) {
    const pageHalf = halfOf(page.name);
    if (half && pageHalf !== half) continue;
    const html = page.html();
    const start = performance.now();
    const got = extractHtml(html, { url: page.url, dom });
    const ms = performance.now() - start;
    const seen = { gotTitle: got.title, gotAuthor: got.author, gotDate: got.published_at, chars: got.textLength };
    results.push({ name: page.name, half: pageHalf, type: page.type, ms, ...seen, ...set.score(page, got, html) });
  }
  return results;
}

const share = (results, key) => {
  const known = results.filter((r) => r[key] !== undefined);
  return known.length === 0 ? '-' : `${known.filter((r) => r[key]).length}/${known.length}`;
};
const meanF1 = (results) => (results.reduce((a, r) => a + r.f1, 0) / Math.max(1, results.length)).toFixed(4);

/** Micro F1 of each markdown structure kind over a half's pages (see markdownStructure in extract-sets.mjs). */
function markdownRow(half, results) {
  const scored = results.filter((r) => r.markdown !== undefined);
  const row = { half: half === 'A' ? 'A (tuning)' : 'B (held out)', pages: scored.length };
  for (const kind of Object.keys(scored[0]?.markdown ?? {})) {
    let both = 0;
    let ours = 0;
    let reference = 0;
    for (const r of scored) {
      both += r.markdown[kind].both;
      ours += r.markdown[kind].ours;
      reference += r.markdown[kind].reference;
    }
    const p = both / Math.max(1, ours);
    const rec = both / Math.max(1, reference);
    const f1 = p + rec === 0 ? 0 : (2 * p * rec) / (p + rec);
    row[kind] = `${f1.toFixed(3)} (${p.toFixed(2)} / ${rec.toFixed(2)})`;
  }
  return row;
}

/** Each markdown defect's count over a half's pages (see markdownDefects in extract-sets.mjs). */
function defectsRow(half, results) {
  const row = { half: half === 'A' ? 'A (tuning)' : 'B (held out)', pages: results.length };
  for (const r of results) {
    for (const [kind, n] of Object.entries(r.defects ?? {})) row[kind] = (row[kind] ?? 0) + n;
  }
  return row;
}

/**
 * The reference's snippets found in the text, per half: `with` (lines of the main text) and
 * `without` (boilerplate lines beside it: menus, calls to action, related links). evaluate.py's
 * rate: each page's share of its snippets found, averaged over the pages that list any.
 */
function snippetsRow(half, results) {
  const rate = (key) => {
    const listed = results.map((r) => r[key]).filter((s) => s !== null && s !== undefined);
    const mean = listed.reduce((a, s) => a + s.found / s.total, 0) / Math.max(1, listed.length);
    const found = listed.reduce((a, s) => a + s.found, 0);
    const total = listed.reduce((a, s) => a + s.total, 0);
    return `${(100 * mean).toFixed(1)}% (${found}/${total} in ${listed.length} pages)`;
  };
  return {
    half: half === 'A' ? 'A (tuning)' : 'B (held out)',
    'main-text lines found (higher is better)': rate('withSnippets'),
    'boilerplate lines found (lower is better)': rate('withoutSnippets'),
  };
}

/**
 * Author and date accuracy per half, split by whether the page's structured data (JSON-LD, meta
 * tags, microdata) states the reference's answer: reading what is declared, and the visible
 * bylines and datelines the rules find without it.
 */
function declaredRow(half, results) {
  const part = (key, declared) => {
    const pages = results.filter((r) => r[`${key}Declared`] === declared);
    const right = pages.filter((r) => r[key]).length;
    return pages.length === 0 ? '-' : `${right}/${pages.length} (${((100 * right) / pages.length).toFixed(1)}%)`;
  };
  return {
    half: half === 'A' ? 'A (tuning)' : 'B (held out)',
    'author declared': part('author', true),
    'author not declared': part('author', false),
    'date declared': part('date', true),
    'date not declared': part('date', false),
  };
}

function qualityRow(setId, half, results) {
  const ms = results.reduce((a, r) => a + r.ms, 0);
  return {
    set: setId,
    half: half === 'A' ? 'A (tuning)' : 'B (held out)',
    pages: results.length,
    F1: meanF1(results),
    title: share(results, 'title'),
    author: share(results, 'author'),
    date: share(results, 'date'),
    'no author': share(results, 'noAuthor'),
    'no date': share(results, 'noDate'),
    lang: share(results, 'lang'),
    site: share(results, 'site'),
    'pages/s': ((results.length * 1000) / ms).toFixed(1),
  };
}

/**
 * Pages per second through the crawler's extraction pool (its threads' heap limits included), the
 * way the crawler runs extraction: with one thread and pages sent one after another, and with
 * `threads` threads and every page of a pass sent at once. Warm-up passes, then passes until `minMs`.
 */
async function crawlerPoolRate(sources, threads, minMs) {
  const rate = async (poolThreads, concurrent) => {
    const pool = createExtractPool({ threads: poolThreads });
    try {
      const extract = ({ html, url }) => pool.extract({ html, url, contentLanguage: null });
      const pass = async () => {
        const start = performance.now();
        if (concurrent) await Promise.all(sources.map(extract));
        else for (const source of sources) await extract(source);
        return performance.now() - start;
      };
      // Three warm-up passes: a new thread's code is not yet optimized (the main thread's rows above
      // run after the quality passes).
      for (let i = 0; i < 3; i++) await pass();
      let pages = 0;
      let ms = 0;
      while (ms < minMs) {
        ms += await pass();
        pages += sources.length;
      }
      return (pages * 1000) / ms;
    } finally {
      await pool.close();
    }
  };
  return { single: await rate(1, false), multi: await rate(threads, true) };
}

/**
 * Quality of every set and half, the WCXB F1 per page type and half, and the speed rows.
 * @param {{ sets?: string[], halves?: Array<'A'|'B'>, doms?: Array<'linkedom'|'jsdom'>, minMs?: number,
 *   threads?: number, dump?: string }} [options]
 */
export async function runExtractBench(options = {}) {
  const sets = loadExtractSets(TESTDATA, options.sets);
  if (sets.length === 0) return [];
  const halves = options.halves ?? ['A', 'B'];
  const quality = [];
  const byType = [];
  const structure = [];
  const defects = [];
  const snippets = [];
  const declared = [];
  const dumped = [];
  for (const set of sets) {
    for (const half of halves) {
      const results = scoreSet(set, half, 'linkedom');
      quality.push(qualityRow(set.id, half, results));
      if (set.id === 'wcxb') {
        const row = {
          half: half === 'A' ? 'A (tuning)' : 'B (held out)',
          all: `${meanF1(results)} (${results.length})`,
        };
        for (const type of WCXB_TYPES) {
          const ofType = results.filter((r) => r.type === type);
          row[type] = `${meanF1(ofType)} (${ofType.length})`;
        }
        byType.push(row);
        structure.push(markdownRow(half, results));
        defects.push(defectsRow(half, results));
        snippets.push(snippetsRow(half, results));
        declared.push(declaredRow(half, results));
      }
      if (options.dump) {
        for (const r of results) dumped.push({ set: set.id, ...r });
      }
    }
  }
  if (options.dump) writeFileSync(options.dump, JSON.stringify(dumped, null, 1));
  const tables = [
    {
      title: 'Extraction quality per data set and half (linkedom)',
      rows: quality,
      notes: [
        'halves fixed by the first byte of sha1(page name): even = A (tuning), odd = B (held out)',
        'F1: readability = token F1 vs expected.html; chinese = token F1 (each Han character a token) vs cleaned/; wcxb = word F1 of its evaluate.py',
        "no author / no date: pages whose ground truth has none, where none is given (wcxb and chinese; the readability metadata is Readability's own output, whose null is no ground truth)",
        'title: wcxb the same words (evaluate.py tokenize(): lower-cased \\w+ tokens), readability equal or the expected one plus a " | Site" tail; author: same person; date: readability exact instant, chinese CST wall clock to the ground truth precision, wcxb same day',
      ],
    },
  ];
  if (byType.length > 0) tables.push({ title: 'WCXB dev word F1 per page type and half', rows: byType, notes: [] });
  if (snippets.length > 0) {
    tables.push({
      title: "WCXB dev reference snippets per half (evaluate.py's snippet_check on body_text)",
      rows: snippets,
      notes: [
        "each page's ground truth lists lines that belong to its main text (`with`) and boilerplate lines that do not (`without`); a line is found when body_text holds it, case-insensitive. The rate is evaluate.py's: each page's share, averaged over the pages that list such lines (evaluate.py also counts a page that lists none as 100%)",
      ],
    });
  }
  if (declared.length > 0) {
    tables.push({
      title: 'WCXB dev author and date per half, by what the page declares (Quarry right / pages)',
      rows: declared,
      notes: [
        "declared: the page's JSON-LD (author, datePublished), author and date meta tags or schema.org microdata state the reference's author (the same person, as in the quality table) or day; the rest is found, if at all, from the visible byline and dateline",
        'a half-to-half gap in the not-declared columns, where the shared structured data cannot explain it, is the measure of rules written for the tuning half',
      ],
    });
  }
  if (structure.length > 0) {
    tables.push({
      title: 'WCXB dev markdown structure per half (body_markdown against the reference markdown)',
      rows: structure,
      notes: [
        "F1 over the half's elements of each kind (precision / recall): an element counts when the reference has one of that kind with the same words (lower-cased \\w+), each matched once",
        'pages: those whose ground truth has main_content_markdown. The references are drafted by an LLM and mark structure unevenly (code shown as plain lines on some pages, fenced on others), so these figures compare, they do not grade',
      ],
    });
  }
  if (defects.length > 0) {
    tables.push({
      title: 'WCXB dev markdown defects per half (body_markdown alone, outside code blocks)',
      rows: defects,
      notes: [
        "space inside a link: `[ text](` or `[text ](`; link then a letter: `](url)word` (also the pages' own `<a>word</a>s`); escape opening a link or a heading: `[\\-`, `## 1\\.`, which cannot start a list there; line opening with a space: one space before a line's first word; two spaces between words: outside table rows, where a browser shows one; empty link: `[](url)`, which shows nothing; empty list item: a line that is only a marker (a badge's `1.`, a lone `+`); doubled emphasis: `****hide caption**`, `__it_`, the marks of bold in bold or italics in italics; heading in emphasis: `## **Title**`, marks the heading's own setting makes void; escape inside a line: `DNS\\-related`, `2024\\. Microsoft`, where nothing can start; escaped underscore in a word: `balance\\_transaction`; sub-list short of its item: a list item indented past the item before it but short of that item's content (`1. Step` then `  - detail`), which CommonMark reads as the outer list's; unclosed code block: pages whose last fence is left open; table column without a dash: a delimiter row with a cell of no dash (`| --- |  |`), which GitHub's syntax does not read as a table",
        "marks shown when read back: the markdown read by a GFM parser (marked), the `**`, `](`, `![` and backticks its text shows beyond those of the page's body_text (bold ending in punctuation before a word, a link inside code, a title's unescaped quote)",
      ],
    });
  }
  const speedSources = sets.some((s) => s.id === 'readability') ? readabilitySources(TESTDATA) : [];
  if (speedSources.length > 0 && options.doms?.length !== 0) {
    const doms = options.doms ?? ['linkedom', 'linkedom-nomd', 'jsdom'];
    const minMs = options.minMs ?? 5_000;
    const threads = options.threads ?? availableParallelism();
    const rows = [];
    for (const dom of doms) {
      const single = pagesPerSecond(speedSources, dom, minMs);
      const multi = await runWorkers(dom, threads, minMs);
      rows.push({
        dom,
        pages: speedSources.length,
        'pages/s (1 core)': single.wall.toFixed(1),
        'pages/CPU-s': single.cpu.toFixed(1),
        [`pages/s (${threads} threads)`]: multi.toFixed(1),
      });
    }
    if (doms.includes('linkedom')) {
      const pool = await crawlerPoolRate(speedSources, threads, minMs);
      rows.push({
        dom: "linkedom, the crawler's pool",
        pages: speedSources.length,
        'pages/s (1 core)': pool.single.toFixed(1),
        'pages/CPU-s': '-',
        [`pages/s (${threads} threads)`]: pool.multi.toFixed(1),
      });
    }
    if (doms.includes('linkedom')) tables.push(hostileTable());
    tables.push({
      title: 'Extraction speed (mozilla/readability test pages)',
      rows,
      notes: [
        'target: at least 38 pages/s on one core (linkedom)',
        'linkedom-nomd: the same without the body_markdown conversion (markdown: false)',
        "linkedom, the crawler's pool: through the crawler's extraction pool (apps/crawler extract-pool.ts, with its threads' heap limits): one thread with pages sent one after another, and every core with a pass's pages sent at once",
      ],
    });
  }
  return tables;
}

/** Each generated hostile page extracted once (linkedom, markdown too), in ms: fully and plainly. */
function hostileTable() {
  const timed = (html, plain) => {
    const start = process.hrtime.bigint();
    const got = extractHtml(html, { url: 'https://example.org/page', dom: 'linkedom', plain });
    return { ms: Math.round(Number(process.hrtime.bigint() - start) / 1e6), words: got.word_count };
  };
  const rows = hostilePages().map(([page, html]) => {
    const full = timed(html, false);
    const plain = timed(html, true);
    return { page, KB: Math.round(html.length / 1024), ms: full.ms, words: full.words, 'ms plain': plain.ms };
  });
  return {
    title: 'Extraction of hostile pages (generated; one pass each, linkedom)',
    rows,
    notes: [
      'ms plain: the same page read plainly (plain: true), as the crawler reads a page whose full reading runs past its time or memory',
      'the crawler stops a full reading after 30 s (EXTRACT_TIMEOUT_MS); before 2026-11-30 each of these took minutes or ran out of memory (5,000 nested <div>s 408 s, 7,000 nested <div>s of a few words 38 s, 20,000 unclosed <p><b><i> 194 s, a 120 KB Chinese paragraph 12 s and 480 KB 182 s, 200,000 digits 13 s, 20,000 title parts out of memory, 20,000 &nbsp; 6.9 s, 8,000 empty list items 8.4 s, 10,000 nested tables about 20 s; found later: 20,000 footnote references 157 s, 20,000 headings linking to their contents 37 s, 25,000 MathJax formulas 81 s, 25,000 streamed parts 63 s, 40,000 skip links 38 s, 330,000 inline elements 37 s, 20,000 poster panels 10 s, 20,000 highlighted code lines 7 s, a 3 KB table of spans 22 s and 3.8 MB of markdown, a row of 20,000 cells over 2,000 short rows 9.5 s and 160 MB of markdown, 20,000 paragraphs 250 list items deep 301 s and then a string too long, a table cell of 50,000 lines 45 s, 20,000 links after 20,000 unclosed <b>s 128 s and then a stack overflow; 2026-12-04: 20,000 copyright lines 100 s and 20,000 form labels 20 s, found in the session that wrote those steps, and 5,000 labelled lists of related posts 29 s, a step of the session before)',
    ],
  };
}

/** The `npm run bench -- extract` entry (scripts/bench.js). */
export async function run() {
  const tables = await runExtractBench();
  if (tables.length === 0) {
    return { title: 'Extraction', rows: [], notes: [`skipped: ${TESTDATA} is absent`] };
  }
  return tables;
}

if (!isMainThread) {
  parentPort?.postMessage(pagesPerSecond(readabilitySources(TESTDATA), workerData.dom, workerData.minMs).wall);
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const usage =
    'usage: node bench/extract.mjs [--set readability|chinese|wcxb]... [--half A|B]... [--dom linkedom|jsdom|linkedom-nomd]... [--no-speed] [--dump FILE.json]';
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        set: { type: 'string', multiple: true },
        half: { type: 'string', multiple: true },
        dom: { type: 'string', multiple: true },
        dump: { type: 'string' },
        'no-speed': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`${error.message}\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const allowed = {
    set: ['readability', 'chinese', 'wcxb'],
    half: ['A', 'B'],
    dom: ['linkedom', 'jsdom', 'linkedom-nomd'],
  };
  for (const [option, known] of Object.entries(allowed)) {
    const unknown = (values[option] ?? []).filter((v) => !known.includes(v));
    if (unknown.length > 0) {
      console.error(`unknown --${option} ${unknown.join(', ')} (have: ${known.join(', ')})\n${usage}`);
      process.exit(2);
    }
  }
  const { printResults } = await import('./lib/table.mjs');
  const tables = await runExtractBench({
    sets: values.set,
    halves: values.half,
    doms: values['no-speed'] ? [] : values.dom,
    dump: values.dump,
  });
  printResults(tables);
}
