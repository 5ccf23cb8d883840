import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { PageDocument } from '@quarry/core';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';
import { eachPlan, PLANS } from './testing/each-plan.js';

// Two pages alike but for the form of one word; each query's exact form is on the page written
// LAST, so that without word forms the tie (equal BM25) would put the other page first.
const filler = 'Notes on shoes, trails and weather for every season of the year.';
const formPages = (): PageDocument[] => [
  makePage('runs', 'https://a.example.org/runs', 'Trail notes', `${filler} She runs the trail daily. ${filler}`),
  makePage('running', 'https://b.example.org/running', 'Trail notes', `${filler} She is running the trail. ${filler}`),
  makePage('jumped', 'https://c.example.org/jumped', 'Yard notes', `${filler} The dog jumped the fence. ${filler}`),
  makePage('jumps', 'https://d.example.org/jumps', 'Yard notes', `${filler} The dog jumps the fence. ${filler}`),
];

eachPlan('exact word forms rank above other forms of the stem', formPages, async (ids) => {
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
});

// Russian pages, stemmed by Snowball: the exact form and the title count as they do for English
// words. Before, only words of ASCII letters did, so `новый закон` left the pages in row order.
const russianFiller = 'Заметки о городе, погоде и транспорте на каждый день года.';
const russianPages = (): PageDocument[] => [
  makePage('novaya', 'https://a.example.ru/1', 'Заметки', `${russianFiller} Новая школа открыта. ${russianFiller}`, {
    lang: 'ru',
  }),
  makePage('novyi', 'https://b.example.ru/2', 'Заметки', `${russianFiller} Новый школа открыта. ${russianFiller}`, {
    lang: 'ru',
  }),
];

eachPlan('exact Russian word forms rank above other forms of the stem', russianPages, async (ids) => {
  expect(await ids('новый школа')).toEqual(['novyi', 'novaya']);
  expect(await ids('новая школа')).toEqual(['novaya', 'novyi']);
});

// Words holding characters that show nothing, as pages often do: soft hyphens that let a long
// German word break across lines, a zero-width space a CMS left inside a word.
const invisiblePages = (): PageDocument[] => [
  makePage(
    'court',
    'https://a.example.de/gericht',
    'Urteil aus Karlsruhe',
    'Das Bundes\u00adverfassungs\u00adgericht hat heute über die Beschwerde entschieden.',
    { lang: 'de' },
  ),
  makePage(
    'trade',
    'https://b.example.org/trade',
    'Trade notes',
    'Inter\u200bnational standards for shipping containers changed this year.',
  ),
  makePage('other', 'https://c.example.org/other', 'Other notes', 'National parks and local trails this year.'),
];

eachPlan('words holding characters that show nothing are found as a reader sees them', invisiblePages, async (ids) => {
  expect(await ids('Bundesverfassungsgericht')).toEqual(['court']);
  expect(await ids('international')).toEqual(['trade']);
  expect(await ids('"international standards"')).toEqual(['trade']);
  // The parts are no words of their own any more.
  expect(await ids('national')).toEqual(['other']);
  expect(await ids('verfassungs')).toEqual([]);
});

// A contraction of not is one word (`won't` → `wont`): `won` and `haven` are other words.
const contractionPages = (): PageDocument[] => [
  makePage('won', 'https://a.example.org/won', 'Results', 'Our team won the election last night in the town.'),
  makePage('wont', 'https://b.example.org/wont', 'Results', "Voters won't forget the election in the town."),
  makePage('haven', 'https://c.example.org/haven', 'Harbour', 'A safe haven for boats near the town.'),
  makePage('havent', 'https://d.example.org/havent', 'Harbour', 'We haven’t seen boats near the town.'),
];

eachPlan('a contraction of not is one word, not the word before its apostrophe', contractionPages, async (ids) => {
  expect(await ids('won election')).toEqual(['won']);
  expect(await ids('haven boats')).toEqual(['haven']);
  expect(await ids('haven')).toEqual(['haven']);
  // The contraction finds itself, written with either apostrophe, alone and in a phrase.
  expect(await ids("won't")).toEqual(['wont']);
  expect(await ids('"haven\'t seen"')).toEqual(['havent']);
  expect(await ids('wont forget')).toEqual(['wont']);
  // Like `not` and `do`, it is a stop word: a question need not find it on the page.
  expect(await ids("why don't voters forget the election")).toEqual(['wont']);
});

// An English clitic is no word of its own (`Rust's` → `rust`).
const cliticPages = (): PageDocument[] => [
  makePage('possessive', 'https://a.example.org/p', 'Rust notes', "Rust's ownership model frees memory."),
  makePage('plain', 'https://b.example.org/q', 'Rust notes', 'The Rust ownership model, explained.'),
  makePage('other', 'https://c.example.org/r', 'Go notes', "Go's garbage collector frees memory."),
];

eachPlan('an English clitic after an apostrophe is no word of its own', cliticPages, async (ids) => {
  // A possessive in the query needs none on the page, and a phrase finds the page that writes one.
  expect((await ids("Rust's ownership")).sort()).toEqual(['plain', 'possessive']);
  expect((await ids('"rust ownership model"')).sort()).toEqual(['plain', 'possessive']);
  expect(await ids('"go garbage collector"')).toEqual(['other']);
});

// A one-letter word with `++` or `#` is a language's name, not the letter.
const languagePages = (): PageDocument[] => [
  makePage(
    'cpp',
    'https://a.example.org/cpp',
    'Notes',
    'Templates in C++ are resolved at compile time, also in C++17.',
  ),
  makePage('csharp', 'https://b.example.org/cs', 'Notes', 'Templates? C# has generics, and async in C# is easy.'),
  makePage('c', 'https://c.example.org/c', 'Notes', 'The C language has no templates, only macros; no async.'),
];

eachPlan('a one-letter word with ++ or # is a word of its own', languagePages, async (ids) => {
  expect(await ids('c++ templates')).toEqual(['cpp']);
  expect(await ids('C# async')).toEqual(['csharp']);
  expect(await ids('c templates')).toEqual(['c']);
  expect(await ids('"templates in c++"')).toEqual(['cpp']);
  expect((await ids('templates -c#')).sort()).toEqual(['c', 'cpp']);
});

// `nutritionally` is stemmed to `nutrition`, which is `nutrition` as typed; `nutrition` to `nutrit`.
const stemPages = (otherLanguage: boolean): PageDocument[] => [
  makePage(
    'twice',
    'https://a.example.org/twice',
    'Food notes',
    `${filler} Good nutrition matters. Nutrition is key. ${filler}`,
  ),
  makePage(
    'other',
    'https://b.example.org/other',
    'Food notes',
    `${filler} Good nutrition matters. Eat nutritionally. ${filler}`,
  ),
  ...Array.from({ length: 6 }, (_, i) =>
    makePage(`filler${i}`, `https://c.example.org/${i}`, 'Trail notes', `${filler} Nothing about food here. ${filler}`),
  ),
  ...(otherLanguage
    ? [makePage('de', 'https://d.example.org/de', 'Ernährung', 'Ernährung und Gesundheit im Alltag.', { lang: 'de' })]
    : []),
];

for (const otherLanguage of [false, true]) {
  describe(`an English page is asked for a word's stem only (${otherLanguage ? 'with' : 'without'} pages in other languages)`, () => {
    let dir: string | undefined;
    afterEach(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    });

    // The general plan asks every form when some pages are not indexed by stems.
    const plans = otherLanguage ? PLANS.filter(([, c]) => c.fastPlan) : PLANS;
    it.each(plans)('%s', async (_name, { fastPlan, fold }) => {
      dir = mkdtempSync(join(tmpdir(), 'quarry-lance-stems-'));
      const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false, fastPlan });
      try {
        await index.upsert(stemPages(otherLanguage));
        if (fold) await index.flush();
        for (const match of ['all', 'any'] as const) {
          const { hits } = await index.search({ query: parseQuery('nutrition'), match, limit: 10, offset: 0 });
          // The page saying the word twice first: the other's `nutritionally` is no second match
          // at the typed form's rare IDF.
          expect(hits.map((hit) => hit.id)).toEqual(['twice', 'other']);
        }
      } finally {
        await index.close();
      }
    });
  });
}

// A long page titled with the query's words, beside shorter ones that say them more often in the
// body, as the web has them: a book's chapter under the book's title against pages in passing.
const long = 'Alerts page a human only for symptoms that matter, and dashboards show the rest. '.repeat(8);
const titlePages = (): PageDocument[] => [
  // Pages holding neither word, so that both are rare as on the web.
  ...Array.from({ length: 20 }, (_, n) =>
    makePage(`other-${n}`, `https://other.example.org/${n}`, `Notes ${n}`, filler),
  ),
  ...[1, 2, 3].map((n) =>
    makePage(
      `passing-${n}`,
      `https://shop${n}.example.org/about`,
      `About shop ${n}`,
      `${filler.repeat(6)} Visit our site. The site lists reliability figures; site visitors trust our reliability. ${filler.repeat(6)}`,
    ),
  ),
  makePage(
    'titled',
    'https://sre.example.org/monitoring',
    'Site Reliability Engineering',
    `Monitoring distributed systems. ${long} A site's reliability is what its users see. ${long}`,
  ),
];

eachPlan(
  'a page whose title holds every required word ranks above pages that only mention them',
  titlePages,
  async (ids) => {
    expect((await ids('site reliability'))[0]).toBe('titled');
    expect((await ids('reliability site'))[0]).toBe('titled');
    // Optional words (OR, `match=any`) are left to BM25.
    expect((await ids('site OR reliability'))[0]).not.toBe('titled');
    expect((await ids('site reliability', 'any'))[0]).not.toBe('titled');
  },
);

// A passage quoted whole, longer than the phrase the index is asked (MAX_PHRASE_TOKENS words, see
// fts-query.ts): pages holding its first words in a row are found, as those holding it whole.
const passage = Array.from({ length: 40 }, (_, i) => `word${i}`);
const passagePages = (): PageDocument[] => [
  makePage('whole', 'https://a.example.org/whole', 'Quoted', `Before it. ${passage.join(' ')}. After it.`),
  makePage(
    'start',
    'https://b.example.org/start',
    'Quoted',
    `Before it. ${passage.slice(0, 35).join(' ')} other words. After it.`,
  ),
  makePage(
    'broken',
    'https://c.example.org/broken',
    'Quoted',
    `Before it. ${passage.slice(0, 20).join(' ')} and ${passage.slice(20).join(' ')}. After it.`,
  ),
];

eachPlan('a phrase of more words than the index is asked is matched by its first ones', passagePages, async (ids) => {
  expect((await ids(`"${passage.join(' ')}"`)).sort()).toEqual(['start', 'whole']);
  expect((await ids(`"${passage.slice(0, 30).join(' ')}"`)).sort()).toEqual(['start', 'whole']);
  expect((await ids(`"${passage.slice(10, 30).join(' ')}"`)).sort()).toEqual(['start', 'whole']);
  expect(await ids(`word0 -"${passage.join(' ')}"`)).toEqual(['broken']);
});
