// Snippet benchmark: do results show why they matched? Imports the WCXB dev pages' main texts (real
// pages of 7 types; about half are longer than the 8,192 characters the embedded index keeps for
// snippets) into a LanceDB index and a blob store, asks every seventh page's title (its first four
// words, `match=any`, as an agent asks) through the real API over loopback, and counts the results
// whose snippet shows a query word (as typed, and in any form of its English stem) and all of them,
// beside the same results' snippets as the index cut them (before the API recuts long pages' from
// their whole text); then quoted phrases from the middle of pages, counting the snippets that show
// the phrase. Prints p50/p90 latency. `npx tsc -b && node bench/snippets.mjs`, or
// `npm run bench -- snippets`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '@quarry/api';
import { FileBlobStore } from '@quarry/blobstore';
import { loadConfig, pageIdForUrl, toIsoUtc } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import { stemToken, tokenize } from '@quarry/text';
import { pino } from 'pino';
import request from 'supertest';
import { loadExtractSets } from './lib/extract-sets.mjs';
import { toIndexQuery } from './search.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const TESTDATA = join(HERE, '../../shared/testdata');
const QUERY_EVERY = 7;
const QUERY_WORDS = 4;

/** The WCXB dev pages' reference texts as pages (the set's loader in lib/extract-sets.mjs). */
function pages() {
  const set = loadExtractSets(TESTDATA, ['wcxb'])[0];
  if (!set) return null;
  return set.pages
    .filter((page) => (page.truth.main_content ?? '').trim() !== '' && page.url)
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((page) => {
      const body = page.truth.main_content;
      return {
        id: pageIdForUrl(page.url),
        url: page.url,
        title: page.truth.title || page.url,
        body_text: body,
        lang: 'en',
        author: null,
        published_at: null,
        crawled_at: toIsoUtc(new Date()),
        site_name: null,
        has_llms_txt: false,
        filetype: 'html',
        domain: new URL(page.url).hostname,
        word_count: body.split(/\s+/).length,
      };
    });
}

/** How many of the query's words (stop words kept: every word a person typed) a snippet shows. */
function shown(snippet, words) {
  const tokens = tokenize(snippet);
  const exact = new Set(tokens);
  const stems = new Set(tokens.map(stemToken));
  return {
    typed: words.filter((word) => exact.has(word)).length,
    forms: words.filter((word) => stems.has(stemToken(word))).length,
  };
}

function tally() {
  return { results: 0, typedSome: 0, formsSome: 0, formsAll: 0 };
}

function count(into, snippet, words) {
  const { typed, forms } = shown(snippet, words);
  into.results++;
  if (typed > 0) into.typedSome++;
  if (forms > 0) into.formsSome++;
  if (forms === words.length) into.formsAll++;
}

const share = (n, of) => (of === 0 ? '-' : `${((100 * n) / of).toFixed(1)}%`);

export async function run() {
  const docs = pages();
  if (docs === null) return { title: 'Snippets', rows: [], notes: [`skipped: ${TESTDATA}/wcxb-dev is absent`] };
  const work = mkdtempSync(join(tmpdir(), 'quarry-snippets-'));
  const index = await LanceSearchIndex.open({ path: join(work, 'index') });
  try {
    const blobs = new FileBlobStore({ dir: join(work, 'blobs') });
    await blobs.putMany(docs);
    await index.upsert(docs);
    await index.flush();
    const config = loadConfig({}, { QUARRY_RATE_LIMIT_PUBLIC: '1000000' });
    const app = createApp({ config, index, blobs, logger: pino({ level: 'silent' }) });
    const long = docs.filter((doc) => doc.body_text.length > 8192).length;
    const queries = docs
      .filter((_, i) => i % QUERY_EVERY === 0)
      .map((doc) => doc.title.split(/\s+/).slice(0, QUERY_WORDS).join(' '))
      .filter((q) => tokenize(q).length > 0);
    const [fromIndex, fromApi] = [tally(), tally()];
    const times = [];
    let failed = 0;
    for (const q of queries) {
      const words = [...new Set(tokenize(q))];
      const started = performance.now();
      const res = await request(app).get('/api/v1/search').query({ q, match: 'any' });
      times.push(performance.now() - started);
      if (res.status !== 200) {
        failed++;
        continue;
      }
      for (const result of res.body.results) count(fromApi, result.snippet, words);
      const direct = await index.search(toIndexQuery({ q, match: 'any' }));
      for (const hit of direct.hits) count(fromIndex, hit.snippet, words);
    }
    // Phrases: three words in a row from the middle of every seventh page, quoted (match=all).
    const phrases = docs
      .filter((_, i) => i % QUERY_EVERY === 3)
      .map((doc) => {
        // The first three plain words in a row from the page's middle on.
        const words = doc.body_text.split(/\s+/);
        for (let at = Math.floor(words.length / 2); at + 3 <= words.length; at++) {
          const run = words.slice(at, at + 3);
          if (run.every((word) => /^[A-Za-z]{3,}$/.test(word))) return run.join(' ');
        }
        return null;
      })
      .filter((phrase) => phrase !== null);
    let phraseResults = 0;
    let phraseShown = 0;
    for (const phrase of phrases) {
      const res = await request(app)
        .get('/api/v1/search')
        .query({ q: `"${phrase}"` });
      if (res.status !== 200) continue;
      const wanted = tokenize(phrase).join(' ');
      for (const result of res.body.results) {
        phraseResults++;
        if (` ${tokenize(result.snippet).join(' ')} `.includes(` ${wanted} `)) phraseShown++;
      }
    }
    times.sort((a, b) => a - b);
    const row = (label, t) => ({
      snippets: label,
      results: t.results,
      'a word as typed': share(t.typedSome, t.results),
      'a word, any form': share(t.formsSome, t.results),
      'every word, any form': share(t.formsAll, t.results),
    });
    return {
      title: 'Snippets: do results show the query?',
      rows: [row('as the index cut them', fromIndex), row('as the API returns them', fromApi)],
      notes: [
        `${docs.length} WCXB dev pages (${long} longer than the 8,192 characters the index keeps for snippets); ${queries.length} queries: a page title's first ${QUERY_WORDS} words, match=any, top 10`,
        `over HTTP: p50 ${times[times.length >> 1].toFixed(1)} ms, p90 ${times[Math.floor(times.length * 0.9)].toFixed(1)} ms${failed ? `; ${failed} requests failed` : ''}`,
        `quoted phrases (three words in a row from the middle of ${phrases.length} pages): the phrase shown in ${share(phraseShown, phraseResults)} of ${phraseResults} results' snippets`,
      ],
    };
  } finally {
    await index.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printResults } = await import('./lib/table.mjs');
  printResults(await run());
}
