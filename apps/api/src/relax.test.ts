import { describe, expect, it } from '@jest/globals';
import { parseQuery } from '@quarry/query';
import { plainWordCount, readsAsSentence, shouldRelax } from './relax.js';

const count = (q: string): number => plainWordCount(parseQuery(q));

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
    expect(shouldRelax(q('what is solar panel efficiency'), 0)).toBe(true);
    expect(shouldRelax(q('what is solar panel efficiency'), 2)).toBe(false);
    expect(shouldRelax(q('what is solar panel efficiency on roofs'), 2)).toBe(true);
    expect(shouldRelax(q('what is solar panel efficiency on roofs'), 9)).toBe(true);
    expect(shouldRelax(q('what is solar panel efficiency on roofs'), 10)).toBe(false);
  });

  it('keeps keywords that some pages hold together an AND, unless there are five or more', () => {
    expect(shouldRelax(q('solar panel efficiency'), 0)).toBe(true);
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
