import { describe, expect, it } from '@jest/globals';
import { specProblems } from './openapi-validator.js';

const json = { 'content-type': 'application/json; charset=utf-8' };
const problemType = { 'content-type': 'application/problem+json; charset=utf-8' };
const limited = { ratelimit: '"public"; r=1; t=60', 'ratelimit-policy': '"public"; q=2; w=60; pk=:x:' };

describe('specProblems (the API tests rely on it catching drift)', () => {
  it('accepts a conforming search response', () => {
    const body = { total: 0, took_ms: 1, results: [] };
    expect(specProblems({ status: 200, headers: { ...json, ...limited }, body }, '/api/v1/search')).toEqual([]);
  });

  it('flags undocumented statuses, missing headers, wrong media types and extra fields', () => {
    const body = { total: 0, took_ms: 1.5, results: [], extra: true };
    expect(specProblems({ status: 418, headers: json, body }, '/api/v1/search')).toHaveLength(1);
    const found = specProblems({ status: 200, headers: json, body }, '/api/v1/search');
    expect(found.join('\n')).toMatch(/RateLimit/);
    expect(found.join('\n')).toMatch(/additional properties|integer/);
    expect(specProblems({ status: 200, headers: { ...problemType, ...limited }, body }, '/api/v1/search')).toHaveLength(
      1,
    );
    const tooMany = { type: '/docs#problem-rate-limited', title: 'x', status: 429, detail: 'y' };
    const noRetry = specProblems(
      { status: 429, headers: { ...problemType, ...limited }, body: tooMany },
      '/api/v1/search',
    );
    expect(noRetry).toEqual(['missing required header Retry-After']);
  });

  it('flags a content response with an internal column', () => {
    const body = {
      id: 'a',
      url: 'https://x.example/',
      title: '',
      body_text: '',
      author: null,
      published_at: null,
      lang: 'en',
      word_count: 0,
      crawled_at: '2026-01-01T00:00:00Z',
      has_llms_txt: false,
      domain: 'x.example',
    };
    expect(specProblems({ status: 200, headers: { ...json, ...limited }, body }, '/api/v1/content/{id}')).toHaveLength(
      1,
    );
  });
});
