import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IndexQuery } from '@quarry/core';
import express, { type Express } from 'express';
import request from 'supertest';
import { createApp } from './app.js';
import { errorHandler } from './error-handler.js';
import { createFixture, type Fixture, recording } from './test-support/fixture.js';

const SEARCH = '/api/v1/search';

let fx: Fixture;
let app: Express;
/** What the index was asked (the real LanceDB index answers). */
const asked: IndexQuery[] = [];

beforeAll(async () => {
  fx = await createFixture();
  app = createApp(fx.deps({}, { index: recording(fx.index, asked) }));
});
afterAll(async () => {
  await fx.cleanup();
});

describe('query-string hygiene (issue 10, point 4)', () => {
  it('accepts exclusions under a positive operator', async () => {
    const res = await request(app).get(`${SEARCH}?q=${encodeURIComponent('site:widgets.example.net -entry')}`);
    expect(res.status).toBe(200);
    const filtered = await request(app).get(`${SEARCH}?q=${encodeURIComponent('site:example.com -history')}`);
    expect(filtered.status).toBe(200);
    // Which pages come back is the index backend's part (the parser hands it and(not(history)) with
    // the site filter); every one of them must still be on the site.
    const urls = (filtered.body.results as { url: string }[]).map((r) => r.url);
    expect(urls.every((u) => new URL(u).hostname.endsWith('example.com'))).toBe(true);
  });

  it('still refuses exclusions alone', async () => {
    const res = await request(app).get(`${SEARCH}?q=-a%20-b`);
    expect([res.status, res.body.param]).toEqual([400, 'q']);
  });

  it.each([
    ['q[]=a', 'q[]'],
    ['q=a&q[]=b', 'q[]'],
    ['q=a&offset[$gt]=1', 'offset[$gt]'],
    ['q=a&limit[0]=5', 'limit[0]'],
    ['q=a&x[y][z]=1', 'x[y][z]'],
    ['q=a&q=b', 'q'],
    ['q=a&foo=1&foo=2', 'foo'],
    ['q=a&match=some', 'match'],
  ])('answers 400 naming the parameter for %s', async (query, param) => {
    const res = await request(app).get(`${SEARCH}?${query}`);
    expect(res.status).toBe(400);
    expect(res.type).toBe('application/problem+json');
    expect(res.body).toMatchObject({ type: '/docs#problem-invalid-parameter', param });
  });

  it('passes match=any to the index', async () => {
    asked.length = 0;
    const res = await request(app).get(`${SEARCH}?q=quarry%20zebra&match=any`);
    expect(res.status).toBe(200);
    // The results' page with optional words; the AND of its words too (its pages come first).
    expect(asked.map((query) => query.match)).toEqual(expect.arrayContaining(['any', 'all']));
    asked.length = 0;
    await request(app).get(`${SEARCH}?q=quarry`);
    expect(asked.map((query) => query.match)).toEqual([undefined]);
  });
});

describe('problem types (issue 10, point 8)', () => {
  it.each([
    [413, '/docs#problem-too-large', 'Payload Too Large', 'The request body is larger than this endpoint accepts.'],
    [431, '/docs#problem-client-error', 'Request Header Fields Too Large', 'The request could not be understood.'],
    [403, '/docs#problem-forbidden', 'Forbidden', 'The request could not be understood.'],
  ])(
    'answers a %i raised by a library with a documented type, never about:blank',
    async (status, type, title, detail) => {
      const probe = express();
      probe.get('/x', () => {
        throw Object.assign(new Error('internal detail'), { status });
      });
      probe.use(errorHandler);
      const res = await request(probe).get('/x');
      expect(res.status).toBe(status);
      expect(JSON.parse(res.text)).toEqual({ type, title, status, detail });
    },
  );

  it('lists every problem type on /docs', async () => {
    const res = await request(app).get('/docs');
    for (const kind of ['client-error', 'forbidden', 'too-large', 'invalid-parameter']) {
      expect(res.text).toContain(`id="problem-${kind}"`);
    }
  });
});
