import { describe, expect, it } from '@jest/globals';
import type { PageDocument } from '@quarry/core';
import { isMeiliDocumentId, MAX_TITLE_WORDS, toMeiliDocument, truncateChars } from './document.js';

function page(overrides: Partial<PageDocument> = {}): PageDocument {
  return {
    id: 'AAAAAAAAAAAAAAAAAAAAAA',
    url: 'https://docs.example.com/a',
    title: 'Solar Cells: A Primer',
    body_text: 'Solar cells turn light into electricity.',
    lang: 'en',
    author: null,
    published_at: '2025-03-01T00:00:00Z',
    crawled_at: '2026-11-22T08:15:30Z',
    site_name: 'Example',
    has_llms_txt: false,
    filetype: 'html',
    domain: 'docs.example.com',
    word_count: 6,
    ...overrides,
  };
}

describe('toMeiliDocument', () => {
  it('labels a page with the site values it answers to, as the embedded index does', () => {
    const hosts = (url: string, domain: string) => toMeiliDocument(page({ url, domain }), 100).site_hosts;
    expect(hosts('https://Example.COM./', 'example.com.')).toEqual(['example.com', 'com']);
    expect(hosts('https://badexample.com/', 'badexample.com')).not.toContain('example.com');
    // An address is one name; IPv6 in brackets, as `normalizeSite` writes a `site:` value.
    expect(hosts('http://127.0.0.1/x', '127.0.0.1')).toEqual(['127.0.0.1', '127.0.0.1/x']);
    expect(hosts('http://[::1]:8080/x', '::1')).toEqual(['[::1]', '[::1]:8080', '[::1]/x', '[::1]:8080/x']);
  });

  it('stores the searchable, filterable and displayed fields', () => {
    expect(toMeiliDocument(page(), 100_000)).toEqual({
      id: 'AAAAAAAAAAAAAAAAAAAAAA',
      url: 'https://docs.example.com/a',
      title: 'Solar Cells: A Primer',
      body: 'Solar cells turn light into electricity.',
      lead: 'Solar cells turn light into electricity.',
      site_name: 'Example',
      domain: 'docs.example.com',
      // Each domain but the last with the path's segments: `site:example.com/a`.
      site_hosts: ['docs.example.com', 'example.com', 'com', 'docs.example.com/a', 'example.com/a'],
      title_words: ['solar', 'cells', 'a', 'primer'],
      lang: 'en',
      filetype: 'html',
      crawled_at: '2026-11-22T08:15:30Z',
      crawled_at_secs: Date.UTC(2026, 10, 22, 8, 15, 30) / 1000,
      published_at: '2025-03-01T00:00:00Z',
      published_at_secs: Date.UTC(2025, 2, 1) / 1000,
      has_llms_txt: false,
      simhash: null,
    });
    expect(toMeiliDocument(page({ simhash: '0123456789abcdef' }), 100_000).simhash).toBe('0123456789abcdef');
  });

  it('puts Chinese and Japanese text in the localized attributes', () => {
    const zh = toMeiliDocument(page({ lang: 'zh', title: '搜索引擎', body_text: '全文' }), 100);
    expect([zh.title, zh.title_zh, zh.body, zh.body_zh]).toEqual([undefined, '搜索引擎', undefined, '全文']);
    expect(zh.title_words).toEqual(['搜索', '引擎']);
    const ja = toMeiliDocument(page({ lang: 'ja', title: '検索エンジン', body_text: '本文' }), 100);
    expect([ja.title_ja, ja.body_ja]).toEqual(['検索エンジン', '本文']);
  });

  it('bounds the body, the lead and the title words', () => {
    const doc = toMeiliDocument(
      page({ body_text: 'x'.repeat(5000), title: Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ') }),
      1000,
    );
    expect(doc.body).toHaveLength(1000);
    expect(doc.lead.length).toBeLessThanOrEqual(400);
    expect(doc.title_words).toHaveLength(MAX_TITLE_WORDS);
  });

  it('keeps missing dates null', () => {
    const doc = toMeiliDocument(page({ published_at: null }), 10);
    expect([doc.published_at, doc.published_at_secs]).toEqual([null, null]);
  });
});

describe('truncateChars', () => {
  it('never splits a surrogate pair', () => {
    expect(truncateChars('ab🙂cd', 3)).toBe('ab');
    expect(truncateChars('ab🙂cd', 4)).toBe('ab🙂');
    expect(truncateChars('abc', 10)).toBe('abc');
  });
});

describe('isMeiliDocumentId', () => {
  it('accepts page ids and refuses anything that is not a Meilisearch id', () => {
    expect(isMeiliDocumentId('AbC_-0123456789abcdefg')).toBe(true);
    for (const bad of ['', '../x', 'a b', 'a"b', 'é', 'x'.repeat(512)]) expect(isMeiliDocumentId(bad)).toBe(false);
  });
});
