import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '@quarry/core';
import {
  allOf,
  crawledAfterCondition,
  equals,
  escapeFilterValue,
  filetypeCondition,
  siteCondition,
  titleWordsCondition,
  validLang,
  validSite,
} from './filter.js';

type Token = { kind: 'word'; text: string } | { kind: 'string'; value: string };

/**
 * Tokenizes a filter the way Meilisearch's filter parser reads it: a double-quoted string runs to
 * the first unescaped `"`, and `\x` inside it stands for `x`; outside strings, whitespace separates
 * words and brackets, parentheses and commas are words of their own.
 */
function lex(filter: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < filter.length) {
    const c = filter[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"') {
      let value = '';
      i++;
      while (i < filter.length && filter[i] !== '"') {
        if (filter[i] === '\\') i++;
        value += filter[i] ?? '';
        i++;
      }
      if (filter[i] !== '"') throw new Error(`unterminated string in ${filter}`);
      i++;
      tokens.push({ kind: 'string', value });
    } else if ('[](),'.includes(c)) {
      tokens.push({ kind: 'word', text: c });
      i++;
    } else {
      let text = '';
      while (i < filter.length && !/[\s"[\](),]/.test(filter[i]!)) text += filter[i++];
      tokens.push({ kind: 'word', text });
    }
  }
  return tokens;
}

const INJECTIONS = [
  'a" OR lang = "en',
  'x") OR (lang != "zz',
  'back\\slash',
  'ends with backslash\\',
  '\\" OR 1 = 1 OR "\\',
  '"',
  '""',
  '\\\\"\\\\',
  'line\nbreak" OR lang = "en',
  'tab\there',
  'nul\u0000byte',
  '中文" OR lang = "ja',
  '🙂 emoji "quoted" 🙂',
  "single ' quote",
  'a IN [b] AND c TO d',
];

describe('escapeFilterValue', () => {
  it('wraps the value in double quotes and escapes backslashes and quotes', () => {
    expect(escapeFilterValue('example.com')).toBe('"example.com"');
    expect(escapeFilterValue('a"b')).toBe('"a\\"b"');
    expect(escapeFilterValue('a\\b')).toBe('"a\\\\b"');
    expect(escapeFilterValue('')).toBe('""');
  });

  it.each(INJECTIONS)('keeps %j one string value that reads back unchanged', (payload) => {
    const tokens = lex(escapeFilterValue(payload));
    expect(tokens).toEqual([{ kind: 'string', value: payload }]);
  });

  it.each(INJECTIONS)('cannot add a condition through equals(): %j', (payload) => {
    const filter = allOf([equals('site_hosts', payload), equals('lang', 'en')])!;
    expect(lex(filter)).toEqual([
      { kind: 'word', text: '(' },
      { kind: 'word', text: 'site_hosts' },
      { kind: 'word', text: '=' },
      { kind: 'string', value: payload },
      { kind: 'word', text: ')' },
      { kind: 'word', text: 'AND' },
      { kind: 'word', text: '(' },
      { kind: 'word', text: 'lang' },
      { kind: 'word', text: '=' },
      { kind: 'string', value: 'en' },
      { kind: 'word', text: ')' },
    ]);
  });
});

describe('filter builders', () => {
  it('allOf parenthesizes each condition and is undefined for none', () => {
    expect(allOf([])).toBeUndefined();
    expect(allOf(['a = 1'])).toBe('a = 1');
    expect(allOf(['a = 1', 'b = 2 OR c = 3'])).toBe('(a = 1) AND (b = 2 OR c = 3)');
  });

  it('matches one site with = and several with IN', () => {
    expect(siteCondition(['example.com'])).toBe('site_hosts = "example.com"');
    expect(siteCondition(['a.org', 'b.org'])).toBe('site_hosts IN ["a.org", "b.org"]');
  });

  it('expands filetype families to the stored types', () => {
    expect(filetypeCondition(['pdf'])).toBe('filetype IN ["pdf"]');
    expect(filetypeCondition(['doc', 'xls'])).toBe('filetype IN ["doc", "docx", "odt", "xls", "xlsx", "ods"]');
    expect(filetypeCondition(['ppt', 'ppt'])).toBe('filetype IN ["ppt", "pptx", "odp"]');
    expect(() => filetypeCondition(['exe' as never])).toThrow(ValidationError);
  });

  it('compares crawl times in epoch seconds and rejects invalid times', () => {
    expect(crawledAfterCondition('2026-11-22T08:15:00Z')).toBe(
      `crawled_at_secs >= ${Date.UTC(2026, 10, 22, 8, 15) / 1000}`,
    );
    expect(crawledAfterCondition('2026-11-22T08:15:00.999Z')).toBe(
      `crawled_at_secs >= ${Date.UTC(2026, 10, 22, 8, 15) / 1000}`,
    );
    expect(() => crawledAfterCondition('yesterday" OR 1 = 1')).toThrow(ValidationError);
  });

  it('requires every title word, or excludes pages with all of them', () => {
    expect(titleWordsCondition(['solar'], false)).toBe('title_words = "solar"');
    expect(titleWordsCondition(['solar', 'cells', 'solar'], false)).toBe(
      '(title_words = "solar") AND (title_words = "cells")',
    );
    expect(titleWordsCondition(['solar'], true)).toBe('NOT (title_words = "solar")');
    expect(titleWordsCondition([], false)).toBeUndefined();
  });

  it('validates sites and languages before they reach a filter', () => {
    expect(validSite('Docs.Example.COM', 'site')).toBe('docs.example.com');
    expect(validSite('https://example.com/', 'site')).toBe('example.com');
    // A path is kept, percent-encoded: a quote in it cannot close the filter's string.
    expect(validSite('https://example.com/Docs/a"b', 'site')).toBe('example.com/docs/a%22b');
    expect(siteCondition([validSite('example.com/docs', 'site')])).toBe('site_hosts = "example.com/docs"');
    // An IPv6 address as the document labels it (see document.ts), brackets inside the string.
    expect(siteCondition([validSite('2001:DB8::7', 'site')])).toBe('site_hosts = "[2001:db8::7]"');
    expect(siteCondition([validSite('[2001:db8::7]:8080/Lab', 'site')])).toBe('site_hosts = "[2001:db8::7]:8080/lab"');
    for (const bad of ['a" OR lang = "en', 'exa mple.com', '', '..']) {
      const error = (() => {
        try {
          validSite(bad, 'site');
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).param).toBe('site');
    }
    expect(validLang('zh-CN', 'lang')).toBe('zh');
    expect(() => validLang('en" OR lang = "zh', 'lang')).toThrow(ValidationError);
    expect(() => validLang('e', 'lang_priority')).toThrow(ValidationError);
  });
});
