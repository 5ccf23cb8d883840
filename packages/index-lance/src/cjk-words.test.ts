import { describe, expect, it } from '@jest/globals';
import type { IndexQuery } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import { splitCjkWords } from './cjk-words.js';

const ask = (q: string, match?: 'all' | 'any'): IndexQuery => ({
  query: parseQuery(q),
  limit: 10,
  offset: 0,
  ...(match ? { match } : {}),
});
/** The clauses of the query's root after the split, in order: a word's or phrase's text, else its type. */
const clauses = (query: IndexQuery): string[] => {
  const root = query.query.root;
  if (!root) return [];
  const children = root.type === 'and' ? root.children : [root];
  return children.map((child) => (child.type === 'term' || child.type === 'phrase' ? child.text : child.type));
};

describe('splitCjkWords', () => {
  it('splits a Chinese run into its words, leaving out one-character words between them', () => {
    expect(clauses(splitCjkWords(ask('今天北京的天气怎么样')))).toEqual(['今天', '北京', '天气', '怎么样']);
    expect(splitCjkWords(ask('北京天气')).query.root).toEqual({
      type: 'and',
      children: [
        { type: 'term', text: '北京', field: 'any' },
        { type: 'term', text: '天气', field: 'any' },
      ],
    });
  });
  it('gives each word as its character pairs with match=any, and keeps letters and digits as words', () => {
    expect(clauses(splitCjkWords(ask('iPhone手机在中华人民共和国', 'any')))).toEqual([
      'iphone',
      '手机',
      '中华',
      '人民',
      '共和',
      '和国',
    ]);
    expect(clauses(splitCjkWords(ask('iPhone手机在中华人民共和国')))).toEqual([
      'iphone',
      '手机',
      '中华',
      '人民',
      '共和国',
    ]);
  });
  it('gives a character at either end of a run to the word beside it', () => {
    // ICU gives 计算机 as 计算, 机 and 图书馆 as 图书, 馆.
    expect(splitCjkWords(ask('图书馆')).query.root).toEqual({ type: 'term', text: '图书馆', field: 'any' });
    expect(clauses(splitCjkWords(ask('计算机', 'any')))).toEqual(['计算', '算机']);
  });
  it('joins one-character words in a row, but not across punctuation', () => {
    // ICU gives 互联网 as 互, 联, 网.
    expect(clauses(splitCjkWords(ask('互联网公司，好吗')))).toEqual(['互联网', '公司', '好吗']);
  });
  it('splits Japanese, leaving out particles and auxiliaries', () => {
    expect(clauses(splitCjkWords(ask('東京の天気は晴れです', 'any')))).toEqual(['東京', '天気', '晴れ']);
    expect(clauses(splitCjkWords(ask('日本語を勉強しています')))).toEqual(['日本語', '勉強']);
    // A word in kana alone is a word; one of grammar alone is searched as typed.
    expect(clauses(splitCjkWords(ask('ありがとう')))).toEqual(['ありがとう']);
    expect(clauses(splitCjkWords(ask('です')))).toEqual(['です']);
  });
  it('asks a Japanese verb or adjective by the part its forms share, beside the form typed', () => {
    const terms = (...texts: string[]) => texts.map((text) => ({ type: 'term', text, field: 'any' }));
    // ICU gives 食べたい as 食, べた, い, and 行きたい as 行き, たい.
    expect(splitCjkWords(ask('寿司を食べたい')).query.root).toEqual({
      type: 'and',
      children: [
        { type: 'term', text: '寿司', field: 'any' },
        { type: 'or', children: terms('食べた', '食べ') },
      ],
    });
    expect(clauses(splitCjkWords(ask('京都に行きたい')))).toEqual(['京都', '行き']);
    expect(clauses(splitCjkWords(ask('日本に来たばかり')))).toEqual(['日本', '来た']);
    // A dictionary form whose ending changes is any of its forms; with match=any each is optional.
    expect(splitCjkWords(ask('書く')).query.root).toEqual({
      type: 'or',
      children: terms('書く', '書か', '書き', '書け', '書こ', '書い', '書っ'),
    });
    expect(clauses(splitCjkWords(ask('手紙を書く', 'any')))).toEqual([
      '手紙',
      '書く',
      '書か',
      '書き',
      '書け',
      '書こ',
      '書い',
      '書っ',
    ]);
    // A kanji alone before a particle, with each particle; not one written onto a number.
    expect(splitCjkWords(ask('本を')).query.root).toEqual({
      type: 'or',
      children: terms('本を', '本が', '本は', '本に', '本で', '本と', '本も', '本へ', '本や'),
    });
    expect(clauses(splitCjkWords(ask('3月9日に東京で')))).toEqual(['3月9日', '東京']);
    // Words whose kana are no inflection are asked as typed.
    for (const word of ['焼きそば', '雪だるま', '子ども', '鹿せんべい']) {
      expect(splitCjkWords(ask(word)).query.root).toEqual({ type: 'term', text: word, field: 'any' });
    }
    // Chinese has no kana: its words are not read so.
    expect(clauses(splitCjkWords(ask('高山')))).toEqual(['高山']);
    // A word's forms in an OR group; a side of several words, and Chinese ones, as typed.
    expect(splitCjkWords(ask('見る OR 北京 OR 東京で寿司')).query.root).toEqual({
      type: 'or',
      children: terms(
        '見る',
        '見ら',
        '見り',
        '見れ',
        '見ろ',
        '見っ',
        '見た',
        '見ま',
        '見て',
        '見な',
        '見よ',
        '見さ',
        '見ず',
        '北京',
        '東京で寿司',
      ),
    });
  });
  it('keeps a Japanese word in hiragana whole, however ICU cuts it', () => {
    // ICU gives かに as か, に (both particles elsewhere), とんかつ as と, ん, かつ.
    expect(clauses(splitCjkWords(ask('北海道のかに')))).toEqual(['北海道', 'かに']);
    expect(clauses(splitCjkWords(ask('かにを食べたい')))).toEqual(['かに', 'or']);
    for (const word of ['かにかま', 'ずわいがに', 'とんかつ', 'ようかん', 'ものまね']) {
      expect(clauses(splitCjkWords(ask(word)))).toEqual([word]);
    }
    // Kana opening a compound are one word with it; an adjective is a word of its own.
    expect(clauses(splitCjkWords(ask('から揚げ')))).toEqual(['から揚げ']);
    expect(clauses(splitCjkWords(ask('ゆで卵')))).toEqual(['ゆで卵']);
    expect(clauses(splitCjkWords(ask('かわいい猫')))).toEqual(['かわいい', '猫']);
  });
  it('keeps other words and phrases as typed beside the split run', () => {
    expect(clauses(splitCjkWords(ask('weather 北京天气 "上海天气" intitle:预报', 'any')))).toEqual([
      'weather',
      '北京',
      '天气',
      '上海天气',
      '预报',
    ]);
  });
  it('splits an intitle: run into words, each required in the title', () => {
    for (const match of ['all', 'any'] as const) {
      expect(splitCjkWords(ask('intitle:北京的天气预报', match)).query.root).toEqual({
        type: 'and',
        children: [
          { type: 'term', text: '北京', field: 'title' },
          { type: 'term', text: '天气', field: 'title' },
          { type: 'term', text: '预报', field: 'title' },
        ],
      });
    }
  });
  it('keeps a word of one character, which has nothing else', () => {
    expect(splitCjkWords(ask('猫')).query.root).toEqual({ type: 'term', text: '猫', field: 'any' });
  });
  it('keeps a character beside letters only as a word, not a particle', () => {
    expect(clauses(splitCjkWords(ask('iPhone手')))).toEqual(['iphone', '手']);
    expect(clauses(splitCjkWords(ask('A股', 'any')))).toEqual(['a', '股']);
    // Beside a word of its script it is still a particle, or joins it at an end.
    expect(clauses(splitCjkWords(ask('iPhone的价格')))).toEqual(['iphone', '价格']);
    expect(clauses(splitCjkWords(ask('北京第5中学')))).toEqual(['北京', '5', '中学']);
  });
  it('keeps a number and the characters written onto it as one word, in either mode', () => {
    for (const match of ['all', 'any'] as const) {
      expect(clauses(splitCjkWords(ask('3月9日', match)))).toEqual(['3月9日']);
      expect(clauses(splitCjkWords(ask('2月11日，走进', match)))).toEqual(['2月11日', '走进']);
      // A unit before a word is left out (the index holds `日上`, `日报`), as a particle is.
      expect(clauses(splitCjkWords(ask('2024年3月9日上午', match)))).toEqual(['2024年3月9', '上午']);
      expect(clauses(splitCjkWords(ask('10月14日报道', match)))).toEqual(['10月14', '报道']);
    }
    expect(clauses(splitCjkWords(ask('2024年')))).toEqual(['2024年']);
    expect(clauses(splitCjkWords(ask('第5章')))).toEqual(['第5章']);
    expect(clauses(splitCjkWords(ask('100元', 'any')))).toEqual(['100元']);
    expect(clauses(splitCjkWords(ask('12时30分')))).toEqual(['12时30分']);
    expect(clauses(splitCjkWords(ask('3点半')))).toEqual(['3点半']);
    expect(clauses(splitCjkWords(ask('5个苹果')))).toEqual(['5', '苹果']);
    // A character before the number, after a word, is no ordinal of it.
    expect(clauses(splitCjkWords(ask('价格是5元')))).toEqual(['价格', '5元']);
    // A word of the dictionary after a number stays a word of its own.
    expect(clauses(splitCjkWords(ask('2024年度报告')))).toEqual(['2024', '年度', '报告']);
  });
  it('asks a phrase with spaces between Chinese or Japanese characters without them, or as typed', () => {
    const phrase = (text: string) => ({ type: 'phrase', text, field: 'any' });
    expect(splitCjkWords(ask('"人工 智能"')).query.root).toEqual({
      type: 'or',
      children: [phrase('人工智能'), phrase('人工 智能')],
    });
    expect(splitCjkWords(ask('"味噌 ラーメン" OR ramen')).query.root).toEqual({
      type: 'or',
      children: [phrase('味噌ラーメン'), phrase('味噌 ラーメン'), { type: 'term', text: 'ramen', field: 'any' }],
    });
    expect(splitCjkWords(ask('-"人工 智能" AI')).query.root).toEqual({
      type: 'and',
      children: [
        { type: 'not', child: { type: 'or', children: [phrase('人工智能'), phrase('人工 智能')] } },
        { type: 'term', text: 'AI', field: 'any' },
      ],
    });
    // Spaces beside letters, and Korean's, are left.
    expect(clauses(splitCjkWords(ask('"AI 人工 智能"')))).toEqual(['or']);
    expect(splitCjkWords(ask('"AI 人工 智能"')).query.root).toMatchObject({ children: [phrase('AI 人工智能'), {}] });
    const spaced = ask('"AI 人工智能" "서울 대학교"');
    expect(splitCjkWords(spaced)).toBe(spaced);
  });
  it('leaves OR groups and queries without CJK words as typed', () => {
    const or = ask('北京天气 OR 上海天气', 'any');
    expect(splitCjkWords(or)).toBe(or);
    const english = ask('beijing weather', 'any');
    expect(splitCjkWords(english)).toBe(english);
  });
});
