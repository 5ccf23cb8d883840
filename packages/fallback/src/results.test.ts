import { describe, expect, it } from '@jest/globals';
import type { ParsedQuery } from '@quarry/core';
import { htmlToText } from './html-text.js';
import { type ProviderHit, toSearchResults } from './results.js';
import { and, not, or, phrase, request, term } from './test-server.fixture.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const hit = (url: string, extra: Partial<ProviderHit> = {}): ProviderHit => ({ url, title: `T ${url}`, ...extra });

describe('toSearchResults', () => {
  it('builds complete external results with rank scores in (0, 1)', () => {
    const results = toSearchResults(
      [
        hit('https://Example.com/a', {
          title: 'A &amp; <b>B</b>',
          description: 'x<br>y',
          siteName: 'Ex',
          lang: 'en-US',
          date: '2026-05-01T10:00:00',
        }),
        hit('https://example.com/b'),
      ],
      request(term('a')),
      NOW,
    );
    expect(results[0]).toEqual({
      id: '',
      url: 'https://example.com/a',
      title: 'A & B',
      snippet: 'x y',
      domain: 'example.com',
      site_name: 'Ex',
      lang: 'en',
      score: 0.5,
      source: 'external',
      has_llms_txt: false,
      published_at: '2026-05-01T10:00:00Z',
      crawled_at: '2026-05-01T10:00:00Z',
    });
    expect(results[1]).not.toHaveProperty('site_name');
    expect(results[1]?.lang).toBe('und');
    expect(results[1]?.published_at).toBeNull();
    expect(results[1]?.crawled_at).toBe('2026-06-01T12:00:00Z');
    expect(results[1]!.score).toBeLessThan(results[0]!.score);
  });

  it('skips unusable URLs and duplicates, and respects count', () => {
    const hits = [
      hit('javascript:alert(1)'),
      hit('mailto:a@b.c'),
      hit('https://user:pw@x.org/'),
      hit(`https://x.org/${'a'.repeat(3000)}`),
      hit('not a url'),
      hit('https://x.org/p?utm_source=z'),
      hit('https://X.org/p#frag'),
      hit('https://y.org/'),
      hit('https://z.org/'),
    ];
    expect(toSearchResults(hits, request(term('a')), NOW).map((r) => r.url)).toEqual([
      'https://x.org/p',
      'https://y.org/',
      'https://z.org/',
    ]);
    expect(toSearchResults(hits, request(term('a'), { count: 2 }), NOW)).toHaveLength(2);
  });

  it('keeps only the requested sites, language and time range', () => {
    const hits = [
      hit('https://docs.a.org/', { lang: 'en' }),
      hit('https://b.org/'),
      hit('https://a.org/fr', { lang: 'fr' }),
      hit('https://a.org/old', { date: '2025-01-01T00:00:00Z' }),
      hit('https://a.org/new', { date: '2026-05-30T00:00:00Z' }),
    ];
    const results = toSearchResults(hits, request(term('x'), { sites: ['a.org'], lang: 'en', timeRange: '7d' }), NOW);
    expect(results.map((r) => r.url)).toEqual(['https://docs.a.org/', 'https://a.org/new']);
    expect(results.every((r) => r.lang === 'en')).toBe(true);
  });

  it('keeps a hit without a language for a requested language only when its script can be that language', () => {
    const hits = [
      hit('https://a.org/latin', { title: 'Async Rust: a guide to tokio and its runtime' }),
      hit('https://a.org/han', { title: 'Rust 异步编程：tokio 运行时入门指南与实践经验总结' }),
      hit('https://a.org/short', { title: 'Tokio' }),
      // Eight Chinese characters are four words: enough to tell (two are not).
      hit('https://a.org/short-han', { title: '中文标题', description: '中文内容' }),
      hit('https://a.org/two-han', { title: '指南' }),
      hit('https://a.org/said', { title: 'Async Rust: a guide to tokio and its runtime', lang: 'zh' }),
    ];
    const urls = (lang: string) => toSearchResults(hits, request(term('x'), { lang }), NOW).map((r) => r.url);
    // A Latin title is not Chinese; too short to tell is kept; the provider's own tag is believed.
    expect(urls('zh')).toEqual([
      'https://a.org/han',
      'https://a.org/short',
      'https://a.org/short-han',
      'https://a.org/two-han',
      'https://a.org/said',
    ]);
    expect(urls('ja')).toEqual([
      'https://a.org/han',
      'https://a.org/short',
      'https://a.org/short-han',
      'https://a.org/two-han',
    ]);
    // Nor is a Chinese title English; Latin languages are not told apart by their script.
    expect(urls('en')).toEqual(['https://a.org/latin', 'https://a.org/short', 'https://a.org/two-han']);
    expect(urls('de')).toEqual(['https://a.org/latin', 'https://a.org/short', 'https://a.org/two-han']);
  });

  it('keeps only the pages under a requested site path', () => {
    const hits = [hit('https://docs.a.org/Guide/x'), hit('https://a.org/guidebook'), hit('https://a.org/guide')];
    const results = toSearchResults(hits, request(term('x'), { sites: ['a.org/guide'] }), NOW);
    expect(results.map((r) => r.url)).toEqual(['https://docs.a.org/Guide/x', 'https://a.org/guide']);
  });

  it('keeps only URLs naming a requested filetype, a family matching its OOXML twin', () => {
    const hits = [
      hit('https://a.org/report.PDF?download=1'),
      hit('https://a.org/cats'),
      hit('https://a.org/notes.docx'),
      hit('https://a.org/page.html'),
      hit('https://a.org/view?file=x.pdf'),
    ];
    const urls = (filetypes: ParsedQuery['filetypes']) =>
      toSearchResults(hits, request(term('x'), { filetypes }), NOW).map((r) => r.url);
    expect(urls(['pdf'])).toEqual(['https://a.org/report.PDF?download=1']);
    expect(urls(['pdf', 'doc'])).toEqual(['https://a.org/report.PDF?download=1', 'https://a.org/notes.docx']);
    expect(urls([])).toHaveLength(5);
  });

  it('ignores implausible dates', () => {
    const [r] = toSearchResults([hit('https://a.org/', { date: '2 days ago' })], request(term('x')), NOW);
    expect(r?.published_at).toBeNull();
    const [future] = toSearchResults([hit('https://a.org/', { date: '2099-01-01' })], request(term('x')), NOW);
    expect(future?.published_at).toBeNull();
  });
});

describe('htmlToText', () => {
  it('removes tags, scripts and entities and clips at a word boundary', () => {
    expect(htmlToText('<script>alert(1)</script>Fish &lt;&amp;&gt; <strong>chips</strong>\u0007', 100)).toBe(
      'Fish <&> chips',
    );
    const clipped = htmlToText('alpha beta gamma delta epsilon', 14);
    expect(clipped).toBe('alpha beta…');
    expect(clipped.length).toBeLessThanOrEqual(14);
  });

  it('reads a field of megabytes only as far as its text is shown', () => {
    // `<a` without a closing `>`, a million times over: the tag patterns backtracked for seconds.
    const hostile = `Real description of the page. ${'<a'.repeat(500_000)}`;
    const text = htmlToText(hostile, 300);
    expect(text).toMatch(/^Real description of the page\. <a<a/);
    expect(text.length).toBeLessThanOrEqual(300);
  });
});

describe('toSearchResults with the query’s exclusions and intitle:', () => {
  const hits: ProviderHit[] = [
    hit('https://a.test/1', { title: 'External glacier A', description: 'An article about <b>ice</b>.' }),
    hit('https://a.test/2', { title: 'Quokka facts', description: 'Quokkas live on Rottnest Island.' }),
    hit('https://a.test/3', {
      title: 'Zebra stripes',
      description: 'Why zebras have stripes, and the glacier article.',
    }),
    hit('https://a.test/4', { title: 'Telescopes for beginners', description: 'Buying a first telescope.' }),
    hit('https://a.test/5', { title: '搜索引擎的历史', description: '从目录到爬虫。' }),
  ];
  const urls = (root: Parameters<typeof request>[0]) => toSearchResults(hits, request(root), NOW).map((r) => r.url);

  it('drops a hit whose title or snippet holds an excluded word or phrase, in any form of its stem', () => {
    expect(urls(and(term('quokka'), not(term('glacier'))))).toEqual([
      'https://a.test/2',
      'https://a.test/4',
      'https://a.test/5',
    ]);
    expect(urls(and(term('x'), not(phrase('glacier article'))))).not.toContain('https://a.test/3');
    expect(urls(and(term('x'), not(phrase('glacier article'))))).toContain('https://a.test/1');
    // `-telescope` also rules out `Telescopes`, as the local index reads it.
    expect(urls(and(term('x'), not(term('telescope'))))).not.toContain('https://a.test/4');
    expect(urls(and(term('x'), not(term('引擎'))))).not.toContain('https://a.test/5');
    // `-intitle:` looks at the title only.
    expect(urls(and(term('x'), not(term('ice', 'title'))))).toContain('https://a.test/1');
    expect(urls(and(term('x'), not(term('glacier', 'title'))))).toEqual(
      hits.map((h) => h.url).filter((u) => u !== 'https://a.test/1'),
    );
  });

  it('keeps only hits whose title holds an intitle: word (either side of an OR)', () => {
    expect(urls(and(term('quokka'), term('zebra', 'title')))).toEqual(['https://a.test/3']);
    expect(urls(phrase('glacier a', 'title'))).toEqual(['https://a.test/1']);
    expect(urls(or(term('zebra', 'title'), term('quokka', 'title')))).toEqual(['https://a.test/2', 'https://a.test/3']);
    expect(urls(term('搜索', 'title'))).toEqual(['https://a.test/5']);
  });

  it('keeps a hit whose snippet lacks a plain word or phrase: a snippet is an excerpt', () => {
    expect(urls(and(term('nonexistentwordzz'), phrase('ice cream')))).toHaveLength(hits.length);
  });
});
