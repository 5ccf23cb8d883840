import { describe, expect, it } from '@jest/globals';
import { normalizeLang } from './lang.js';

describe('normalizeLang', () => {
  it('keeps the primary subtag in lower case', () => {
    expect(normalizeLang('zh-CN')).toBe('zh');
    expect(normalizeLang(' EN_us ')).toBe('en');
    expect(normalizeLang('und')).toBe('und');
  });

  it('gives the two-letter code of a three-letter one, and the current code of a retired one', () => {
    expect(normalizeLang('eng')).toBe('en');
    expect(normalizeLang('ENG-GB')).toBe('en');
    expect(normalizeLang('deu')).toBe('de');
    expect(normalizeLang('ger')).toBe('de');
    expect(normalizeLang('chi')).toBe('zh');
    expect(normalizeLang('iw')).toBe('he');
    expect(normalizeLang('in')).toBe('id');
  });

  it('keeps a three-letter code that has no two-letter one', () => {
    expect(normalizeLang('yue')).toBe('yue');
    expect(normalizeLang('fil')).toBe('fil');
  });

  it('refuses what is not a language subtag', () => {
    for (const tag of ['', 'e', 'english', 'e1', '12', '-en', null, undefined]) expect(normalizeLang(tag)).toBeNull();
  });
});
