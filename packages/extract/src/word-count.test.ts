import { describe, expect, it } from '@jest/globals';
import { countWords } from './word-count.js';

describe('countWords', () => {
  it('counts whitespace-separated words and ignores bare punctuation', () => {
    expect(countWords('Hello, world — again | ok')).toBe(4);
    expect(countWords('  \n\t ')).toBe(0);
    expect(countWords('Привет мир')).toBe(2);
  });

  it('segments Chinese into words, not characters', () => {
    const n = countWords('我们喜欢学习中文');
    expect(n).toBeGreaterThanOrEqual(3);
    expect(n).toBeLessThan(8);
  });

  it('mixes CJK segmentation with spaced words', () => {
    expect(countWords('我们 hello world')).toBe(3);
    expect(countWords('iPhone手机')).toBe(2);
  });

  it('segments Japanese and Thai', () => {
    expect(countWords('私は学生です')).toBeGreaterThanOrEqual(3);
    expect(countWords('ภาษาไทยง่าย')).toBeGreaterThanOrEqual(2);
  });
});
