import { describe, expect, it } from '@jest/globals';
import { joinedTokens, joinedWord } from './joined.js';

describe('joinedWord', () => {
  it('joins the two parts of a hyphenated word', () => {
    expect(joinedWord('e-mail')).toBe('email');
    expect(joinedWord('Wi-Fi')).toBe('WiFi');
    expect(joinedWord('covid-19')).toBe('covid19');
    // A non-breaking hyphen (U+2011) and the hyphen (U+2010) too.
    expect(joinedWord('e\u2011book')).toBe('ebook');
    expect(joinedWord('on\u2010line')).toBe('online');
  });

  it('leaves alone what is not a word of two parts', () => {
    expect(joinedWord('email')).toBeNull();
    expect(joinedWord('2020-21')).toBeNull(); // a range of numbers
    expect(joinedWord('state-of-the-art')).toBeNull();
    expect(joinedWord('re:invent')).toBeNull();
    expect(joinedWord('-mail')).toBeNull();
    expect(joinedWord('北京-上海')).toBeNull();
  });
});

describe('joinedTokens', () => {
  it('gives the index token of each two-part hyphenated word of a text, once per occurrence', () => {
    expect(joinedTokens('COVID-19 and e-mails; more e-mails, Wi\u2011Fi.', 'en')).toEqual([
      'covid19',
      'email',
      'email',
      'wifi',
    ]);
    // Not stemmed where the language is not.
    expect(joinedTokens('Die E-Mails kommen.', 'de')).toEqual(['emails']);
  });

  it('skips chains, ranges, dashes and texts without a hyphen', () => {
    expect(joinedTokens('state-of-the-art, 2020-21, pages 3-4, well - known, -x, y-', 'en')).toEqual([]);
    expect(joinedTokens('No hyphen here.', 'en')).toEqual([]);
  });
});
