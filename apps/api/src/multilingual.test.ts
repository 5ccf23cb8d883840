import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createApp } from './app.js';
import { createFixture, type Fixture, page } from './test-support/fixture.js';

const SEARCH = '/api/v1/search';

/** Prose that holds none of the words asked below. */
const ZH = '本文介绍城市交通的发展情况，以及市民出行方式的变化。'.repeat(8);
const DE = 'Die Stadt liegt am Fluss, und ihre alten Häuser stehen dicht beieinander. '.repeat(8);

/** Pages of a multilingual audit: Chinese dates, words written together, German words with ß. */
const PAGES = [
  page('https://zh.example.cn/date', {
    lang: 'zh',
    title: '发布会',
    body_text: `${ZH}3月9日，市政府举行了新闻发布会。${ZH}`,
  }),
  page('https://zh.example.cn/report', {
    lang: 'zh',
    title: '地铁',
    body_text: `${ZH}新华社10月14日报道，地铁新线开通。${ZH}`,
  }),
  ...Array.from({ length: 10 }, (_, i) =>
    page(`https://zh.example.cn/apart-${i}`, {
      lang: 'zh',
      title: `楼${i}`,
      body_text: `3号楼 9号楼 10号楼 14号楼，每月开放${i}次，日日有人。月月如此。`,
    }),
  ),
  page('https://zh.example.cn/ai', { lang: 'zh', title: '交通', body_text: `${ZH}人工智能改变了交通管理。` }),
  page('https://ja.example.jp/ramen', { lang: 'ja', title: '札幌', body_text: '札幌の味噌ラーメンは有名です。' }),
  page('https://de.example.de/familie', {
    lang: 'de',
    title: 'Familiengeschichte',
    body_text: `${DE}Das Haus meines Urgroßvaters wurde in der Fußgängerzone begrüßt, dann gab es Apfelstrudel. ${DE}`,
  }),
];

let fx: Fixture;
beforeAll(async () => {
  fx = await createFixture(PAGES);
});
afterAll(async () => {
  await fx.cleanup();
});

type Result = { url: string; snippet: string };

async function search(q: string): Promise<Result[]> {
  const res = await request(createApp(fx.deps())).get(SEARCH).query({ q });
  expect(res.status).toBe(200);
  return res.body.results as Result[];
}

describe('multilingual search through /api/v1/search', () => {
  it('puts the page holding a date typed together first, and no page holding its parts apart', async () => {
    for (const [q, url] of [
      ['3月9日', 'https://zh.example.cn/date'],
      ['10月14日', 'https://zh.example.cn/report'],
    ]) {
      const results = await search(q!);
      expect([q, results.map((r) => r.url)]).toEqual([q, [url]]);
      expect(results[0]?.snippet).toContain(q);
    }
  });

  it('finds words written together by a quoted phrase with a space between them', async () => {
    expect((await search('"人工 智能"')).map((r) => r.url)).toEqual(['https://zh.example.cn/ai']);
    expect((await search('"味噌 ラーメン"')).map((r) => r.url)).toEqual(['https://ja.example.jp/ramen']);
  });

  it('cuts the snippet around a word holding ß, showing it as written', async () => {
    const written = { Urgroßvaters: 'Urgroßvaters', urgrossvaters: 'Urgroßvaters', Fußgängerzone: '', begrüßt: '' };
    for (const [q, word] of Object.entries({ ...written, Apfelstrudel: '' })) {
      const [result] = await search(q);
      expect([q, result?.snippet.startsWith('…')]).toEqual([q, true]);
      expect(result?.snippet).toContain(word || q);
    }
  });
});
