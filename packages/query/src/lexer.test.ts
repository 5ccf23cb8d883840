import { describe, expect, it } from '@jest/globals';
import { sanitizeQuery, tokenize } from './lexer.js';

const lex = (q: string) => tokenize(sanitizeQuery(q));

describe('sanitizeQuery', () => {
  it('applies NFKC so full-width letters, colons, quotes and spaces become ASCII', () => {
    expect(sanitizeQuery('ＳＩＴＥ：ｘ．ｏｒｇ\u3000＂ａ＂')).toBe('SITE:x.org "a"');
  });
  it('turns smart quotes into plain quotes', () => {
    expect(sanitizeQuery('“a b” „c‟')).toBe('"a b" "c"');
  });
  it('turns control, zero-width, bidi and lone-surrogate characters into spaces', () => {
    expect(sanitizeQuery('a\u0000b\u200Bc\u2060d\uFEFFe\u202Ef\tg\u0007h\uD800i')).toBe('a b c d e f g h i');
  });
  it('keeps a zero-width joiner inside an emoji sequence but not between letters', () => {
    expect(sanitizeQuery('👨\u200D👩\u200D👧')).toBe('👨\u200D👩\u200D👧');
    expect(sanitizeQuery('a\u200Db')).toBe('a b');
  });
  it('removes soft hyphens inside words', () => {
    expect(sanitizeQuery('soft\u00ADware')).toBe('software');
  });
});

describe('tokenize', () => {
  it('splits words, phrases and OR', () => {
    expect(lex('cats "big dogs" OR wolves')).toEqual([
      { kind: 'word', text: 'cats', negated: false },
      { kind: 'phrase', text: 'big dogs', negated: false },
      { kind: 'or' },
      { kind: 'word', text: 'wolves', negated: false },
    ]);
  });
  it('treats only the upper-case standalone OR as an operator', () => {
    expect(lex('or Or OR ORE')).toEqual([
      { kind: 'word', text: 'or', negated: false },
      { kind: 'word', text: 'Or', negated: false },
      { kind: 'or' },
      { kind: 'word', text: 'ORE', negated: false },
    ]);
  });
  it('negates with a leading dash and drops dash-only words', () => {
    expect(lex('-a --b - -- -"c d" e-f')).toEqual([
      { kind: 'word', text: 'a', negated: true },
      { kind: 'word', text: '--b', negated: false },
      { kind: 'phrase', text: 'c d', negated: true },
      { kind: 'word', text: 'e-f', negated: false },
    ]);
  });
  it('reads a word after two dashes as a command-line option to find, not an exclusion', () => {
    expect(lex('git commit --amend ---x -Syu --"c d" --site:a.org')).toEqual([
      { kind: 'word', text: 'git', negated: false },
      { kind: 'word', text: 'commit', negated: false },
      { kind: 'word', text: '--amend', negated: false },
      { kind: 'word', text: '---x', negated: false },
      { kind: 'word', text: 'Syu', negated: true },
      { kind: 'phrase', text: 'c d', negated: true },
      { kind: 'operator', name: 'site', value: 'a.org', quoted: false, negated: true },
    ]);
  });
  it('separates words a comma or semicolon joins, but not the digits of a number', () => {
    expect(lex('obama,sudan 1,000 a;b; -c,d')).toEqual([
      { kind: 'word', text: 'obama', negated: false },
      { kind: 'word', text: 'sudan', negated: false },
      { kind: 'word', text: '1,000', negated: false },
      { kind: 'word', text: 'a', negated: false },
      { kind: 'word', text: 'b', negated: false },
      { kind: 'word', text: 'c,d', negated: true },
    ]);
  });
  it('ends a word at a quote, so words never hold quotes', () => {
    expect(lex('ab"cd ef"gh')).toEqual([
      { kind: 'word', text: 'ab', negated: false },
      { kind: 'phrase', text: 'cd ef', negated: false },
      { kind: 'word', text: 'gh', negated: false },
    ]);
  });
  it('runs an unclosed phrase to the end and collapses its whitespace', () => {
    expect(lex('x "  a \n b ')).toEqual([
      { kind: 'word', text: 'x', negated: false },
      { kind: 'phrase', text: 'a b', negated: false },
    ]);
  });
  it('reads operators case-insensitively, with word or quoted values', () => {
    expect(lex('SITE:a.org InTitle:"x  y" -intitle:z filetype:')).toEqual([
      { kind: 'operator', name: 'site', value: 'a.org', quoted: false, negated: false },
      { kind: 'operator', name: 'intitle', value: 'x y', quoted: true, negated: false },
      { kind: 'operator', name: 'intitle', value: 'z', quoted: false, negated: true },
      { kind: 'operator', name: 'filetype', value: '', quoted: false, negated: false },
    ]);
  });
  it('leaves other name:value words alone', () => {
    expect(lex('re:invent http://x.org/a?b=c 10:30').map((t) => t.kind)).toEqual(['word', 'word', 'word']);
  });
});
