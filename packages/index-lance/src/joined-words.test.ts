import { describe, expect, it } from '@jest/globals';
import type { IndexQuery } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import { hyphenatedWords, joinedWord, withJoinedWords } from './joined-words.js';

const query = (q: string, match: 'all' | 'any' = 'all'): IndexQuery => ({
  query: parseQuery(q),
  match,
  limit: 10,
  offset: 0,
});
/** The query's root after every hyphenated word is taken as held by the index. */
const rewritten = (q: string, match: 'all' | 'any' = 'all') => {
  const asked = query(q, match);
  return withJoinedWords(asked, hyphenatedWords(asked)).query.root;
};

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

describe('withJoinedWords', () => {
  it('makes a required word the group of its phrase and its joined word', () => {
    expect(rewritten('e-mail marketing')).toEqual({
      type: 'and',
      children: [
        {
          type: 'or',
          children: [
            { type: 'phrase', text: 'e-mail', field: 'any' },
            { type: 'term', text: 'email', field: 'any' },
          ],
        },
        { type: 'term', text: 'marketing', field: 'any' },
      ],
    });
    expect(rewritten('intitle:e-book')).toEqual({
      type: 'or',
      children: [
        { type: 'phrase', text: 'e-book', field: 'title' },
        { type: 'term', text: 'ebook', field: 'title' },
      ],
    });
  });

  it('adds the joined word as one more optional word with match=any; intitle: stays required', () => {
    expect(rewritten('e-mail marketing', 'any')).toEqual({
      type: 'and',
      children: [
        { type: 'term', text: 'e-mail', field: 'any' },
        { type: 'term', text: 'marketing', field: 'any' },
        { type: 'term', text: 'email', field: 'any' },
      ],
    });
    expect(rewritten('intitle:e-mail tips', 'any')).toEqual({
      type: 'and',
      children: [
        {
          type: 'or',
          children: [
            { type: 'phrase', text: 'e-mail', field: 'title' },
            { type: 'term', text: 'email', field: 'title' },
          ],
        },
        { type: 'term', text: 'tips', field: 'any' },
      ],
    });
  });

  it('leaves phrases, exclusions, OR groups and words the index does not hold as typed', () => {
    for (const q of ['"e-mail marketing"', 'marketing -e-mail', 'e-mail OR post']) {
      expect(rewritten(q)).toEqual(parseQuery(q).root);
    }
    const asked = query('e-mail marketing');
    expect(withJoinedWords(asked, [])).toBe(asked);
  });
});
