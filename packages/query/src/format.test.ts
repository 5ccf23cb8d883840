import { describe, expect, it } from '@jest/globals';
import { formatQuery, positiveClauses } from './format.js';
import { parseQuery } from './parser.js';

describe('formatQuery', () => {
  it('writes the canonical form: root first, then filters', () => {
    expect(formatQuery(parseQuery('SITE:Example.com  cats dogs OR “wild  wolves” -intitle:"x y" filetype:DOCX'))).toBe(
      'cats dogs OR "wild wolves" -intitle:"x y" site:example.com filetype:doc',
    );
  });
  it('writes filters alone when the root is null', () => {
    expect(formatQuery(parseQuery('site:x.org filetype:pdf'))).toBe('site:x.org filetype:pdf');
  });
  it('round-trips hand-picked awkward queries', () => {
    const queries = [
      'a "b c',
      'intitle:OR -OR x',
      'intitle:-x y',
      'intitle:site:x y',
      '-"a b" c OR "d"',
      'a OR b -c OR',
      '👨‍👩‍👧 猫 re:invent c++',
      'soft\u00AD\u0301x',
      'site:ÄÖÜ.de x',
    ];
    for (const q of queries) {
      const parsed = parseQuery(q);
      expect(parseQuery(formatQuery(parsed))).toEqual(parsed);
    }
  });
});

describe('positiveClauses', () => {
  it('lists non-excluded terms and phrases once each, in query order', () => {
    expect(positiveClauses(parseQuery('a OR "b c" -d intitle:e a OR f -"g h" site:x.org'))).toEqual([
      { text: 'a', kind: 'term', field: 'any' },
      { text: 'b c', kind: 'phrase', field: 'any' },
      { text: 'e', kind: 'term', field: 'title' },
      { text: 'f', kind: 'term', field: 'any' },
    ]);
  });
  it('is empty for a filter-only query', () => {
    expect(positiveClauses(parseQuery('site:x.org'))).toEqual([]);
  });
});
