import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

/**
 * A phrase beside other words, and an excluded word, are checked in each candidate's stored analysed
 * text (its UTF-8 bytes, undecoded): wherever the run stands in it (first, last, after letters of
 * several bytes), and never across a word's boundary or out of order.
 */
describe('runs of tokens found in the stored text', () => {
  let dir: string;
  let index: LanceSearchIndex;
  const pages = [
    // The analysed text is the title (repeated), then the body: without a title, the run opens it.
    makePage('first', 'https://a.example.org/1', '', 'Boundary layer: measured heat in a wind tunnel.'),
    // The run closes it.
    makePage('last', 'https://a.example.org/2', 'Wind tunnel', 'Heat moves through the boundary layer'),
    // Letters of two and three bytes before the run, and no space after its last token but the end.
    makePage('wide', 'https://a.example.org/3', 'Über Straße', 'Été, Zürich 東京: heat and the boundary layer'),
    makePage('middle', 'https://a.example.org/4', 'Notes', 'Heat and a boundary layer of air over the wing.'),
    // The tokens, but not in a row, out of order, or inside longer tokens.
    makePage('apart', 'https://a.example.org/5', 'Notes', 'The layer at the boundary holds heat.'),
    makePage('reversed', 'https://a.example.org/6', 'Notes', 'Heat: the layer, then the boundary.'),
    makePage('longer', 'https://a.example.org/7', 'Notes', 'Heat in the boundarylayer and its sublayers.'),
  ];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-runs-'));
    index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    await index.upsert(pages);
    await index.flush();
  }, 60_000);
  afterAll(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = async (q: string, limit: number) =>
    (await index.search({ query: parseQuery(q), limit, offset: 0 })).hits.map((hit) => hit.id).sort();

  // A small page reads the candidates' text along with them; a large one reads it by row id.
  it.each([10, 500])('finds a phrase beside a word wherever it stands (page of %i)', async (limit) => {
    expect(await ids('"boundary layer" heat', limit)).toEqual(['first', 'last', 'middle', 'wide']);
    expect(await ids('heat "wind tunnel"', limit)).toEqual(['first', 'last']);
  });

  it.each([10, 500])('excludes a word wherever it stands (page of %i)', async (limit) => {
    // `measured` opens the body of one page only; `wing` ends a sentence on another.
    expect(await ids('heat -measured -wing', limit)).toEqual(['apart', 'last', 'longer', 'reversed', 'wide']);
    // `boundary` opens the analysed text of a page without a title.
    expect(await ids('heat -boundary', limit)).toEqual(['longer']);
    expect(await ids('heat -zürich', limit)).toEqual(['apart', 'first', 'last', 'longer', 'middle', 'reversed']);
  });
});
