import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseQuery } from '@quarry/query';
import { Converter } from 'opencc-js';
import type { LanceSearchIndex } from './lance-index.js';
import { CHINESE_CLEANED, chinesePages, halfFoldedIndex, hanRun } from './testing/chinese-pages.js';

const present = existsSync(CHINESE_CLEANED);
if (!present) console.warn(`traditional Chinese search: ${CHINESE_CLEANED} is absent, skipping`);

/**
 * Taiwan's characters (OpenCC, phrase tables first, so `发展` becomes `發展` and `头发` `頭髮`), without
 * its vocabulary (`twp` also turns `软件` into `軟體`, another word, which no folding of characters
 * can match).
 */
const toTaiwan = Converter({ from: 'cn', to: 'tw' });

(present ? describe : describe.skip)('traditional and simplified Chinese find each other', () => {
  let opened: Awaited<ReturnType<typeof halfFoldedIndex>>;
  let index: LanceSearchIndex;
  // The shared pages (simplified), every other one written in traditional characters.
  const pages = (present ? chinesePages() : []).map((page, i) => ({
    id: page.id,
    simplified: page.text,
    traditional: i % 2 === 1,
    text: i % 2 === 1 ? toTaiwan(page.text) : page.text,
  }));

  beforeAll(async () => {
    opened = await halfFoldedIndex(pages);
    index = opened.index;
  });
  afterAll(async () => {
    await opened.close();
  });

  it('finds each page by a run of its text typed in either script, quoted or not', async () => {
    let converted = 0;
    for (const page of pages) {
      const run = hanRun(page.simplified, 6);
      if (!run) continue;
      const traditional = toTaiwan(run);
      if (traditional !== run) converted++;
      for (const q of [run, traditional, `"${run}"`, `"${traditional}"`]) {
        const { hits } = await index.search({ query: parseQuery(q), limit: 100, offset: 0 });
        expect([page.id, q, hits.some((hit) => hit.id === page.id)]).toEqual([page.id, q, true]);
      }
    }
    expect(converted).toBeGreaterThan(10);
  });

  it('shows the query in the snippet of a page in the other script', async () => {
    let shown = 0;
    for (const page of pages.filter((p) => p.traditional)) {
      const run = hanRun(page.simplified, 4);
      if (!run || toTaiwan(run) === run) continue;
      const { hits } = await index.search({ query: parseQuery(`"${run}"`), limit: 100, offset: 0 });
      const hit = hits.find((h) => h.id === page.id);
      expect(hit).toBeDefined();
      if (hit?.snippet.includes(toTaiwan(run))) shown++;
    }
    expect(shown).toBeGreaterThan(5);
  });
});
