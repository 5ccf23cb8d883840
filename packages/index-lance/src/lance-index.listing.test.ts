import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IndexQuery, PageDocument } from '@quarry/core';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

/** More pages than the general plan counts (1,000), so no cap can pass for the whole listing. */
const PAGES = 1500;
const WRITES = 3;
const SITE = 'many.example.com';
const START_MS = Date.parse('2026-03-01T00:00:00Z');

interface Listed {
  readonly id: string;
  readonly crawledMs: number;
  readonly lang: string;
  /** English pages say `drafting` (stemmed to `draft`), the others `draft` as typed. */
  readonly holdsDraft: boolean;
  readonly draftTitle: boolean;
}

/** Page `i` is crawled `i` minutes after the start: pages written later are newer. */
function listed(i: number): Listed {
  const n = String(i).padStart(4, '0');
  return {
    id: `p${n}`,
    crawledMs: START_MS + i * 60_000,
    lang: i % 10 === 0 ? 'de' : 'en',
    holdsDraft: i % 3 === 0,
    draftTitle: i % 7 === 0,
  };
}

function page(entry: Listed): PageDocument {
  const body =
    entry.lang === 'en'
      ? `Notes on ${entry.holdsDraft ? 'drafting' : 'shaping'} the plan.`
      : `Notizen ${entry.holdsDraft ? 'draft' : 'entwurf'} Plan.`;
  return makePage(
    entry.id,
    `https://${SITE}/p/${entry.id}`,
    `${entry.draftTitle ? 'Draft release' : 'Release'} ${entry.id}`,
    body,
    { lang: entry.lang, crawled_at: new Date(entry.crawledMs).toISOString().replace('.000Z', 'Z') },
  );
}

describe('a filter with exclusions only, over more pages than the general plan counts', () => {
  const entries = Array.from({ length: PAGES }, (_, i) => listed(i));
  const newestFirst = [...entries].sort((a, b) => b.crawledMs - a.crawledMs);
  let dir: string;
  let index: LanceSearchIndex;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-listing-'));
    index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    // Oldest first, so the index's own order is the reverse of the listing's; the newest write is
    // left unfolded (pages found by the engine's flat scan, phrases checked here).
    const per = PAGES / WRITES;
    for (let w = 0; w < WRITES; w++) {
      await index.upsert(entries.slice(w * per, (w + 1) * per).map(page));
      if (w < WRITES - 1) await index.flush();
    }
  }, 120_000);
  afterAll(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const search = (q: string, offset: number, limit: number, extra: Partial<IndexQuery> = {}) =>
    index.search({ query: parseQuery(q), offset, limit, ...extra });
  const ids = (list: readonly Listed[]) => list.map((entry) => entry.id);

  it.each([
    // The search column holds the title too, as a word is searched.
    ['-draft', (e: Listed) => !e.holdsDraft && !e.draftTitle],
    ['-intitle:draft', (e: Listed) => !e.draftTitle],
    ['-"on drafting"', (e: Listed) => !(e.holdsDraft && e.lang === 'en')],
    ['-shaping -intitle:draft', (e: Listed) => (e.holdsDraft || e.lang !== 'en') && !e.draftTitle],
  ] as const)('lists every page without the excluded words newest first, its total exact (%s)', async (q, kept) => {
    const expected = ids(newestFirst.filter(kept));
    const first = await search(`site:${SITE} ${q}`, 0, 100);
    expect(first.totalIsEstimate).toBe(false);
    expect(first.total).toBe(expected.length);
    expect(first.hits.map((hit) => hit.id)).toEqual(expected.slice(0, 100));
    const deepest = await search(`site:${SITE} ${q}`, 990, 100);
    expect(deepest.total).toBe(expected.length);
    expect(deepest.hits.map((hit) => hit.id)).toEqual(expected.slice(990, 1090));
  });

  it('pages through the listing consistently across every cut', async () => {
    const expected = ids(newestFirst.filter((e) => !e.holdsDraft && !e.draftTitle));
    const at = async (offset: number, limit: number) =>
      (await search(`site:${SITE} -draft`, offset, limit)).hits.map((h) => h.id);
    const byHundred = await at(700, 100);
    const bySeven: string[] = [];
    for (let offset = 700; offset < 800; offset += 7) bySeven.push(...(await at(offset, 7)));
    expect(byHundred).toHaveLength(100);
    expect(byHundred).toEqual(expected.slice(700, 800));
    expect(bySeven.slice(0, 100)).toEqual(byHundred);
    // Past the last page: nothing, and the same total.
    expect(await at(expected.length, 10)).toEqual([]);
  });

  it('lists pages in the lang_priority language first, each group newest first', async () => {
    const kept = newestFirst.filter((e) => !e.holdsDraft && !e.draftTitle);
    const expected = ids([...kept.filter((e) => e.lang === 'de'), ...kept.filter((e) => e.lang !== 'de')]);
    const priority = { langPriority: 'de' };
    const whole: string[] = [];
    for (let offset = 0; offset < 300; offset += 30) {
      const result = await search(`site:${SITE} -draft`, offset, 30, priority);
      expect(result.total).toBe(expected.length);
      whole.push(...result.hits.map((hit) => hit.id));
    }
    expect(whole).toEqual(expected.slice(0, 300));
  });

  it('scores a listing by rank, below 1 and never a whole number (JSON would write it as an integer)', async () => {
    const first = await search(`site:${SITE}`, 0, 3);
    expect(first.hits.map((hit) => hit.score)).toEqual([1 / 2, 1 / 3, 1 / 4]);
    expect(first.hits.every((hit) => !Number.isInteger(hit.score))).toBe(true);
  });

  it('lists a filter alone the same way, newest first to the deepest page', async () => {
    const result = await search(`site:${SITE}`, 990, 100);
    expect(result.total).toBe(PAGES);
    expect(result.hits.map((hit) => hit.id)).toEqual(ids(newestFirst).slice(990, 1090));
  });
});
