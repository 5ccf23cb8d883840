import { describe, expect, it } from '@jest/globals';
import { type QueryNode, ValidationError } from '@quarry/core';
import { MAX_QUERY_CLAUSES, MAX_QUERY_LENGTH, MAX_QUERY_WORDS } from './limits.js';
import { parseQuery } from './parser.js';

const t = (text: string, field: 'any' | 'title' = 'any'): QueryNode => ({ type: 'term', text, field });
const p = (text: string, field: 'any' | 'title' = 'any'): QueryNode => ({ type: 'phrase', text, field });
const and = (...children: QueryNode[]): QueryNode => ({ type: 'and', children });
const or = (...children: QueryNode[]): QueryNode => ({ type: 'or', children });
const not = (child: QueryNode): QueryNode => ({ type: 'not', child });
const root = (q: string) => parseQuery(q).root;

/** Asserts that `q` is rejected with a ValidationError on `q` whose message matches `pattern`. */
function expectRejected(q: string, pattern: RegExp): void {
  let caught: unknown;
  try {
    parseQuery(q);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ValidationError);
  expect((caught as ValidationError).param).toBe('q');
  expect((caught as ValidationError).message).toMatch(pattern);
}

describe('words, AND and OR', () => {
  it('ANDs words, and a single word is the root itself', () => {
    expect(root('cats')).toEqual(t('cats'));
    expect(root('cats  dogs')).toEqual(and(t('cats'), t('dogs')));
  });
  it('binds OR tighter than the implicit AND', () => {
    expect(root('cats dogs OR wolves')).toEqual(and(t('cats'), or(t('dogs'), t('wolves'))));
    expect(root('a OR b c OR d')).toEqual(and(or(t('a'), t('b')), or(t('c'), t('d'))));
  });
  it('flattens OR chains', () => {
    expect(root('a OR b OR c')).toEqual(or(t('a'), t('b'), t('c')));
  });
  it('treats lower- and mixed-case or as a word', () => {
    expect(root('cats or dogs')).toEqual(and(t('cats'), t('or'), t('dogs')));
    expect(root('cats Or dogs')).toEqual(and(t('cats'), t('Or'), t('dogs')));
  });
  it('drops leading, trailing and doubled OR', () => {
    expect(root('OR cats')).toEqual(t('cats'));
    expect(root('cats OR')).toEqual(t('cats'));
    expect(root('a OR OR b')).toEqual(or(t('a'), t('b')));
    expect(root('OR OR a OR OR')).toEqual(t('a'));
  });
  it('rejects a query made only of OR', () => {
    expectRejected('OR', /no words/);
    expectRejected('OR OR', /no words/);
  });
  it('drops duplicate clauses, but keeps a plain word said again as query term frequency', () => {
    expect(root('a OR a b')).toEqual(and(t('a'), t('b')));
    expect(root('x -y -y')).toEqual(and(t('x'), not(t('y'))));
    expect(root('"a b" "a b" intitle:c intitle:c')).toEqual(and(p('a b'), t('c', 'title')));
    // A question or an OR of words that says a word twice weighs it twice.
    expect(root('cats cats')).toEqual(and(t('cats'), t('cats')));
    expect(root('cats OR dogs OR cats')).toEqual(or(t('cats'), t('dogs'), t('cats')));
  });
  it('keeps text as typed, including case', () => {
    expect(root('Cats DOGS')).toEqual(and(t('Cats'), t('DOGS')));
  });
});

describe('phrases', () => {
  it('makes a phrase of quoted text with whitespace collapsed', () => {
    expect(root('"exact   phrase"')).toEqual(p('exact phrase'));
    expect(root('a "b c" d')).toEqual(and(t('a'), p('b c'), t('d')));
  });
  it('keeps a one-word phrase a phrase', () => {
    expect(root('"cats"')).toEqual(p('cats'));
  });
  it('runs an unbalanced quote to the end', () => {
    expect(root('a "b c')).toEqual(and(t('a'), p('b c')));
    expect(root('a "b" "c d')).toEqual(and(t('a'), p('b'), p('c d')));
  });
  it('ignores empty phrases', () => {
    expect(root('"" cats "  "')).toEqual(t('cats'));
    expectRejected('""', /no words/);
  });
  it('keeps operators literal inside a phrase', () => {
    expect(root('"site:x.org -a OR b"')).toEqual(p('site:x.org -a OR b'));
  });
  it('takes phrases as OR operands', () => {
    expect(root('"a b" OR c')).toEqual(or(p('a b'), t('c')));
  });
});

describe('exclusions', () => {
  it('excludes words, phrases and title clauses', () => {
    expect(root('a -b -"c d" -intitle:e')).toEqual(and(t('a'), not(t('b')), not(p('c d')), not(t('e', 'title'))));
  });
  it('ignores a lone dash or double dash', () => {
    expect(root('a - b -- c')).toEqual(and(t('a'), t('b'), t('c')));
  });
  it('keeps inner and trailing hyphens in the word', () => {
    expect(root('e-mail state-of-the-art x-')).toEqual(and(t('e-mail'), t('state-of-the-art'), t('x-')));
  });
  it('refuses an exclusion as an OR operand, which no reading answers as asked', () => {
    for (const q of ['a OR -b', '-a OR b', 'a OR -b OR c', '-a OR -b c', 'a -b OR site:x.org', 'site:x.org OR -b a']) {
      expectRejected(q, /an exclusion \(-word\) cannot be one side of an OR/);
    }
    // An OR beside an exclusion but not joining it, or an exclusion of nothing searchable, is fine.
    expect(root('-a b OR c')).toEqual(and(not(t('a')), or(t('b'), t('c'))));
    expect(root('b OR c -a')).toEqual(and(or(t('b'), t('c')), not(t('a'))));
    expect(root('a OR -... b')).toEqual(or(t('a'), t('b')));
  });
  it('rejects a query of exclusions only, with a reason', () => {
    expectRejected('-foo -bar', /only exclusions/);
    expectRejected('-"a b"', /only exclusions/);
  });
  it('accepts exclusions under a positive operator (site:, filetype:) as an and of exclusions', () => {
    // Issue 10 changed this: `-foo site:x.org` was rejected; site: is a positive operator.
    expect(parseQuery('site:127.0.0.1 -gitlab')).toEqual({
      root: and(not(t('gitlab'))),
      sites: ['127.0.0.1'],
      filetypes: [],
    });
    expect(parseQuery('-foo -"a b" filetype:pdf').root).toEqual(and(not(t('foo')), not(p('a b'))));
    // The request's own filter (the API's site parameter) counts as one.
    expect(parseQuery('-gitlab', { filtered: true })).toEqual({
      root: and(not(t('gitlab'))),
      sites: [],
      filetypes: [],
    });
    expect(() => parseQuery('*', { filtered: true })).toThrow(/no words/);
  });
  it('rejects excluding a site or a file type', () => {
    expectRejected('a -site:x.org', /Excluding a site/);
    expectRejected('a -filetype:pdf', /Excluding a file type/);
  });
});

describe('intitle:', () => {
  it('makes title-only terms and phrases, case-insensitively', () => {
    expect(root('intitle:cats')).toEqual(t('cats', 'title'));
    expect(root('InTitle:"big  cats" dogs')).toEqual(and(p('big cats', 'title'), t('dogs')));
  });
  it('takes part in OR', () => {
    expect(root('a OR intitle:b')).toEqual(or(t('a'), t('b', 'title')));
  });
  it('keeps the rest of the word as the value', () => {
    expect(root('intitle:re:invent')).toEqual(t('re:invent', 'title'));
    expect(root('intitle:OR')).toEqual(t('OR', 'title'));
  });
  it('rejects a missing or empty value', () => {
    expectRejected('intitle:', /intitle: operator needs a value/);
    expectRejected('intitle: cats', /intitle: operator needs a value/);
    expectRejected('cats -intitle:', /intitle: operator needs a value/);
    expectRejected('intitle:"" cats', /intitle: operator needs a value/);
    expectRejected('intitle:!!!', /intitle: operator needs a word/);
  });
});

describe('site:', () => {
  it('pulls normalized hosts into sites, ORed and deduplicated', () => {
    expect(parseQuery('cats site:a.com SITE:A.com site:b.org site:a.com')).toEqual({
      root: t('cats'),
      sites: ['a.com', 'b.org'],
      filetypes: [],
    });
  });
  it('accepts URLs and quoted values', () => {
    expect(parseQuery('x site:https://Docs.Example.com/ site:"y.org"').sites).toEqual(['docs.example.com', 'y.org']);
  });
  it('keeps a path, cut to its first five segments, without query or fragment', () => {
    expect(parseQuery('x site:https://Docs.Example.com/Path/?q=1#top').sites).toEqual(['docs.example.com/path']);
    expect(parseQuery('x site:github.com/owner/repo/tree/main/docs/api').sites).toEqual([
      'github.com/owner/repo/tree/main/docs',
    ]);
    expect(() => parseQuery('x site:/docs')).toThrow(/host name/);
  });
  it('is valid alone, with a null root', () => {
    expect(parseQuery('site:x.org')).toEqual({ root: null, sites: ['x.org'], filetypes: [] });
  });
  it('rejects a missing value or an invalid host', () => {
    expectRejected('site:', /site: operator needs a value/);
    expectRejected('cats site: dogs', /site: operator needs a value/);
    expectRejected('cats site:exa_mple!', /host name/);
  });
  it('is not one side of an OR with a word or phrase: filters apply to the whole query', () => {
    for (const q of [
      'a OR site:x.org b',
      'site:x.org OR a',
      'cats OR filetype:pdf',
      '"a b" OR filetype:pdf',
      'intitle:a OR site:x.org',
    ]) {
      expectRejected(q, /OR joins words and phrases; site: and filetype:/);
    }
    // Two filters ORed are what several filters mean anyway.
    expect(parseQuery('a site:x.org OR site:y.org')).toEqual({
      root: t('a'),
      sites: ['x.org', 'y.org'],
      filetypes: [],
    });
    expect(parseQuery('a OR b site:x.org')).toEqual({ root: or(t('a'), t('b')), sites: ['x.org'], filetypes: [] });
  });
});

describe('filetype:', () => {
  it('accepts pdf, doc, ppt, xls case-insensitively and maps OOXML to its family', () => {
    expect(parseQuery('x filetype:PDF filetype:docx filetype:Pptx filetype:xlsx filetype:doc').filetypes).toEqual([
      'pdf',
      'doc',
      'ppt',
      'xls',
    ]);
  });
  it('maps OpenDocument formats to their family', () => {
    expect(parseQuery('x filetype:odt').filetypes).toEqual(['doc']);
    expect(parseQuery('x filetype:ODP filetype:.ods').filetypes).toEqual(['ppt', 'xls']);
  });
  it('rejects other values naming the allowed ones, and a missing value', () => {
    expectRejected('x filetype:exe', /pdf, doc, ppt or xls.*"exe"/);
    expectRejected('x filetype:', /filetype: operator needs a value/);
  });
});

describe('ordinary words that look like operators', () => {
  it('keeps re:invent, c++, URLs and times as single terms', () => {
    for (const word of ['re:invent', 'c++', 'http://example.com/a?b=c', '10:30', 'sitemap:', 'C#']) {
      expect(root(word)).toEqual(t(word));
    }
  });
});

describe('input hygiene', () => {
  it('applies NFKC: full-width operators, spaces and quotes work', () => {
    expect(parseQuery('ｃａｔｓ\u3000ＳＩＴＥ：ｘ．ｏｒｇ ＂ａ ｂ＂')).toEqual({
      root: and(t('cats'), p('a b')),
      sites: ['x.org'],
      filetypes: [],
    });
  });
  it('treats smart quotes as quotes', () => {
    expect(root('“big cats” -“wild dogs”')).toEqual(and(p('big cats'), not(p('wild dogs'))));
  });
  it('treats control characters, NUL bytes and zero-width characters as whitespace', () => {
    expect(root('cats\u0000dogs\u200Bfish\u0007birds\r\nants')).toEqual(
      and(t('cats'), t('dogs'), t('fish'), t('birds'), t('ants')),
    );
    expectRejected('\u0000\u200B\uFEFF', /must not be empty/);
  });
  it('keeps mixed scripts, emoji and unspaced CJK as ordinary words', () => {
    expect(root('猫 cats 🐱')).toEqual(and(t('猫'), t('cats'), t('🐱')));
    expect(root('搜索引擎 検索エンジン')).toEqual(and(t('搜索引擎'), t('検索エンジン')));
    expect(root('👨‍👩‍👧 OR кошки')).toEqual(or(t('👨‍👩‍👧'), t('кошки')));
  });
  it('drops punctuation-only words and rejects a query of punctuation only', () => {
    expect(root('cats ... !!!')).toEqual(t('cats'));
    expectRejected('!!! ??? ... ,', /no words/);
    expectRejected('"..."', /no words/);
  });
});

describe('limits and empty input', () => {
  it('rejects empty and whitespace-only queries', () => {
    expectRejected('', /must not be empty/);
    expectRejected(' \t\n\u3000 ', /must not be empty/);
  });
  it('rejects a query over MAX_QUERY_LENGTH code points but counts an emoji as one', () => {
    expect(() => parseQuery('a'.repeat(MAX_QUERY_LENGTH))).not.toThrow();
    expect(() => parseQuery('🐱'.repeat(MAX_QUERY_LENGTH))).not.toThrow();
    expectRejected('a'.repeat(MAX_QUERY_LENGTH + 1), /too long/);
    expectRejected('🐱'.repeat(MAX_QUERY_LENGTH + 1), /too long/);
  });
  it('rejects huge queries before any other work, in well under a millisecond each', () => {
    for (const size of [10_000, 1_000_000]) {
      const huge = 'cats OR "dogs '.repeat(size / 14);
      expectRejected(huge, /too long/);
      let rejected = 0;
      const started = performance.now();
      for (let i = 0; i < 200; i++) {
        try {
          parseQuery(huge);
        } catch (error) {
          if (error instanceof ValidationError) rejected++;
        }
      }
      expect(rejected).toBe(200);
      expect((performance.now() - started) / 200).toBeLessThan(0.5);
    }
  });
  it('rejects a query whose canonical form would be too long', () => {
    // U+3300 (㌀) expands to four characters under NFKC.
    expectRejected('\u3300'.repeat(MAX_QUERY_LENGTH / 2), /too long/);
  });
  it('allows MAX_QUERY_WORDS plain words, all required or joined with OR, and rejects one more', () => {
    const words = (n: number, joiner = ' ') => Array.from({ length: n }, (_, i) => `w${i}`).join(joiner);
    expect(parseQuery(words(MAX_QUERY_WORDS)).root).toMatchObject({ type: 'and' });
    expect(parseQuery(words(MAX_QUERY_WORDS, ' OR ')).root).toMatchObject({ type: 'or' });
    expectRejected(words(MAX_QUERY_WORDS + 1), /too many terms/);
    expectRejected(words(MAX_QUERY_WORDS + 1, ' OR '), /too many terms/);
    // A filter beside them is not a term.
    expect(() => parseQuery(`${words(MAX_QUERY_WORDS)} site:example.com`)).not.toThrow();
    // Words said again count once (a pasted paragraph repeats its words): they stay, as weight.
    const repeated = parseQuery(`${words(MAX_QUERY_WORDS)} ${words(50)}`).root;
    expect(repeated?.type === 'and' && repeated.children.length).toBe(MAX_QUERY_WORDS + 50);
  });
  it('allows MAX_QUERY_CLAUSES clauses in a query with operators and rejects one more', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    expect(parseQuery(`${words(MAX_QUERY_CLAUSES - 1)} "a phrase"`).root).toMatchObject({
      children: expect.arrayContaining([{ type: 'phrase', text: 'a phrase', field: 'any' }]),
    });
    expectRejected(`${words(MAX_QUERY_CLAUSES)} intitle:x`, /too many terms/);
    expectRejected(`${words(MAX_QUERY_CLAUSES)} "a phrase" intitle:x`, /too many terms/);
    expectRejected(`${words(MAX_QUERY_CLAUSES - 1)} a OR b`, /too many terms/);
    expectRejected(`x ${Array.from({ length: MAX_QUERY_CLAUSES }, (_, i) => `-n${i}`).join(' ')}`, /too many/);
  });
  it("reads a paragraph past the operators' limit whose only operators are quotes as its words", () => {
    // CISI query 110, pasted whole: 148 words quoting "Office of the Future" and others.
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    const root = parseQuery(`${words(MAX_QUERY_CLAUSES)} "office of the future" ${words(10)}`).root;
    expect(root?.type).toBe('and');
    const children = root?.type === 'and' ? root.children : [];
    expect(children.every((child) => child.type === 'term')).toBe(true);
    expect(children.map((child) => (child.type === 'term' ? child.text : ''))).toContain('future');
    // Within the limit a quote is a phrase; beyond the word limit the paragraph is still refused.
    expect(parseQuery('"office of the future" today').root).toMatchObject({ type: 'and' });
    expectRejected(`${Array.from({ length: MAX_QUERY_WORDS }, (_, i) => `v${i}`).join(' ')} "a b"`, /too many terms/);
  });
  it('parses a query at the length limit quickly', () => {
    const operands = Array.from({ length: 32 }, (_, i) => `w${i} OR "p ${i} q"`).join(' ');
    const q = `${operands} ${'-'.repeat(MAX_QUERY_LENGTH - operands.length - 1)}`;
    expect(Array.from(q)).toHaveLength(MAX_QUERY_LENGTH);
    const started = performance.now();
    for (let i = 0; i < 100; i++) expect(parseQuery(q).root?.type).toBe('and');
    expect((performance.now() - started) / 100).toBeLessThan(5);
  });
  it('rejects non-string input with a ValidationError', () => {
    expect(() => parseQuery(undefined as unknown as string)).toThrow(ValidationError);
    expect(() => parseQuery(42 as unknown as string)).toThrow(ValidationError);
  });
});
