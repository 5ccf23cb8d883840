#!/usr/bin/env node
// `npm run bench [-- part...]`: runs Quarry's benchmarks and prints a table per part.
// Parts: search (index import + in-process latency + while writing + HTTP), relevance (nDCG@10 through
// the API vs exhaustive BM25), known-item (a crawled page asked words of its own text), extract,
// snippets (do results show the query), crawl, queue, hosts (the admin hosts view's query on a
// 200,000-URL embedded queue), soak (`quarry start` crawling for BENCH_SOAK_SECS, default 180,
// sampled every 30 s). Default: all.
// Each part lives in bench/<part>.mjs and exports `run(options)` resolving to { title, rows, notes } or an array of them.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printResults } from '../bench/lib/table.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ALL = ['search', 'relevance', 'known-item', 'extract', 'snippets', 'crawl', 'queue', 'hosts', 'soak'];
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const parts = wanted.length > 0 ? wanted : ALL;

let failed = false;
for (const part of parts) {
  const file = join(root, 'bench', `${part}.mjs`);
  if (!existsSync(file)) {
    console.error(`unknown benchmark part "${part}" (have: ${ALL.join(', ')})`);
    failed = true;
    continue;
  }
  const started = Date.now();
  try {
    const mod = await import(file);
    const results = await mod.run({ root });
    printResults(results);
    console.log(`\n(${part}: ${((Date.now() - started) / 1000).toFixed(0)} s)`);
  } catch (error) {
    failed = true;
    console.error(`benchmark ${part} failed:`, error);
  }
}
process.exitCode = failed ? 1 : 0;
