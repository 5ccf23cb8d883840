import { describe, expect, it } from '@jest/globals';
import { parseQuery } from '@quarry/query';
import { relaxable } from './relax.js';

describe('relaxable', () => {
  it('takes a question of three words or more besides stop words', () => {
    expect(relaxable(parseQuery('what are the structural problems of high speed aircraft?'))).toBe(true);
    expect(relaxable(parseQuery('solar panel efficiency'))).toBe(true);
    // Stop words do not count, nor does a word said twice.
    expect(relaxable(parseQuery('what is the zeppelin'))).toBe(false);
    expect(relaxable(parseQuery('solar solar panel'))).toBe(false);
  });

  it('counts only plain words: phrases, intitle:, exclusions and OR groups stay as written', () => {
    expect(relaxable(parseQuery('"solar panel efficiency" roof'))).toBe(false);
    expect(relaxable(parseQuery('intitle:solar panel efficiency'))).toBe(false);
    expect(relaxable(parseQuery('solar panel -efficiency'))).toBe(false);
    expect(relaxable(parseQuery('solar (panel OR roof) efficiency'))).toBe(false);
    expect(relaxable(parseQuery('site:example.com filetype:pdf solar panel efficiency'))).toBe(true);
  });

  it('reads a URL or a word of several parts as one word, and a run of Chinese as its words', () => {
    expect(relaxable(parseQuery('https://example.com/solar/panel'))).toBe(false);
    expect(relaxable(parseQuery('state-of-the-art heat-transfer'))).toBe(false);
    expect(relaxable(parseQuery('今天北京的天气怎么样'))).toBe(true);
    expect(relaxable(parseQuery('北京'))).toBe(false);
  });
});
