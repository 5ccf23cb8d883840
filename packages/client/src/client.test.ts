import { describe, expect, it } from '@jest/globals';
import { parseRetryAfter, QuarryClient } from './client.js';

describe('parseRetryAfter', () => {
  const nowMs = Date.parse('2026-11-24T10:00:00Z');
  it.each([
    ['12', 12],
    [' 0 ', 0],
    ['Tue, 24 Nov 2026 10:00:30 GMT', 30],
    ['Tue, 24 Nov 2026 09:00:00 GMT', 0],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
  ])('reads %s as %s seconds', (value, secs) => {
    expect(parseRetryAfter(value, nowMs)).toBe(secs);
  });
});

describe('QuarryClient URLs', () => {
  it('keeps a base path prefix and encodes the id', async () => {
    const urls: string[] = [];
    const recording: typeof fetch = async (input) => {
      urls.push(String(input));
      return new Response('{"total":0,"took_ms":0,"results":[]}', { headers: { 'content-type': 'application/json' } });
    };
    const client = new QuarryClient({ baseUrl: 'https://search.example.com/quarry', fetch: recording });
    await client.search('a b&c', { limit: 5, lang: undefined });
    await client.content('x/y', { format: 'markdown' });
    expect(urls).toEqual([
      'https://search.example.com/quarry/api/v1/search?q=a+b%26c&limit=5',
      'https://search.example.com/quarry/api/v1/content/x%2Fy?format=markdown',
    ]);
  });
});
