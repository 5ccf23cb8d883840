import { describe, expect, it } from '@jest/globals';
import { SIMHASH_NEAR_BITS, simhash, simhashDistance } from './simhash.js';

const article = Array.from(
  { length: 40 },
  (_, i) =>
    `Paragraph ${i} explains how the airship hangar keeps its humidity low while the crew inspects envelope panel ${i * 7}.`,
).join('\n\n');

describe('simhash', () => {
  it('gives 16 hex digits, the same for the same text whatever its case and spacing', () => {
    const hash = simhash(article);
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(simhash(article.toUpperCase().replace(/\n\n/g, '   '))).toBe(hash);
  });

  it('keeps the fingerprints stored by earlier releases (pages indexed before compare with pages indexed after)', () => {
    // Values of the first implementation (shingle strings, bit-by-bit counts).
    expect(simhash(article)).toBe('3ed7eebd54da2bdf');
    expect(simhash('Two words')).toBe('b2af9b96210c08cb');
    expect(simhash('这是一个用于测试中文网页抓取与全文检索的页面，内容包括分布式爬虫、网页正文抽取和中文分词。')).toBe(
      '502d07e20e802986',
    );
    expect(simhash('Ünïcödé ﬁne ＦＵＬＬ width 123 and more words here')).toBe('11f045a17dd171c3');
  });

  it('is null for a text without words', () => {
    expect(simhash('')).toBeNull();
    expect(simhash(' -- !! ')).toBeNull();
  });

  it('puts a copy with another date line within the near-copy distance', () => {
    const dated = `Updated 24 November 2026, 10:15 UTC\n\n${article}\n\nCopyright 2026 The Airship Gazette.`;
    expect(simhashDistance(simhash(article)!, simhash(dated)!)).toBeLessThanOrEqual(SIMHASH_NEAR_BITS);
  });

  it('keeps different texts far apart', () => {
    const other = article.replace(/airship hangar keeps its humidity low/g, 'bakery oven keeps its crust crisp');
    expect(simhashDistance(simhash(article)!, simhash(other)!)).toBeGreaterThan(SIMHASH_NEAR_BITS * 3);
  });

  it('hashes Chinese text by character', () => {
    const zh = '这是一个用于测试中文网页抓取与全文检索的页面，内容包括分布式爬虫、网页正文抽取和中文分词。'.repeat(4);
    expect(simhashDistance(simhash(zh)!, simhash(`${zh}北京`)!)).toBeLessThanOrEqual(SIMHASH_NEAR_BITS);
    expect(
      simhashDistance(simhash(zh)!, simhash('北京时间今天上午，研究人员发布了新的搜索引擎评测报告。')!),
    ).toBeGreaterThan(SIMHASH_NEAR_BITS);
  });
});

describe('simhashDistance', () => {
  it('counts differing bits', () => {
    expect(simhashDistance('0000000000000000', '0000000000000000')).toBe(0);
    expect(simhashDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(simhashDistance('8000000000000001', '0000000000000000')).toBe(2);
    expect(simhashDistance('00000000F0000000', '0000000000000000')).toBe(4);
  });

  it('is null for anything but 16 hex digits', () => {
    expect(simhashDistance('abc', '0000000000000000')).toBeNull();
    expect(simhashDistance('000000000000000g', '0000000000000000')).toBeNull();
  });
});
