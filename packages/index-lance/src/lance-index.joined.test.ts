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

const numberPages = () => [
  makePage('comma', 'https://a.example.org/n1', 'Grants', 'Awards of $10,000 for small teams.'),
  makePage('point', 'https://b.example.org/n2', 'Förderung', 'Preise von 10.000 Euro für kleine Teams.'),
  makePage('plain', 'https://c.example.org/n3', 'Prizes', 'A prize of 10000 dollars for teams.'),
  makePage('spaced', 'https://d.example.org/n4', 'Bourses', 'Des bourses de 10 000 euros pour les teams.'),
  makePage('apart', 'https://f.example.org/n6', 'Table', 'Rows 10 and 000 of the awards table for teams.'),
  makePage('million', 'https://e.example.org/n5', 'Cities', 'A city of 1,250,000 people; awards since 1990.'),
];

eachPlan(
  'a number written in groups and its digits find each other (10,000, 10.000, 10000)',
  numberPages,
  async (ranked) => {
    const ids = async (q: string) => (await ranked(q)).sort();
    expect(await ids('10000')).toEqual(['comma', 'plain', 'point', 'spaced']);
    expect(await ids('10,000')).toEqual(['comma', 'plain', 'point', 'spaced']);
    expect(await ids('$10,000 teams')).toEqual(['comma', 'plain', 'point', 'spaced']);
    expect(await ids('1250000')).toEqual(['million']);
    expect(await ids('1.250.000 people')).toEqual(['million']);
    // Quoted, as typed: the groups in a row, whatever separates them.
    expect(await ids('"10,000"')).toEqual(['comma', 'point', 'spaced']);
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

  it('asks a grouped number as its groups in a row or its digits, before numbers were joined', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-joined-old-'));
    const written = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    await written.upsert([...pages(), ...numberPages()]);
    await written.flush();
    await written.close();
    writeFileSync(join(dir, ANALYSIS_FILE), '{"version":4}\n');
    const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    try {
      const notices = index.notices().join();
      expect(notices).toContain('a number written in groups is also found written as one');
      expect(notices).not.toContain('a hyphenated word is also found written as one');
      const ids = async (q: string) =>
        (await index.search({ query: parseQuery(q), limit: 10, offset: 0 })).hits.map((hit) => hit.id).sort();
      // The groups in a row, or the digits: `10 and 000` apart is not the number.
      expect(await ids('10,000 teams')).toEqual(['comma', 'plain', 'point', 'spaced']);
      // Hyphenated words are joined in a version-4 index: asked as the joined word alone.
      expect(await ids('e-mail marketing')).toEqual(['hyphen', 'joined']);
    } finally {
      await index.close();
    }
  });
});
