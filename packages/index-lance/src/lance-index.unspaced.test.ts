import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IndexQuery } from '@quarry/core';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

/** Pages in scripts written without spaces between words (Thai, Lao, Khmer, Myanmar). */
const PAGES = [
  makePage('th-lang', 'https://th.example.com/lang', 'ภาษาไทย', 'ภาษาไทยเป็นภาษาที่สวยงาม มีตัวอักษรของตัวเอง', {
    lang: 'th',
  }),
  makePage('th-food', 'https://th.example.com/food', 'อาหารไทย', 'อาหารไทยมีรสชาติเผ็ดและหวาน คนไทยชอบกินข้าว', {
    lang: 'th',
  }),
  makePage('lo-lang', 'https://lo.example.com/lang', 'ພາສາລາວ', 'ພາສາລາວເປັນພາສາທີ່ງາມ', { lang: 'lo' }),
  makePage('km-lang', 'https://km.example.com/lang', 'ភាសា', 'ភាសាខ្មែរគឺជាភាសាដ៏ស្រស់ស្អាត', { lang: 'km' }),
  makePage('my-lang', 'https://my.example.com/lang', 'မြန်မာ', 'မြန်မာဘာသာစကားသည်လှပသည်', { lang: 'my' }),
  makePage(
    'ko-seoul',
    'https://ko.example.kr/seoul',
    '오늘의 소식',
    '서울의 날씨가 좋습니다. 오늘은 맑고 따뜻합니다.',
    {
      lang: 'ko',
    },
  ),
  makePage('ko-busan', 'https://ko.example.kr/busan', '여행', '부산의 바다는 아름답습니다. 여름에 사람이 많습니다.', {
    lang: 'ko',
  }),
];

describe('search in Thai, Lao, Khmer, Myanmar (words without spaces between them) and Korean', () => {
  let dir: string;
  let index: LanceSearchIndex;
  const ids = async (q: string, extra: Partial<IndexQuery> = {}) =>
    (await index.search({ query: parseQuery(q), limit: 10, offset: 0, ...extra })).hits.map((hit) => hit.id);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-unspaced-'));
    index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    // Some folded into the indexes, some still waiting: both must be found.
    await index.upsert(PAGES.slice(0, 3));
    await index.flush();
    await index.upsert(PAGES.slice(3));
  });
  afterAll(async () => {
    await index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds a word from inside a run of text', async () => {
    expect(await ids('สวยงาม')).toEqual(['th-lang']);
    expect(await ids('เผ็ด')).toEqual(['th-food']);
    expect(await ids('ງາມ')).toEqual(['lo-lang']);
    expect(await ids('ស្អាត')).toEqual(['km-lang']);
    expect(await ids('လှပ')).toEqual(['my-lang']);
  });

  it('finds a run of words typed together, and a quoted phrase', async () => {
    expect(await ids('ภาษาที่สวยงาม')).toEqual(['th-lang']);
    expect(await ids('"ภาษาที่สวยงาม"')).toEqual(['th-lang']);
    // `ไทย` is on both Thai pages; with `ภาษา` only on one.
    expect((await ids('ไทย')).sort()).toEqual(['th-food', 'th-lang']);
    expect(await ids('ภาษาไทย')).toEqual(['th-lang']);
  });

  it('answers a question with match=any by the page holding more of its words', async () => {
    const [first] = await ids('อาหารไทยรสชาติเป็นอย่างไร', { match: 'any' });
    expect(first).toBe('th-food');
  });

  it('finds a Korean word with the particle the page writes onto it (서울 in 서울의)', async () => {
    expect(await ids('서울')).toEqual(['ko-seoul']);
    expect(await ids('날씨')).toEqual(['ko-seoul']);
    expect(await ids('부산 바다')).toEqual(['ko-busan']);
    expect(await ids('"서울의 날씨가"')).toEqual(['ko-seoul']);
    const [first] = await ids('서울 날씨는 어때요', { match: 'any' });
    expect(first).toBe('ko-seoul');
  });
});
