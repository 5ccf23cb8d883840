import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { ANALYSIS_FILE } from './analysis-version.js';
import { LanceSearchIndex } from './lance-index.js';
import { eachPlan } from './testing/each-plan.js';

const pages = () => [
  makePage('joined', 'https://a.example.org/1', 'Newsletters', 'Email marketing keeps customers coming back.'),
  makePage('hyphen', 'https://b.example.org/2', 'Campaigns', 'E-mail marketing for small shops, step by step.'),
  makePage('apart', 'https://c.example.org/3', 'Letters', 'An e for effort; mail marketing by post still works.'),
  makePage('other', 'https://d.example.org/4', 'Shops', 'Marketing on social networks.'),
  makePage('books', 'https://e.example.org/5', 'Reading', 'An e-book reader for the train.'),
  makePage('covid', 'https://f.example.org/6', 'Wi-Fi in clinics', 'COVID-19 vaccines, state-of-the-art care.'),
];

eachPlan(
  'a hyphenated word and its joined spelling find each other (e-mail, email; covid-19, covid19)',
  pages,
  async (ranked) => {
    const ids = async (q: string) => (await ranked(q)).sort();
    // Either spelling, either way; the parts apart are not the word.
    expect(await ids('e-mail marketing')).toEqual(['hyphen', 'joined']);
    expect(await ids('e-mail')).toEqual(['hyphen', 'joined']);
    expect(await ids('email')).toEqual(['hyphen', 'joined']);
    expect(await ids('ebook')).toEqual(['books']);
    expect(await ids('covid19 vaccines')).toEqual(['covid']);
    expect(await ids('intitle:e-mail')).toEqual([]);
    expect(await ids('intitle:wifi')).toEqual(['covid']);
    // Optional words: the pages with the word, either spelling, above its parts apart.
    expect((await ranked('e-mail marketing', 'any')).slice(0, 2).sort()).toEqual(['hyphen', 'joined']);
    expect(await ids('e-book')).toEqual(['books']);
    // Quoted, as typed.
    expect(await ids('"e-mail marketing"')).toEqual(['hyphen']);
  },
);

describe('in an index analysed before joined spellings were indexed (not reindexed since)', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('asks a hyphenated word as its parts in a row or its joined word', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-joined-old-'));
    const written = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    await written.upsert(pages());
    await written.flush();
    await written.close();
    writeFileSync(join(dir, ANALYSIS_FILE), '{"version":3}\n');
    const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    try {
      expect(index.notices().join()).toContain('a hyphenated word is also found written as one');
      const ids = async (q: string) =>
        (await index.search({ query: parseQuery(q), limit: 10, offset: 0 })).hits.map((hit) => hit.id).sort();
      expect(await ids('e-mail marketing')).toEqual(['hyphen', 'joined']);
      expect(await ids('"e-mail marketing"')).toEqual(['hyphen']);
    } finally {
      await index.close();
    }
  });
});
