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
    ['max_tokens=15', 'max_tokens'],
    ['max_tokens=100&start=-1', 'start'],
    ['start=1.5', 'start'],
    ['start=', 'start'],
    ['start=0&start=10', 'start'],
    ['query=soil&start=10', 'start'],
    [`start=${BODY.length}`, 'start'],
    ['format=markdown&start=100000', 'start'],
  ])('answers 400 naming the parameter for %s', async (query, param) => {
    const res = await content(WITH_MARKDOWN.id, query);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.param).toBe(param);
  });

  it('reads the page in portions without query: each within max_tokens, ending a sentence, together the page', async () => {
    let start = 0;
    const parts: string[] = [];
    for (let i = 0; i < 20 && start < BODY.length; i++) {
      const res = await content(WITH_MARKDOWN.id, `max_tokens=16&start=${start}`);
      expect(res.status).toBe(200);
      const { portion, body_text: text } = res.body as {
        portion: { start: number; end: number; length: number; tokens: number };
        body_text: string;
      };
      expect(res.body.body_markdown).toBeUndefined();
      expect(portion).toEqual({ start, end: start + text.length, length: BODY.length, tokens: countTokens(text) });
      expect(portion.tokens).toBeLessThanOrEqual(16);
      // It ends a paragraph or a sentence, and takes the whitespace after it.
      expect(portion.end === BODY.length || /(?:[.!?] +|\n\n)$/.test(text)).toBe(true);
      expect(res.body.word_count).toBe(WITH_MARKDOWN.word_count);
      parts.push(text);
      start = portion.end;
    }
    expect(parts.length).toBeGreaterThan(2);
    expect(parts.join('')).toBe(BODY);
  });

  it('reads a portion of the markdown with format=markdown, from start=0 by default, without the whole text', async () => {
    const markdown = WITH_MARKDOWN.body_markdown as string;
    const res = await content(WITH_MARKDOWN.id, 'format=markdown&max_tokens=30');
    expect(res.status).toBe(200);
    expect(res.body.body_text).toBeUndefined();
    expect(res.body.portion.start).toBe(0);
    expect(res.body.portion.length).toBe(markdown.length);
    expect(res.body.body_markdown).toBe(markdown.slice(0, res.body.portion.end));
    expect(res.body.body_markdown).toMatch(/^# Growing tomatoes\n\n/);
    expect(res.body.portion.end).toBeLessThan(markdown.length);
    // `start` alone takes the default budget, which holds the rest of this page.
    const rest = await content(WITH_MARKDOWN.id, `format=markdown&start=${res.body.portion.end}`);
    expect(rest.body.body_markdown).toBe(markdown.slice(res.body.portion.end));
    expect(rest.body.portion.end).toBe(markdown.length);
  });

  it('names the length of the page when start is past its end', async () => {
    const res = await content(WITH_MARKDOWN.id, `start=${BODY.length + 5}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain(`its text has ${BODY.length} UTF-16 code units`);
  });

  it('still answers 404 for an unknown id with valid extras', async () => {
    const res = await content('AAAAAAAAAAAAAAAAAAAAAA', 'query=soil');
    expect(res.status).toBe(404);
  });
});
