import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IndexQuery } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from './app.js';
import { createMcpBackend } from './mcp-backend.js';
import { asksQuestion, plainWordCount, readsAsSentence, shouldRelax } from './relax.js';
import { createFixture, type Fixture, page, recording } from './test-support/fixture.js';
import { servedDocs } from './test-support/served.js';

const count = (q: string): number => plainWordCount(parseQuery(q));

/** The URLs the index itself ranks for `q` (BM25 and its priors alone), the first 20. */
async function indexed(fx: Fixture, q: string, match: 'all' | 'any'): Promise<string[]> {
  const found = await fx.index.search({ query: parseQuery(q), match, limit: 20, offset: 0 });
  return found.hits.map((hit) => hit.url);
}

describe('plainWordCount', () => {
  it('counts distinct words besides stop words', () => {
    expect(count('what are the structural problems of high speed aircraft?')).toBe(5);
    expect(count('what is the zeppelin')).toBe(1);
    expect(count('solar solar panel')).toBe(2);
  });

  it('counts only plain words: phrases, intitle:, exclusions and OR groups stay as written', () => {
    expect(count('"solar panel efficiency" roof')).toBe(1);
    expect(count('intitle:solar panel efficiency')).toBe(2);
    expect(count('solar panel -efficiency')).toBe(2);
    expect(count('solar (panel OR roof) efficiency')).toBe(2);
    expect(count('site:example.com filetype:pdf solar panel efficiency')).toBe(3);
  });

  it('reads a URL or a word of several parts as one word, and a run of Chinese as its words', () => {
    expect(count('https://example.com/solar/panel')).toBe(1);
    expect(count('state-of-the-art heat-transfer')).toBe(2);
    expect(count('今天北京的天气怎么样')).toBeGreaterThanOrEqual(3);
    expect(count('北京')).toBe(1);
  });
});

describe('readsAsSentence', () => {
  it('reads a question mark or a function word as a sentence, keywords as keywords', () => {
    expect(readsAsSentence(parseQuery('how do solar panels work'))).toBe(true);
    expect(readsAsSentence(parseQuery('solar panels efficiency?'))).toBe(true);
    expect(readsAsSentence(parseQuery('今天北京的天气'))).toBe(true);
    expect(readsAsSentence(parseQuery('solar panel efficiency roofs'))).toBe(false);
    // Phrases, exclusions and intitle: stay as written, and do not make a sentence.
    expect(readsAsSentence(parseQuery('"the sun" solar -the intitle:of'))).toBe(false);
  });
});

describe('shouldRelax', () => {
  const q = (text: string) => parseQuery(text);
  it('relaxes a sentence of three words no page holds together, and of four or more that fewer than ten pages hold', () => {
    expect(shouldRelax(q('the solar panel efficiency'), 0)).toBe(true);
    expect(shouldRelax(q('the solar panel efficiency'), 2)).toBe(false);
    expect(shouldRelax(q('what is solar panel efficiency on roofs'), 2)).toBe(true);
    expect(shouldRelax(q('what is solar panel efficiency on roofs'), 9)).toBe(true);
    expect(shouldRelax(q('what is solar panel efficiency on roofs'), 10)).toBe(false);
  });

  it('relaxes a question of three words that fewer than ten pages hold whole', () => {
    expect(shouldRelax(q('how to define routes in Flask'), 1)).toBe(true);
    expect(shouldRelax(q('what is solar panel efficiency'), 9)).toBe(true);
    expect(shouldRelax(q('what is solar panel efficiency'), 10)).toBe(false);
    expect(shouldRelax(q('solar panel efficiency?'), 2)).toBe(true);
    // Two words, or three not asked as a question, stay an AND.
    expect(shouldRelax(q('how do solar panels fail?'), 2)).toBe(true);
    expect(shouldRelax(q('how do solar panels'), 2)).toBe(false);
    expect(shouldRelax(q('solar panel efficiency'), 2)).toBe(false);
  });

  it('keeps keywords an AND, found together or not, unless there are five or more', () => {
    // No page holds all three: no results, as the spec's "all must match" says.
    expect(shouldRelax(q('solar panel efficiency'), 0)).toBe(false);
    expect(shouldRelax(q('zebrafish nutrition trends'), 0)).toBe(false);
    expect(shouldRelax(q('solar panel efficiency roofs'), 0)).toBe(false);
    // Asked or written as a sentence, the same words are relaxed.
    expect(shouldRelax(q('solar panel efficiency?'), 0)).toBe(true);
    expect(shouldRelax(q('efficiency of solar panels'), 0)).toBe(true);
    expect(shouldRelax(q('Testing automated information systems.'), 0)).toBe(true);
    expect(shouldRelax(q('solar panel node.js'), 0)).toBe(false);
    expect(shouldRelax(q('solar panel efficiency roofs'), 2)).toBe(false);
    expect(shouldRelax(q('solar panel efficiency roofs winter'), 0)).toBe(true);
    expect(shouldRelax(q('solar panel efficiency roofs winter'), 2)).toBe(true);
  });

  it('never relaxes two words', () => {
    expect(shouldRelax(q('solar panel'), 0)).toBe(false);
    expect(shouldRelax(q('the solar panel'), 0)).toBe(false);
    expect(shouldRelax(q('solar panel?'), 0)).toBe(false);
  });
});

describe('asksQuestion', () => {
  it('reads a question mark or a first word that opens a question, not keywords or a pasted sentence', () => {
    const asks = (q: string): boolean => asksQuestion(parseQuery(q));
    expect(asks('How much does travel insurance usually cost')).toBe(true);
    expect(asks('does the Joco cup break in a dishwasher')).toBe(true);
    expect(asks('travel insurance cost as a share of the trip?')).toBe(true);
    expect(asks('旅游保险多少钱？')).toBe(true);
    expect(asks('travel insurance cost percent')).toBe(false);
    expect(asks('the first modern resort using the approach opened in Spain')).toBe(false);
    // `what` inside a sentence is not how it opens; a phrase asks nothing.
    expect(asks('tell me what the cup is made of')).toBe(false);
    expect(asks('"what a wonderful world" lyrics')).toBe(false);
  });
});

describe('a relaxed query that a few pages hold whole', () => {
  // Pasted from a page: the words of one of its sentences. One page holds them all, once: a list
  // of news teasers, which the index ranks lower as a list of links; others hold most of them
  // often, which BM25 alone then ranks higher.
  const SENTENCE = 'the first modern resort using the approach opened in Spain';
  const filler = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} of the travel news digest covers fares.`);
  const source = page('https://news.example.com/all-inclusive', {
    title: 'Latest travel news',
    quality: 0.25,
    body_text: [...filler.slice(0, 30), `In 1950 ${SENTENCE}, with tents and straw huts.`, ...filler.slice(30)].join(
      '\n\n',
    ),
  });
  const echoes = Array.from({ length: 12 }, (_, i) =>
    page(`https://resorts.example.org/${i}`, {
      title: `Modern resort ${i}`,
      body_text: `The first modern resort opened: resort ${i}, a modern resort that opened with a modern approach.`,
    }),
  );
  let fx: Fixture;
  let app: Express;
  beforeAll(async () => {
    fx = await createFixture([source, ...echoes]);
    app = createApp(fx.deps({ QUARRY_RATE_LIMIT_PUBLIC: '1000' }));
  });
  afterAll(async () => {
    await fx.cleanup();
  });
  const search = async (query: string) => {
    const res = await request(app).get(`/api/v1/search?${query}`);
    expect(res.status).toBe(200);
    return res;
  };
  const q = `q=${encodeURIComponent(SENTENCE)}`;

  it('ranks the pages holding every word first, then the others by their optional words', async () => {
    // What the index finds each way: the AND the one page, the optional words that page below the others.
    expect(await indexed(fx, SENTENCE, 'all')).toEqual([source.url]);
    const any = await indexed(fx, SENTENCE, 'any');
    expect(any.indexOf(source.url)).toBeGreaterThan(0);
    const res = await search(q);
    expect(res.headers['quarry-match']).toBe('any');
    const results = res.body.results as { url: string; score: number }[];
    expect(results[0]?.url).toBe(source.url);
    expect(results.slice(1).map((r) => r.url)).toEqual(any.filter((url: string) => url !== source.url).slice(0, 9));
    // Scores still fall down the list.
    const scores = results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(res.body.total).toBe(13);
    // Asked for `match=any` itself, a client gets the same order.
    const explicit = (await search(`${q}&match=any`)).body.results.map((r: { url: string }) => r.url);
    expect(explicit).toEqual(results.map((r) => r.url));
  });

  it('leaves a question in the ranking of its words: holding every word of it is no sign of an answer', async () => {
    // Asked as a question, the same words: the one page holding them all is not put first.
    const question = `Was ${SENTENCE}?`;
    const any = await indexed(fx, question, 'any');
    expect(any.indexOf(source.url)).toBeGreaterThan(0);
    for (const extra of ['', '&match=any']) {
      const res = await search(`q=${encodeURIComponent(question)}&limit=20${extra}`);
      if (extra === '') expect(res.headers['quarry-match']).toBe('any');
      const results = (res.body.results as { url: string }[]).map((r) => r.url);
      expect(results[0]).not.toBe(source.url);
      expect(results).toContain(source.url);
    }
  });

  it('gives every result once however a client pages through them', async () => {
    const all = (await search(`${q}&limit=20`)).body.results.map((r: { url: string }) => r.url);
    expect(all).toHaveLength(13);
    const pages = await Promise.all([0, 4, 8, 12].map((offset) => search(`${q}&limit=4&offset=${offset}`)));
    expect(pages.flatMap((p) => p.body.results.map((r: { url: string }) => r.url))).toEqual(all);
    expect(pages.map((p) => p.body.total)).toEqual([13, 13, 13, 13]);
    expect(pages.map((p) => p.headers['quarry-match'])).toEqual(['any', 'any', 'any', 'any']);
  });
});

describe('a query whose words a few pages hold in a row', () => {
  const WORDS = 'quick brown fox jumps';
  const source = page('https://stories.example.com/fox', {
    title: 'A story',
    body_text: [
      ...Array.from({ length: 40 }, (_, i) => `Line ${i} of a long story about the forest.`),
      `Then the ${WORDS} over the lazy dog.`,
    ].join('\n\n'),
  });
  // Every word often, never in a row: BM25 ranks these above the story.
  const scattered = Array.from({ length: 12 }, (_, i) =>
    page(`https://foxes.example.org/${i}`, {
      title: `Foxes ${i}`,
      body_text: `A fox jumps; a brown fox is quick. Quick foxes, brown foxes: it jumps, fox ${i}.`,
    }),
  );
  // The words in a row on ten pages or more, shared phrasing, each in a long text; and a few
  // pages with every word often, never in a row, which BM25 ranks above them.
  const shared = Array.from({ length: 10 }, (_, i) =>
    page(`https://typing.example.net/${i}`, {
      title: `Typing drill ${i}`,
      body_text: [
        ...Array.from({ length: 30 }, (_, j) => `Drill ${i} line ${j}: type each key in turn.`),
        'Then type: lazy dog sleeps soundly.',
      ].join('\n\n'),
    }),
  );
  const dogs = Array.from({ length: 3 }, (_, i) =>
    page(`https://dogs.example.org/${i}`, {
      title: `Dogs ${i}`,
      body_text: `A dog sleeps; a lazy dog. Soundly the dog sleeps, lazy and soundly, dog ${i}.`,
    }),
  );
  const served = servedDocs([source, ...scattered, ...shared, ...dogs]);
  const urls = (query: string) => served.urls(query);

  it('ranks the pages holding the words in a row first, then the others as they rank', async () => {
    const q = `q=${encodeURIComponent(WORDS)}`;
    const all = await indexed(served.fx, WORDS, 'all');
    expect(all).toHaveLength(13);
    expect(all.indexOf(source.url)).toBeGreaterThan(0);
    const typed = await urls(`${q}&limit=20`);
    expect(typed).toEqual([source.url, ...all.filter((url) => url !== source.url)]);
    // So with `match=all` or `match=any` given, and through MCP (which asks `any`).
    expect(await urls(`${q}&match=all&limit=20`)).toEqual(typed);
    expect((await urls(`${q}&match=any&limit=20`))[0]).toBe(source.url);
    const mcp = await createMcpBackend(served.fx.deps()).search({ q: WORDS, limit: 20, offset: 0, match: 'any' });
    expect(mcp.results[0]?.url).toBe(source.url);
    // Paged one at a time, the same list.
    const paged = await Promise.all(typed.map((_url, offset) => urls(`${q}&limit=1&offset=${offset}`)));
    expect(paged.flat()).toEqual(typed);
  });

  it('asks for the words in a row only when the AND found two pages or more', async () => {
    const asked: IndexQuery[] = [];
    const watched = createApp(
      served.fx.deps({ QUARRY_RATE_LIMIT_PUBLIC: '1000' }, { index: recording(served.fx.index, asked) }),
    );
    const phrases = () => asked.filter((query) => query.query.root?.type === 'phrase').length;
    // The story alone holds these words: it comes first without a phrase query, whatever the match.
    for (const match of ['', '&match=all', '&match=any']) {
      asked.length = 0;
      const res = await request(watched).get(`/api/v1/search?q=${encodeURIComponent('story forest jumps')}${match}`);
      expect(res.body.results[0]?.url).toBe(source.url);
      expect(asked.length).toBeGreaterThan(0);
      expect(phrases()).toBe(0);
    }
    asked.length = 0;
    await request(watched).get(`/api/v1/search?q=${encodeURIComponent(WORDS)}`);
    expect(phrases()).toBe(1);
  });

  it('moves nothing for words in a row on ten pages or more, or for fewer than three words', async () => {
    const q = `q=${encodeURIComponent('lazy dog sleeps soundly')}`;
    const all = await indexed(served.fx, 'lazy dog sleeps soundly', 'all');
    expect(all).toHaveLength(13);
    expect(dogs.map((d) => all.indexOf(d.url)).sort()).toEqual([0, 1, 2]);
    expect(await urls(`${q}&limit=20`)).toEqual(all);
    // Two words in a row only on the story: as they rank.
    const two = `q=${encodeURIComponent('quick brown')}`;
    const pair = await indexed(served.fx, 'quick brown', 'all');
    expect(pair.indexOf(source.url)).toBeGreaterThan(0);
    expect(await urls(`${two}&limit=20`)).toEqual(pair);
  });
});
