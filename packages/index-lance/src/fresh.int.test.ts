import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IndexQuery } from '@quarry/core';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

const FILLER = 'Notes on trains, gardens, music and the weather of the coast. ';

describe('pages not folded yet are searched in the fresh tier, on the scale of folded ones', () => {
  let dir: string;
  let index: LanceSearchIndex;
  let flat: LanceSearchIndex;
  const search = (ix: LanceSearchIndex, q: string, extra: Partial<IndexQuery> = {}) =>
    ix.search({ query: parseQuery(q), limit: 10, offset: 0, ...extra });
  const ids = async (q: string, extra: Partial<IndexQuery> = {}) =>
    (await search(index, q, extra)).hits.map((h) => h.id);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-fresh-'));
    index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    const folded = Array.from({ length: 400 }, (_, i) =>
      makePage(
        `old-${i}`,
        `https://old.example.org/${i}`,
        `Old note ${i}`,
        `${FILLER.repeat(6)} A zebra once. ${FILLER.repeat(6)}`,
      ),
    );
    folded.push(
      makePage('old-best', 'https://old.example.org/best', 'Ospreys', 'Ospreys dive for fish; an osprey nest.'),
    );
    await index.upsert(folded);
    await index.flush();
    const fresh = Array.from({ length: 120 }, (_, i) =>
      makePage(
        `new-${i}`,
        `https://new.example.net/${i}`,
        `New note ${i}`,
        `${FILLER.repeat(5)} An osprey flew by. ${FILLER.repeat(5)}`,
        {
          lang: i % 4 === 0 ? 'de' : 'en',
        },
      ),
    );
    fresh.push(makePage('new-best', 'https://new.example.net/best', 'Zebras', 'Zebra herds: a zebra, another zebra.'));
    await index.upsert(fresh);
    // The same page written again while unfolded: found once, as its last version.
    await index.upsert([makePage('new-1', 'https://new.example.net/1', 'New note 1', 'Rewritten: a quagga.')]);
    flat = await LanceSearchIndex.open({ path: dir, autoMaintain: false, fastPlan: false });
  }, 120_000);
  afterAll(async () => {
    await index.close();
    await flat.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ranks the best page first whether it is folded or not', async () => {
    expect((await ids('zebra'))[0]).toBe('new-best');
    expect((await ids('osprey'))[0]).toBe('old-best');
    expect((await ids('ospreys zebra', { match: 'any' }))[0]).toBe('old-best');
    // Scores of both kinds are BM25 on one scale: an unfolded page saying "osprey" once in a long
    // text scores below the short folded page about ospreys, above the folded pages saying "zebra" once.
    const mixed = await search(index, 'osprey OR zebra', { limit: 100 });
    const score = (id: string) => mixed.hits.find((hit) => hit.id === id)?.score ?? 0;
    expect(score('new-5')).toBeLessThan(score('old-best'));
    expect(score('new-5')).toBeGreaterThan(0);
    expect(mixed.hits.filter((hit) => /^old-\d/.test(hit.id))).toEqual([]);
  });

  it('counts folded and unfolded matches exactly, as the engine does', async () => {
    for (const q of [
      'zebra',
      'osprey',
      'quagga',
      'zebra OR quagga',
      'osprey -flew',
      '"osprey flew"',
      '"flew osprey"',
      '"osprey flew" weather',
      'ospreys "osprey nest"',
    ]) {
      const [a, b] = await Promise.all([search(index, q), search(flat, q)]);
      expect([q, a.total, a.totalIsEstimate]).toEqual([q, b.total, b.totalIsEstimate]);
    }
    expect((await search(index, 'osprey')).total).toBe(1 + 119);
    expect(await ids('quagga')).toEqual(['new-1']);
    expect((await search(index, '"an osprey flew"')).total).toBe(119);
    expect(await ids('"osprey nest"')).toEqual(['old-best']);
    expect(await ids('"flew osprey"')).toEqual([]);
    // A phrase beside a word, on unfolded pages (the fresh tier) and folded ones.
    expect((await search(index, '"osprey flew" weather')).total).toBe(119);
    expect((await search(index, '"flew osprey" weather')).total).toBe(0);
    expect(await ids('fish "osprey nest"')).toEqual(['old-best']);
  });

  it('applies filters, exclusions, intitle: and lang_priority to unfolded pages', async () => {
    const german = await search(index, 'osprey', { lang: 'de', limit: 100 });
    expect(german.total).toBe(30);
    expect(german.hits.every((hit) => hit.lang === 'de')).toBe(true);
    expect(await ids('osprey -flew')).toEqual(['old-best']);
    expect(await ids('intitle:zebras')).toEqual(['new-best']);
    const preferred = await search(index, 'osprey -ospreys', { langPriority: 'de', limit: 40 });
    expect(preferred.hits.slice(0, 30).every((hit) => hit.lang === 'de')).toBe(true);
  });

  it('pages consistently across folded and unfolded pages', async () => {
    const all = (await search(index, 'osprey', { limit: 100 })).hits.map((h) => h.id);
    const paged: string[] = [];
    for (let offset = 0; offset < all.length; offset += 25) {
      paged.push(...(await search(index, 'osprey', { limit: 25, offset })).hits.map((h) => h.id));
    }
    expect(paged).toEqual(all);
    expect(new Set(all).size).toBe(all.length);
  });

  it('finds every page once across a fold, before and after', async () => {
    const kiwi = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) =>
        makePage(
          `kiwi-${from + i}`,
          `https://kiwi.example.org/${from + i}`,
          `Kiwi ${from + i}`,
          `A kiwi, number ${from + i}.`,
        ),
      );
    await index.upsert(kiwi(0, 10));
    expect((await search(index, 'kiwi', { limit: 100 })).total).toBe(10);
    await index.flush();
    await index.upsert(kiwi(10, 5));
    const after = await search(index, 'kiwi', { limit: 100 });
    expect(after.total).toBe(15);
    expect(new Set(after.hits.map((hit) => hit.id)).size).toBe(15);
  });

  it('finds a page as soon as its write resolved, while other searches go on', async () => {
    // This index has searched: each write resolves once its fresh tier holds the pages, and the
    // searches running meanwhile answer from the tier before the write.
    for (let i = 0; i < 6; i++) {
      const word = `wombat${i}`;
      const busy = Promise.all([ids('osprey'), ids('zebra'), ids('osprey -ospreys')]);
      await index.upsert([makePage(`w-${i}`, `https://w.example.net/${i}`, `Wombat ${i}`, `A ${word} dug a burrow.`)]);
      expect(await ids(word)).toEqual([`w-${i}`]);
      for (const found of await busy) expect(found.length).toBeGreaterThan(0);
    }
  });
});

describe('an unfolded page scores as it will once folded, in a small index', () => {
  let dir: string;
  let index: LanceSearchIndex;
  const scoreOf = async (q: string, id: string) =>
    (await index.search({ query: parseQuery(q), limit: 100, offset: 0 })).hits.find((hit) => hit.id === id)?.score;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-fresh-small-'));
    index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    // A word on one page in ten: too few for the 1/64 sample to estimate at this size.
    const folded = Array.from({ length: 300 }, (_, i) =>
      makePage(
        `p-${i}`,
        `https://small.example.org/${i}`,
        i % 10 === 0 ? `Heron count ${i}` : `Note ${i}`,
        `${FILLER.repeat(3)}${i % 10 === 0 ? ' A grey heron stood in the reeds.' : ''} ${FILLER.repeat(3)}`,
      ),
    );
    await index.upsert(folded);
    await index.flush();
    await index.upsert([
      makePage('fresh', 'https://small.example.net/fresh', 'Heron watch', `${FILLER} Herons: one heron, then another.`),
    ]);
  }, 120_000);
  afterAll(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the page the same score before and after the fold, in the text and in titles', async () => {
    const before = [await scoreOf('heron', 'fresh'), await scoreOf('intitle:heron', 'fresh')];
    await index.flush();
    const after = [await scoreOf('heron', 'fresh'), await scoreOf('intitle:heron', 'fresh')];
    for (const [i, score] of after.entries()) {
      expect(score).toBeGreaterThan(0);
      expect(before[i]! / score!).toBeCloseTo(1, 2);
    }
  });
});
