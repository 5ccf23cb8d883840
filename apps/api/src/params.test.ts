import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '@quarry/core';
import { SEARCH_TOOL_BOUNDS } from '@quarry/mcp';
import { MAX_QUERY_LENGTH } from '@quarry/query';
import { parseSearchParams, SEARCH_BOUNDS } from './params.js';

const NOW = new Date('2026-03-10T12:00:00Z');
const parse = (raw: Record<string, unknown>) => parseSearchParams(raw, NOW);

function paramOf(raw: Record<string, unknown>): string | undefined {
  try {
    parse(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).param;
  }
  throw new Error(`accepted ${JSON.stringify(raw)}`);
}

describe('parseSearchParams', () => {
  it('applies the defaults', () => {
    const p = parse({ q: 'cats' });
    expect(p.indexQuery).toMatchObject({ limit: 10, offset: 0 });
    expect(p.indexQuery).not.toHaveProperty('lang');
    expect(p.indexQuery).not.toHaveProperty('crawledAfter');
    expect(p.query.root).not.toBeNull();
  });

  it('accepts the bounds and refuses just past them', () => {
    expect(parse({ q: 'a', limit: '1', offset: '0' }).indexQuery).toMatchObject({ limit: 1, offset: 0 });
    expect(parse({ q: 'a', limit: '100', offset: '990' }).indexQuery).toMatchObject({ limit: 100, offset: 990 });
    expect(paramOf({ q: 'a', limit: '0' })).toBe('limit');
    expect(paramOf({ q: 'a', limit: '101' })).toBe('limit');
    expect(paramOf({ q: 'a', offset: '991' })).toBe('offset');
  });

  it.each(['10.5', '1e2', '-1', 'abc', '', ' 5', '+5', '0x10', '99999999999999999999', '５'])(
    'refuses the non-decimal integer %p',
    (value) => {
      expect(paramOf({ q: 'a', limit: value })).toBe('limit');
      expect(paramOf({ q: 'a', offset: value })).toBe('offset');
    },
  );

  it('refuses repeated parameters, naming them', () => {
    expect(paramOf({ q: ['a', 'b'] })).toBe('q');
    expect(paramOf({ q: 'a', limit: ['1', '2'] })).toBe('limit');
  });

  it('requires a non-empty q within the length bound', () => {
    expect(paramOf({})).toBe('q');
    expect(paramOf({ q: '' })).toBe('q');
    expect(paramOf({ q: '   ' })).toBe('q');
    expect(paramOf({ q: 'x'.repeat(MAX_QUERY_LENGTH + 1) })).toBe('q');
    expect(() => parse({ q: 'x'.repeat(MAX_QUERY_LENGTH) })).not.toThrow();
  });

  it('normalizes language codes and refuses malformed ones', () => {
    const p = parse({ q: 'a', lang: 'zh-CN', lang_priority: 'EN' });
    expect(p.indexQuery).toMatchObject({ lang: 'zh', langPriority: 'en' });
    for (const bad of ['', 'e', 'english', 'zh CN', '12', 'en-']) {
      expect(paramOf({ q: 'a', lang: bad })).toBe('lang');
      expect(paramOf({ q: 'a', lang_priority: bad })).toBe('lang_priority');
    }
  });

  it('turns time_range into crawledAfter relative to now', () => {
    expect(parse({ q: 'a', time_range: '1d' }).indexQuery.crawledAfter).toBe('2026-03-09T12:00:00Z');
    expect(parse({ q: 'a', time_range: '1y' }).indexQuery.crawledAfter).toBe('2025-03-10T12:00:00Z');
    expect(parse({ q: 'a', time_range: 'all' }).indexQuery).not.toHaveProperty('crawledAfter');
    expect(parse({ q: 'a', time_range: '7d' }).timeRange).toBe('7d');
    for (const bad of ['2d', 'ALL', '', 'constructor', '__proto__'])
      expect(paramOf({ q: 'a', time_range: bad })).toBe('time_range');
  });

  it('normalizes site and refuses what is not a host', () => {
    expect(parse({ q: 'a', site: 'https://Docs.Example.com/' }).indexQuery.site).toBe('docs.example.com');
    expect(parse({ q: 'a', site: 'https://Docs.Example.com/X?y=1' }).indexQuery.site).toBe('docs.example.com/x');
    for (const bad of ['', 'exa mple.com', '"); DROP', '/']) expect(paramOf({ q: 'a', site: bad })).toBe('site');
  });

  it('passes match through to the index (all or any) and refuses anything else', () => {
    expect(parse({ q: 'a' }).indexQuery).not.toHaveProperty('match');
    expect(parse({ q: 'a', match: 'any' }).indexQuery.match).toBe('any');
    expect(parse({ q: 'a', match: 'all' }).indexQuery.match).toBe('all');
    for (const bad of ['', 'ANY', 'some', 'constructor']) expect(paramOf({ q: 'a', match: bad })).toBe('match');
    expect(paramOf({ q: 'a', match: ['any', 'all'] })).toBe('match');
  });

  it('passes query errors through with param q', () => {
    expect(paramOf({ q: '-only -exclusions' })).toBe('q');
  });
});

describe('the MCP search tool', () => {
  it('has the bounds of GET /api/v1/search', () => {
    expect(SEARCH_TOOL_BOUNDS).toEqual({
      qMaxChars: MAX_QUERY_LENGTH,
      limit: SEARCH_BOUNDS.limit,
      offset: SEARCH_BOUNDS.offset,
    });
  });
});
