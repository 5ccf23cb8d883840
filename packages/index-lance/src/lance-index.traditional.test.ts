import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { Converter } from 'opencc-js';
import { LanceSearchIndex } from './lance-index.js';

const CLEANED = new URL('../../../../shared/testdata/chinese-pages/cleaned', import.meta.url).pathname;
const present = existsSync(CLEANED);
if (!present) console.warn(`traditional Chinese search: ${CLEANED} is absent, skipping`);

/**
 * Taiwan's characters (OpenCC, phrase tables first, so `发展` becomes `發展` and `头发` `頭髮`), without
 * its vocabulary (`twp` also turns `软件` into `軟體`, another word, which no folding of characters
 * can match).
 */
const toTaiwan = Converter({ from: 'cn', to: 'tw' });

/** A run of `length` Han characters from the middle of a text. */
function hanRun(text: string, length: number): string | null {
  const runs = text.match(/\p{Script=Han}{8,}/gu) ?? [];
  const run = runs[Math.floor(runs.length / 2)];
  return run ? run.slice(Math.floor((run.length - length) / 2)).slice(0, length) : null;
}

(present ? describe : describe.skip)('traditional and simplified Chinese find each other', () => {
  let dir: string;
  let index: LanceSearchIndex;
  // The shared pages (simplified); every other one written in traditional characters.
  const pages = present
    ? readdirSync(CLEANED)
        .filter((name) => name.endsWith('.txt'))
        .sort()
        .map((name, i) => {
          const simplified = readFileSync(join(CLEANED, name), 'utf8');
          return {
            id: name.replace(/\.txt$/, ''),
            simplified,
            traditional: i % 2 === 1,
            text: i % 2 === 1 ? toTaiwan(simplified) : simplified,
          };
        })
    : [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-zh-hant-'));
    index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    const docs = pages.map((page) =>
      makePage(page.id, `https://zh.example.tw/${page.id}`, page.text.slice(0, 20), page.text, { lang: 'zh' }),
    );
    // Half folded into the indexes, half still waiting.
    await index.upsert(docs.slice(0, docs.length / 2));
    await index.flush();
    await index.upsert(docs.slice(docs.length / 2));
  });
  afterAll(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
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
