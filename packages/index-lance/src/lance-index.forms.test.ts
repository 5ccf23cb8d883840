import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { PageDocument } from '@quarry/core';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

// Two pages alike but for the form of one word; each query's exact form is on the page written
// LAST, so that without word forms the tie (equal BM25) would put the other page first.
const filler = 'Notes on shoes, trails and weather for every season of the year.';
const pages = (): PageDocument[] => [
  makePage('runs', 'https://a.example.org/runs', 'Trail notes', `${filler} She runs the trail daily. ${filler}`),
  makePage('running', 'https://b.example.org/running', 'Trail notes', `${filler} She is running the trail. ${filler}`),
  makePage('jumped', 'https://c.example.org/jumped', 'Yard notes', `${filler} The dog jumped the fence. ${filler}`),
  makePage('jumps', 'https://d.example.org/jumps', 'Yard notes', `${filler} The dog jumps the fence. ${filler}`),
];

describe('exact word forms rank above other forms of the stem', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const cases: [string, { fastPlan: boolean; fold: boolean }][] = [
    ['fast plan, folded pages', { fastPlan: true, fold: true }],
    ['fast plan, pages in the fresh tier', { fastPlan: true, fold: false }],
    ['general plan', { fastPlan: false, fold: true }],
  ];
  it.each(cases)('%s', async (_name, { fastPlan, fold }) => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-forms-'));
    const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false, fastPlan });
    try {
      await index.upsert(pages());
      if (fold) await index.flush();
      const ids = async (q: string, match: 'all' | 'any' = 'all') =>
        (await index.search({ query: parseQuery(q), match, limit: 10, offset: 0 })).hits.map((hit) => hit.id);
      // Both pages match (one stem), the exact form first.
      expect(await ids('running trail')).toEqual(['running', 'runs']);
      expect(await ids('jumped fence')).toEqual(['jumped', 'jumps']);
      expect(await ids('"dog jumps"')).toEqual(['jumps', 'jumped']);
      expect(await ids('intitle:yard "dog jumps" fence', 'any')).toEqual(['jumps', 'jumped']);
      // The other way round, which the row order alone would not give.
      expect((await ids('runs trail'))[0]).toBe('runs');
      expect((await ids('jumps fence'))[0]).toBe('jumps');
      // Words both pages hold exactly leave them tied, in row order; so do optional words (OR,
      // `match=any`), whose forms are left to BM25.
      expect(await ids('dog fence')).toEqual(['jumped', 'jumps']);
      expect(await ids('dog jumps', 'any')).toEqual(['jumped', 'jumps']);
      expect(await ids('jumps OR fence')).toEqual(['jumped', 'jumps']);
    } finally {
      await index.close();
    }
  });
});
