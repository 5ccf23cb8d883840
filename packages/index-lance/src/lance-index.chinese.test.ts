import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

const CLEANED = new URL('../../../../shared/testdata/chinese-pages/cleaned', import.meta.url).pathname;
const present = existsSync(CLEANED);
if (!present) console.warn(`Chinese search: ${CLEANED} is absent, skipping`);

/** A run of `length` Han characters from the middle of a text (the query a reader might copy). */
function hanRun(text: string, length: number): string | null {
  const runs = text.match(/\p{Script=Han}{8,}/gu) ?? [];
  const run = runs[Math.floor(runs.length / 2)];
  if (!run) return null;
  const start = Math.floor((run.length - length) / 2);
  return run.slice(start, start + length);
}

(present ? describe : describe.skip)('Chinese search over the shared Chinese pages', () => {
  let dir: string;
  let index: LanceSearchIndex;
  const pages = present
    ? readdirSync(CLEANED)
        .filter((name) => name.endsWith('.txt'))
        .sort()
        .map((name) => ({ id: name.replace(/\.txt$/, ''), text: readFileSync(join(CLEANED, name), 'utf8') }))
    : [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-zh-'));
    index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    const docs = pages.map((p) =>
      makePage(p.id, `https://zh.example.cn/${p.id}`, p.text.slice(0, 20), p.text, { lang: 'zh' }),
    );
    // Half folded into the indexes, half still waiting: both must be found.
    await index.upsert(docs.slice(0, docs.length / 2));
    await index.flush();
    await index.upsert(docs.slice(docs.length / 2));
  });
  afterAll(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds every page by a four-character run from its text, as a word and as a phrase', async () => {
    let asked = 0;
    for (const page of pages) {
      const run = hanRun(page.text, 4);
      if (!run) continue;
      asked++;
      for (const q of [run, `"${run}"`]) {
        const result = await index.search({ query: parseQuery(q), limit: 100, offset: 0 });
        expect(result.hits.map((h) => h.id)).toContain(page.id);
        for (const hit of result.hits)
          expect(pages.find((p) => p.id === hit.id)?.text.replace(/\s+/g, '')).toContain(run);
      }
    }
    expect(asked).toBeGreaterThan(20);
  });

  it('puts a page first for a longer run of its own text', async () => {
    for (const page of pages.slice(0, 10)) {
      const run = hanRun(page.text, 8);
      if (!run) continue;
      const [hit] = (await index.search({ query: parseQuery(run), limit: 1, offset: 0 })).hits;
      expect(hit?.id).toBe(page.id);
    }
  });
});
