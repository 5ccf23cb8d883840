import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

/** Letters with a stroke and ligatures, which no Unicode decomposition takes apart (see foldText). */
describe('LanceSearchIndex: letters folded as search engines fold them', () => {
  let dir: string;
  let index: LanceSearchIndex;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-letters-'));
    index = await LanceSearchIndex.open({ path: join(dir, 'index') });
    await index.upsert([
      makePage('de', 'https://de.example.de/a', 'Wohnen', 'Die Wohnung liegt in der Hauptstraße nahe dem Bahnhof.', {
        lang: 'de',
      }),
      makePage('pl', 'https://pl.example.pl/b', 'Podróże', 'Pociąg z Łodzi do Łódź Kaliska odjeżdża rano.', {
        lang: 'pl',
      }),
      makePage('da', 'https://da.example.dk/c', 'Øresund Bridge', 'The Øresund bridge joins Denmark and Sweden.'),
      makePage('en', 'https://en.example.com/d', 'Other', 'Nothing of the kind is said on this page at all.'),
    ]);
  });

  afterAll(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = async (q: string) =>
    (await index.search({ query: parseQuery(q), limit: 10, offset: 0 })).hits.map((hit) => hit.id);

  it('finds each page typed with the base letters, and as written', async () => {
    expect(await ids('hauptstrasse')).toEqual(['de']);
    expect(await ids('Hauptstraße')).toEqual(['de']);
    expect(await ids('HAUPTSTRASSE')).toEqual(['de']);
    expect(await ids('lodz')).toEqual(['pl']);
    expect(await ids('Łódź')).toEqual(['pl']);
    expect(await ids('oresund')).toEqual(['da']);
    expect(await ids('intitle:oresund')).toEqual(['da']);
    expect(await ids('"oresund bridge"')).toEqual(['da']);
  });

  it("shows the word in a snippet when the folding keeps its length (ø, ł), and the page's opening otherwise", async () => {
    const [oresund] = (await index.search({ query: parseQuery('oresund'), limit: 1, offset: 0 })).hits;
    expect(oresund?.snippet).toContain('Øresund');
    const [strasse] = (await index.search({ query: parseQuery('hauptstrasse'), limit: 1, offset: 0 })).hits;
    expect(strasse?.snippet).toContain('Hauptstraße');
  });
});
