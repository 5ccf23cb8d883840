import { describe, expect, it } from '@jest/globals';
import { joinedIn, joinedTokens, joinedWord } from './joined.js';

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

  it('reads a number without the currency sign or punctuation around it, a hyphenated word with it', () => {
    expect(joinedWord('$10,000')).toBe('10000');
    expect(joinedWord('(€10.000)')).toBe('10000');
    expect(joinedWord('heat-transfer?')).toBeNull();
  });

  it("joins a number written in groups of three digits, or in India's groups", () => {
    expect(joinedWord('10,000')).toBe('10000');
    expect(joinedWord('$1,250,000')).toBe('1250000');
    expect(joinedWord('1.000.000')).toBe('1000000');
    expect(joinedWord('10\u00a0000')).toBe('10000'); // a non-breaking space
    expect(joinedWord('10\u202f000')).toBe('10000'); // a narrow one, as French writes it
    expect(joinedWord("1'000")).toBe('1000');
    expect(joinedWord('1,00,000')).toBe('100000');
  });

  it('leaves alone numbers that are not grouped, or not only a grouped number', () => {
    expect(joinedWord('10000')).toBeNull();
    expect(joinedWord('3.14')).toBeNull(); // a decimal
    expect(joinedWord('0.500')).toBeNull(); // a decimal too: no group starts with a zero
    expect(joinedWord('10,000.50')).toBeNull(); // the amount, not ten thousand
    expect(joinedWord('2024.05.01')).toBeNull();
    expect(joinedWord('1,000,0000')).toBeNull(); // a group of four
    expect(joinedWord('1,000.000')).toBeNull(); // two separators
    expect(joinedWord('v1.234.567')).toBeNull(); // a version
    expect(joinedWord('1.2.345')).toBeNull();
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
    // Stemmed by the page's language; not stemmed where the language is not.
    expect(joinedTokens('Die E-Mails kommen.', 'de')).toEqual(['email']);
    expect(joinedTokens('Die E-Mails kommen.', 'und')).toEqual(['emails']);
  });

  it('skips chains, ranges, dashes and texts without a hyphen', () => {
    expect(joinedTokens('state-of-the-art, 2020-21, pages 3-4, well - known, -x, y-', 'en')).toEqual([]);
    expect(joinedTokens('No hyphen here.', 'en')).toEqual([]);
  });

  it('gives the digits of each grouped number, without its decimal part', () => {
    expect(joinedTokens('Population 1,234,567; the fee is $10,000.50, or 10.000 € (1.000,50 €).', 'en')).toEqual([
      '1234567',
      '10000',
      '10000',
      '1000',
    ]);
    expect(joinedTokens('Un prix de 10 000 € et 1 000 000 de visiteurs.', 'fr')).toEqual(['10000', '1000000']);
    // Separators that are not grouping: a time, a version, a phone number's groups, a year after a number.
    expect(joinedTokens('At 12.30, v1.234.567, 1,000,0000, call 212 555 1234, in 5 2020.', 'en')).toEqual([]);
  });
});

describe('joinedIn', () => {
  it('finds hyphenated words and grouped numbers in the order they are written', () => {
    expect(
      joinedIn('10,000 e-mails, then 2,500 more e-mails').map(({ start, end, joined }) => [start, end, joined]),
    ).toEqual([
      [0, 6, '10000'],
      [7, 14, 'emails'],
      [21, 26, '2500'],
      [32, 39, 'emails'],
    ]);
  });
});
