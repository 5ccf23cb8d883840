import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { countTokens } from '@quarry/passages';
import { MAX_QUERY_LENGTH } from '@quarry/query';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from './app.js';
import { createFixture, type Fixture, page } from './test-support/fixture.js';
import { specProblems } from './test-support/openapi-validator.js';

const CONTENT = '/api/v1/content/{id}';
const BODY = [
  'Growing tomatoes',
  'Tomatoes like sun. They need water every day in summer.',
  'Soil',
  'Use rich soil with compost. Drain it well so the roots never stand in water.',
  'Pests',
  'Aphids eat the leaves. Spray them with soapy water in the evening.',
].join('\n\n');
const WITH_MARKDOWN = page('https://garden.example.com/tomatoes', {
  body_text: BODY,
  body_markdown:
    '# Growing tomatoes\n\nTomatoes like sun. They need water every day in summer.\n\n## Soil\n\nUse rich soil with compost. Drain it well so the roots never stand in water.\n\n## Pests\n\nAphids eat the leaves. Spray them with soapy water in the evening.',
});
const TEXT_ONLY = page('https://garden.example.com/plain', {
  body_text: 'First paragraph.\n\n# Second, not a heading.',
});

let fx: Fixture;
let app: Express;

beforeAll(async () => {
  fx = await createFixture([WITH_MARKDOWN, TEXT_ONLY]);
  app = createApp(fx.deps());
});
afterAll(async () => {
  await fx.cleanup();
});

async function content(id: string, query: string) {
  const res = await request(app).get(`/api/v1/content/${id}?${query}`);
  expect(specProblems(res, CONTENT, 'get')).toEqual([]);
  return res;
}

describe('GET /api/v1/content/:id extras', () => {
  it('adds the stored body_markdown with format=markdown, nothing with format=text', async () => {
    const md = await content(WITH_MARKDOWN.id, 'format=markdown');
    expect(md.status).toBe(200);
    expect(md.body.body_markdown).toBe(WITH_MARKDOWN.body_markdown);
    expect(md.body.passages).toBeUndefined();
    const text = await content(WITH_MARKDOWN.id, 'format=text');
    expect(Object.keys(text.body).sort()).toEqual([
      'author',
      'body_text',
      'crawled_at',
      'has_llms_txt',
      'id',
      'lang',
      'published_at',
      'title',
      'url',
      'word_count',
    ]);
  });

  it('derives markdown from the text paragraphs when none was stored', async () => {
    const res = await content(TEXT_ONLY.id, 'format=markdown');
    expect(res.body.body_markdown).toBe('First paragraph.\n\n\\# Second, not a heading.');
  });

  it('adds passages that slice body_text exactly, within the budget, with their heading path', async () => {
    const res = await content(WITH_MARKDOWN.id, 'query=aphids%20soapy%20water&max_tokens=40');
    expect(res.status).toBe(200);
    const passages = res.body.passages as {
      text: string;
      start: number;
      end: number;
      score: number;
      heading_path: string[];
    }[];
    expect(passages.length).toBeGreaterThan(0);
    const best = [...passages].sort((a, b) => b.score - a.score)[0]!;
    expect(best.text).toContain('Aphids eat the leaves.');
    expect(best.heading_path).toEqual(['Growing tomatoes', 'Pests']);
    for (const p of passages) expect(BODY.slice(p.start, p.end)).toBe(p.text);
    expect(passages.reduce((sum, p) => sum + countTokens(p.text), 0)).toBeLessThanOrEqual(40);
    expect(res.body.body_text).toBe(BODY);
  });

  it.each([
    ['format=html', 'format'],
    ['format=text&format=markdown', 'format'],
    ['query=', 'query'],
    [`query=${'a'.repeat(MAX_QUERY_LENGTH + 1)}`, 'query'],
    ['query=soil&max_tokens=0', 'max_tokens'],
    ['query=soil&max_tokens=15', 'max_tokens'],
    ['query=soil&max_tokens=32001', 'max_tokens'],
    ['query=soil&max_tokens=1e3', 'max_tokens'],
    ['max_tokens=100', 'max_tokens'],
  ])('answers 400 naming the parameter for %s', async (query, param) => {
    const res = await content(WITH_MARKDOWN.id, query);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.param).toBe(param);
  });

  it('still answers 404 for an unknown id with valid extras', async () => {
    const res = await content('AAAAAAAAAAAAAAAAAAAAAA', 'query=soil');
    expect(res.status).toBe(404);
  });
});
