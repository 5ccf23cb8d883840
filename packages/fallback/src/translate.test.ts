import { describe, expect, it } from '@jest/globals';
import { braveSearchLang } from './brave.js';
import { searxngWord } from './searxng.js';
import { and, not, or, phrase, request, term } from './test-server.fixture.js';
import { effectiveSites, renderQuery } from './translate.js';

const plain = { word: (w: string) => w, maxQueryChars: 400 };
const searx = { word: searxngWord, maxQueryChars: 1000 };

describe('renderQuery', () => {
  it('writes words, phrases, exclusions, intitle and OR in the shared syntax', () => {
    const root = and(
      term('cats'),
      or(term('dogs'), phrase('grey wolves')),
      not(term('tiger')),
      not(phrase('big cats')),
      term('care', 'title'),
      phrase('feeding guide', 'title'),
    );
    expect(renderQuery(request(root), plain)).toBe(
      'cats dogs OR "grey wolves" -tiger -"big cats" intitle:care intitle:"feeding guide"',
    );
  });

  it('appends site: and filetype: filters, ORed among themselves', () => {
    const r = request(term('report'), { sites: ['a.org', 'b.org'], filetypes: ['pdf', 'doc'] });
    expect(renderQuery(r, plain)).toBe('report site:a.org OR site:b.org filetype:pdf OR filetype:doc');
  });

  it('asks for a site with a port as its host, which web search engines know', () => {
    const r = request(term('report'), { sites: ['a.org:8080/docs', '[2001:db8::7]:8080', 'b.org'] });
    expect(renderQuery(r, plain)).toBe('report site:a.org/docs OR site:[2001:db8::7] OR site:b.org');
  });

  it('accepts an operator-only query and rejects an empty one', () => {
    expect(renderQuery(request(null, { sites: ['x.org'] }), plain)).toBe('site:x.org');
    expect(renderQuery(request(null), plain)).toBeNull();
    expect(renderQuery(request(term('"')), plain)).toBeNull();
  });

  it('keeps operator-looking words ordinary by quoting them', () => {
    const root = and(term('re:invent'), term('OR'), term('+1'), term('lang:fr', 'title'));
    expect(renderQuery(request(root), plain)).toBe('"re:invent" "OR" "+1" intitle:"lang:fr"');
  });

  it('drops exclusions of groups, which cannot be written without parentheses', () => {
    const root = and(term('a'), not(or(term('b'), term('c'))));
    expect(renderQuery(request(root), plain)).toBe('a');
  });

  it('strips stray quotes so phrases stay balanced', () => {
    expect(renderQuery(request(phrase('say "hi" now')), plain)).toBe('"say hi now"');
  });

  it('strips SearXNG bang and language prefixes from words', () => {
    const root = and(term('!g'), term(':fr'), term('!!'), term('rust'));
    expect(renderQuery(request(root), searx)).toBe('g fr rust');
  });

  it('cuts an over-long query at a token boundary without half a phrase or a dangling OR', () => {
    const words = Array.from({ length: 30 }, (_, i) => term(`word${i}`));
    const long = renderQuery(request(and(...words, phrase('tail phrase here'))), { ...plain, maxQueryChars: 60 });
    expect(long?.length).toBeLessThanOrEqual(60);
    expect(long).toMatch(/^word0 word1 .*word\d+$/);
    const cutPhrase = renderQuery(request(and(term('alpha'), phrase('one two three four five'))), {
      ...plain,
      maxQueryChars: 20,
    });
    expect(cutPhrase).toBe('alpha');
    const cutOr = renderQuery(request(or(term('alpha'), term('beta'), term('gamma'))), { ...plain, maxQueryChars: 16 });
    expect(cutOr).toBe('alpha OR beta');
  });
});

describe('effectiveSites', () => {
  it('intersects site: operators with the site parameter', () => {
    expect(effectiveSites(request(null, { site: 'Example.com' }))).toEqual(['example.com']);
    expect(effectiveSites(request(null, { site: 'example.com', sites: ['docs.example.com', 'x.org'] }))).toEqual([
      'docs.example.com',
    ]);
    expect(effectiveSites(request(null, { site: 'docs.example.com', sites: ['example.com'] }))).toEqual([
      'docs.example.com',
    ]);
    expect(effectiveSites(request(null, { site: 'a.org', sites: ['b.org'] }))).toBeNull();
    expect(effectiveSites(request(null, { sites: ['b.org'] }))).toEqual(['b.org']);
  });

  it('intersects sites with paths by their segments', () => {
    expect(effectiveSites(request(null, { site: 'example.com/Docs', sites: ['example.com'] }))).toEqual([
      'example.com/docs',
    ]);
    expect(effectiveSites(request(null, { site: 'example.com', sites: ['docs.example.com/api/v2'] }))).toEqual([
      'docs.example.com/api/v2',
    ]);
    expect(effectiveSites(request(null, { site: 'example.com/docs', sites: ['example.com/blog'] }))).toBeNull();
    expect(renderQuery(request(term('x'), { sites: ['example.com/docs'] }), plain)).toBe('x site:example.com/docs');
  });

  it('makes a request with disjoint sites render to nothing', () => {
    expect(renderQuery(request(term('x'), { site: 'a.org', sites: ['b.org'] }), plain)).toBeNull();
  });
});

describe('braveSearchLang', () => {
  it('maps primary subtags to Brave codes and omits unsupported ones', () => {
    expect(braveSearchLang('en')).toBe('en');
    expect(braveSearchLang('zh-CN')).toBe('zh-hans');
    expect(braveSearchLang('ja')).toBe('jp');
    expect(braveSearchLang('pt')).toBe('pt-pt');
    expect(braveSearchLang('xx')).toBeUndefined();
    expect(braveSearchLang('und')).toBeUndefined();
    expect(braveSearchLang(undefined)).toBeUndefined();
  });
});
