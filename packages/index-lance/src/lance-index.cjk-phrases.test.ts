import { expect } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { eachPlan } from './testing/each-plan.js';

/** Prose about the city that holds none of the query's numbers or their characters. */
const PROSE = '本文介绍城市交通的发展情况，以及市民出行方式的变化。'.repeat(8);

const zh = (id: string, body: string) => makePage(id, `https://zh.example.cn/${id}`, `新闻${id}`, body, { lang: 'zh' });

/**
 * Pages holding a date, its run ending after it (`3月9日，`) or going on (`10月14日报道`), among
 * short pages holding its numbers and characters apart, often: by BM25 on the words apart those
 * ranked first (a multilingual audit found the page with `3月9日` ninth of twelve).
 */
const DATES = [
  zh('date-mar', `${PROSE}2023年3月9日，市政府举行了新闻发布会。${PROSE}`),
  zh('date-oct', `${PROSE}新华社10月14日报道，地铁新线开通。${PROSE}`),
  zh('date-feb', `${PROSE}2月11日，走进社区的志愿者。${PROSE}`),
  ...Array.from({ length: 9 }, (_, i) =>
    zh(`apart-${i}`, `3号楼 9号楼 10号楼 14号楼 2号楼 11号楼，每月开放${i}次，日日有人。月月如此，日日如此。`),
  ),
];

eachPlan(
  'a number and its units typed together are found in a row',
  () => DATES,
  async (ids) => {
    for (const [q, page] of [
      ['3月9日', 'date-mar'],
      ['10月14日', 'date-oct'],
      ['2月11日', 'date-feb'],
      ['"3月9日"', 'date-mar'],
      ['"10月14日"', 'date-oct'],
    ] as const) {
      expect([q, await ids(q)]).toEqual([q, [page]]);
    }
    // With its words optional the date still comes first.
    expect((await ids('3月9日 发布会', 'any'))[0]).toBe('date-mar');
    expect((await ids('10月14日报道', 'any'))[0]).toBe('date-oct');
  },
);

/** Chinese and Japanese words written together, or with a space between them. */
const SPACED = [
  zh('ai', `${PROSE}人工智能改变了交通管理。AI人工智能的应用越来越多。`),
  zh('ai-spaced', `${PROSE}关键词：人工 智能 交通`),
  zh('ai-apart', `${PROSE}人工修建的道路需要智能管理。`),
  makePage('ramen', 'https://ja.example.jp/ramen', 'ラーメン', '札幌の味噌ラーメンは有名です。', { lang: 'ja' }),
  makePage('ramen-spaced', 'https://ja.example.jp/menu', 'メニュー', '本日のおすすめ：味噌 ラーメン', { lang: 'ja' }),
];

eachPlan(
  'a quoted phrase with spaces between Chinese or Japanese words finds them written together',
  () => SPACED,
  async (ids) => {
    const sorted = async (q: string) => (await ids(q)).sort();
    expect(await sorted('"人工 智能"')).toEqual(['ai', 'ai-spaced']);
    expect(await sorted('"味噌 ラーメン"')).toEqual(['ramen', 'ramen-spaced']);
    expect(await sorted('"人工智能"')).toEqual(['ai']);
    // A space beside letters is read as the index reads it.
    expect(await sorted('"AI 人工 智能"')).toEqual(['ai']);
    expect(await sorted('交通 -"人工 智能"')).toEqual(['ai-apart']);
  },
);
