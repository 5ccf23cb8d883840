import { describe, expect, it } from '@jest/globals';
import type { IndexQuery } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import { ANALYSIS_VERSION } from './analysis-version.js';
import { HYPHENATED_JOINED_SINCE, joinableWords, NUMBERS_JOINED_SINCE, withJoinedWords } from './joined-words.js';

const query = (q: string, match: 'all' | 'any' = 'all'): IndexQuery => ({
  query: parseQuery(q),
  match,
  limit: 10,
  offset: 0,
});
/** The query's root after every hyphenated word is taken as held by the index. */
const rewritten = (q: string, match: 'all' | 'any' = 'all') => {
  const asked = query(q, match);
  return withJoinedWords(asked, joinableWords(asked)).query.root;
};

describe('withJoinedWords', () => {
  it('makes the word its joined word where every page holds joined spellings', () => {
    const asked = query('e-mail marketing -spam');
    expect(withJoinedWords(asked, joinableWords(asked), ANALYSIS_VERSION).query.root).toEqual({
      type: 'and',
      children: [
        { type: 'term', text: 'email', field: 'any' },
        { type: 'term', text: 'marketing', field: 'any' },
        { type: 'not', child: { type: 'term', text: 'spam', field: 'any' } },
      ],
    });
  });

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

  it('asks a grouped number as its digits from the analysis version that joins numbers, before as either', () => {
    const asked = query('$10,000 grants');
    const words = joinableWords(asked);
    expect(words.map(({ joined, since }) => [joined, since])).toEqual([['10000', NUMBERS_JOINED_SINCE]]);
    expect(withJoinedWords(asked, words, NUMBERS_JOINED_SINCE).query.root).toEqual({
      type: 'and',
      children: [
        { type: 'term', text: '10000', field: 'any' },
        { type: 'term', text: 'grants', field: 'any' },
      ],
    });
    // An index whose pages hold joined hyphenated words but not yet joined numbers.
    expect(withJoinedWords(asked, words, HYPHENATED_JOINED_SINCE).query.root).toEqual({
      type: 'and',
      children: [
        {
          type: 'or',
          children: [
            { type: 'phrase', text: '$10,000', field: 'any' },
            { type: 'term', text: '10000', field: 'any' },
          ],
        },
        { type: 'term', text: 'grants', field: 'any' },
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
