import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

const NEWER = 3000;

describe('ranking considers every match, whatever its age', () => {
  let dir: string;
  let index: LanceSearchIndex;
  const ids = async (q: string, match: 'all' | 'any' = 'all') =>
    (await index.search({ query: parseQuery(q), match, limit: 10, offset: 0 })).hits.map((h) => h.id);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-rank-'));
    index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    // The best page for "glacier" is the oldest in the index, crawled and written first...
    await index.upsert([
      makePage(
        'best',
        'https://old.example.org/glaciers',
        'Glaciers of the Alps',
        'Glacier retreat: how a glacier melts, measured glacier by glacier.',
        {
          crawled_at: '2020-01-01T00:00:00Z',
        },
      ),
    ]);
    await index.flush();
    // ...then thousands of newer pages mention it once in a long text.
    const filler = 'Notes on many other subjects, from trains to gardens and music. '.repeat(8);
    const newer = Array.from({ length: NEWER }, (_, i) =>
      makePage(
        `newer-${i}`,
        `https://news.example.net/${i}`,
        `Story ${i}`,
        `${filler} A glacier was mentioned. ${filler}`,
        {
          crawled_at: '2026-11-01T00:00:00Z',
        },
      ),
    );
    for (let i = 0; i < newer.length; i += 1000) await index.upsert(newer.slice(i, i + 1000));
  }, 120_000);
  afterAll(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ranks the oldest page first when it is the best match, folded or not', async () => {
    expect((await ids('glacier'))[0]).toBe('best');
    expect((await ids('glaciers melting', 'any'))[0]).toBe('best');
    await index.flush();
    expect((await ids('glacier'))[0]).toBe('best');
  });

  it('counts matches exactly up to its bound and estimates past it from a fixed sample', async () => {
    const result = await index.search({ query: parseQuery('glacier'), limit: 10, offset: 0 });
    expect(result.totalIsEstimate).toBe(true);
    expect(result.total).toBeGreaterThan(NEWER * 0.7);
    expect(result.total).toBeLessThan(NEWER * 1.3);
    const exact = await LanceSearchIndex.open({ path: dir, autoMaintain: false, maxCountedMatches: 5000 });
    try {
      const counted = await exact.search({ query: parseQuery('glacier'), limit: 10, offset: 0 });
      expect(counted).toMatchObject({ total: NEWER + 1, totalIsEstimate: false });
    } finally {
      await exact.close();
    }
  });

  it('ranks a page with a low quality prior below an otherwise equal one', async () => {
    const text = 'Kestrels hover over the meadow before they dive.';
    await index.upsert([
      makePage('list', 'https://birds.example.org/a', 'Kestrels', text, { quality: 0.3 }),
      makePage('article', 'https://birds.example.org/b', 'Kestrels', text),
    ]);
    expect(await ids('kestrels')).toEqual(['article', 'list']);
    await index.flush();
    expect(await ids('kestrels')).toEqual(['article', 'list']);
  });

  it('weighs a word a question says twice twice (query term frequency), folded or not', async () => {
    await index.upsert([
      makePage(
        'otters',
        'https://river.example.org/o',
        'River notes',
        'Otters, otters and otters fish here; a heron watched.',
      ),
      makePage(
        'herons',
        'https://river.example.org/h',
        'River notes',
        'Herons, herons and herons fish here; an otter watched.',
      ),
    ]);
    for (let round = 0; round < 2; round++) {
      expect((await ids('otter heron heron', 'any')).slice(0, 2)).toEqual(['herons', 'otters']);
      expect((await ids('otter otter heron', 'any')).slice(0, 2)).toEqual(['otters', 'herons']);
      expect((await ids('heron OR otter OR heron')).slice(0, 2)).toEqual(['herons', 'otters']);
      expect((await ids('otter OR heron OR otter')).slice(0, 2)).toEqual(['otters', 'herons']);
      await index.flush();
    }
  });

  it('answers a question in plain language with match=any, stemmed, where match=all finds nothing', async () => {
    expect(await ids('how do glaciers melt in summer')).toEqual([]);
    expect((await ids('how do glaciers melt in summer', 'any'))[0]).toBe('best');
  });

  it('reads a match=any question word of several tokens as its words: `alps-glaciers` finds the glaciers of the Alps', async () => {
    // No page writes "alps glaciers" in a row: as a phrase, the word found nothing of the question.
    expect(await ids('alps-glaciers')).toEqual([]);
    expect((await ids('alps-glaciers', 'any'))[0]).toBe('best');
    expect((await ids('how big are alps-glaciers', 'any'))[0]).toBe('best');
  });

  it('finds nothing for a match=any question whose only matches are stop words', async () => {
    // Every page holds "on", "from", "to" and "was"; none a zeppelin.
    const question = 'what was on the zeppelin, from and to it?';
    expect(await ids(question, 'any')).toEqual([]);
    expect((await index.search({ query: parseQuery(question), match: 'any', limit: 10, offset: 0 })).total).toBe(0);
    // The general plan (an excluded phrase) keeps the rule; a question of stop words only is its words.
    expect(await ids(`${question} -"music hall"`, 'any')).toEqual([]);
    expect((await ids('other subjects from trains', 'any')).length).toBe(10);
    expect((await ids('on from', 'any')).length).toBe(10);
  });

  it('matches either side of an OR, a stop word too, in either plan', async () => {
    // The spec's `A OR B` matches either: every page holds "was", none a zeppelin.
    const all = (await index.search({ query: parseQuery('was'), limit: 1, offset: 0 })).total;
    for (const q of ['was OR zeppelin', 'what OR was OR on OR zeppelin', 'was OR zeppelin -"music hall"']) {
      const found = await index.search({ query: parseQuery(q), limit: 10, offset: 0 });
      expect(found.hits).toHaveLength(10);
      expect(found.total).toBeGreaterThanOrEqual(q.includes('music') ? 1 : all);
    }
    // A word's stop-word parts are not alternatives of their own: `back-to-back` is `back` twice.
    expect(await ids('back-to-back OR zeppelin')).toEqual([]);
  });
});
