import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MAX_SITE_INPUT_CHARS, type PageDocument } from '@quarry/core';
import { MAX_QUERY_LENGTH } from '@quarry/query';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from './app.js';
import { CORPUS, createFixture, type Fixture } from './test-support/fixture.js';
import { type ReceivedResponse, specProblems } from './test-support/openapi-validator.js';

const SEARCH = '/api/v1/search';
const CONTENT = '/api/v1/content/{id}';

let fx: Fixture;
let app: Express;

beforeAll(async () => {
  fx = await createFixture();
  // One public client asks every request of this file; the rate limit has tests of its own.
  app = createApp(fx.deps({ QUARRY_RATE_LIMIT_PUBLIC: '1000' }));
});
afterAll(async () => {
  await fx.cleanup();
});

/** Every response goes through the OpenAPI document before a test looks at it. */
function valid<T extends ReceivedResponse>(res: T, path: string | null, method = 'get'): T {
  expect(specProblems(res, path, method)).toEqual([]);
  return res;
}

async function search(query: string) {
  return valid(await request(app).get(`${SEARCH}?${query}`), SEARCH);
}

function doc(url: string): PageDocument {
  const found = CORPUS.find((d) => d.url === url);
  if (!found) throw new Error(url);
  return found;
}

type Result = { id: string; url: string; lang: string; source: string; site_name?: string; crawled_at: string };

describe('GET /api/v1/search', () => {
  it('returns local results with every spec field', async () => {
    const res = await search('q=quarry');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-powered-by']).toBeUndefined();
    const results = res.body.results as Result[];
    expect(results.length).toBeGreaterThanOrEqual(2);
    expect(res.body.total).toBeGreaterThanOrEqual(results.length);
    expect(Number.isInteger(res.body.took_ms)).toBe(true);
    expect(results.every((r) => r.source === 'local')).toBe(true);
    const guide = results.find((r) => r.url === 'https://example.com/quarry');
    expect(guide).toMatchObject({ id: doc('https://example.com/quarry').id, site_name: 'Example' });
    const api = results.find((r) => r.url === 'https://docs.example.com/quarry-api');
    expect(api).toBeDefined();
    expect(api).not.toHaveProperty('site_name');
    expect(api).not.toHaveProperty('filetype');
  });

  it('searches a question no page holds every word of with its words optional, and says so', async () => {
    const question = encodeURIComponent('how does a self-hosted search engine help agents?');
    const relaxed = await search(`q=${question}`);
    expect(relaxed.headers['quarry-match']).toBe('any');
    const urls = (relaxed.body.results as Result[]).map((r) => r.url);
    expect(urls[0]).toBe('https://example.com/quarry');
    expect(relaxed.body.total).toBeGreaterThanOrEqual(urls.length);
    // Asked for `match=all` itself, a client gets what it asked for.
    const strict = await search(`q=${question}&match=all`);
    expect(strict.body).toMatchObject({ total: 0, results: [] });
    expect(strict.headers['quarry-match']).toBeUndefined();
    // Two words are an AND whatever they find; three that some page holds together stay one.
    const two = await search('q=quarry+agents');
    expect(two.body).toMatchObject({ total: 0, results: [] });
    expect(two.headers['quarry-match']).toBeUndefined();
    const held = await search('q=quarry+search+engine');
    expect((held.body.results as Result[]).map((r) => r.url)).toEqual(['https://example.com/quarry']);
    expect(held.headers['quarry-match']).toBeUndefined();
    // A question of four words that fewer than ten pages hold together: the page is their best matches.
    const asked = 'q=quarry+search+engine+retrieval%3F';
    const few = await search(asked);
    expect(few.headers['quarry-match']).toBe('any');
    const fewUrls = (few.body.results as Result[]).map((r) => r.url);
    expect(fewUrls[0]).toBe('https://example.com/quarry');
    expect(fewUrls).toContain('https://docs.example.com/quarry-api');
    // However a client pages through them: the same results, the same total, one by one.
    const paged = await Promise.all(fewUrls.map((_url, offset) => search(`${asked}&limit=1&offset=${offset}`)));
    expect(paged.map((page) => page.headers['quarry-match'])).toEqual(fewUrls.map(() => 'any'));
    expect(paged.flatMap((page) => (page.body.results as Result[]).map((r) => r.url))).toEqual(fewUrls);
    expect(paged.map((page) => page.body.total)).toEqual(fewUrls.map(() => few.body.total));
    // The same words as keywords are an AND, as the spec says: only the pages holding all of them.
    const keywords = await search('q=quarry+search+engine+retrieval');
    expect(keywords.headers['quarry-match']).toBeUndefined();
    expect(keywords.body.total).toBeLessThan(few.body.total);
    expect(keywords.body.results.length).toBeGreaterThan(0);
    for (const result of keywords.body.results as Result[]) {
      const text = JSON.stringify(CORPUS.find((d) => d.url === result.url)).toLowerCase();
      for (const word of ['quarry', 'search', 'engine', 'retrieval']) expect(text).toContain(word);
    }
  });

  it('pages through results consistently', async () => {
    const pages = await Promise.all([0, 5, 10].map((offset) => search(`q=widget&limit=5&offset=${offset}`)));
    const ids = pages.flatMap((p) => (p.body.results as Result[]).map((r) => r.id));
    expect(pages.map((p) => p.body.total)).toEqual([15, 15, 15]);
    expect(new Set(ids).size).toBe(15);
    const beyond = await search('q=widget&limit=100&offset=990');
    expect(beyond.body).toMatchObject({ total: 15, results: [] });
    expect((await search('q=widget&limit=100')).body.results).toHaveLength(15);
  });

  it('filters by lang (zh-CN and chi mean zh), time_range and site', async () => {
    const zh = (await search('q=quarry&lang=zh-CN')).body.results as Result[];
    expect(zh.map((r) => r.url)).toEqual(['https://news.example.cn/zh']);
    // A three-letter code means the two-letter one that pages are stored under.
    const chi = (await search('q=quarry&lang=chi')).body.results as Result[];
    expect(chi.map((r) => r.url)).toEqual(['https://news.example.cn/zh']);
    const all = (await search('q=quarry&time_range=all')).body.results as Result[];
    expect(all.map((r) => r.url)).toContain('https://old.example.org/quarry-history');
    const week = (await search('q=quarry&time_range=7d')).body.results as Result[];
    expect(week.length).toBeGreaterThan(0);
    expect(week.map((r) => r.url)).not.toContain('https://old.example.org/quarry-history');
    const day = (await search('q=quarry&time_range=1d')).body.results as Result[];
    expect(day.map((r) => r.url)).not.toContain('https://news.example.cn/zh');
    const site = (await search('q=quarry&site=EXAMPLE.com')).body.results as Result[];
    expect(site.map((r) => r.url).sort()).toEqual([
      'https://docs.example.com/quarry-api',
      'https://example.com/quarry',
    ]);
    // Exclusions alone within the site parameter, as within site: (the site's pages without the word).
    const urls = async (query: string) => ((await search(query)).body.results as Result[]).map((r) => r.url).sort();
    const minus = await urls('q=-api&site=example.com');
    expect(minus).toEqual(await urls(`q=${encodeURIComponent('site:example.com -api')}`));
    expect(minus.length).toBeGreaterThan(0);
    expect(minus).not.toContain('https://docs.example.com/quarry-api');
    expect((await search('q=-api')).status).toBe(400);
    const boosted = (await search('q=quarry&lang_priority=zh')).body.results as Result[];
    expect(boosted.length).toBe(all.length);
  });

  it('answers a query that is one URL with that page, under either scheme, within the filters', async () => {
    const guide = doc('https://example.com/quarry');
    const asked = async (query: string) => {
      const res = await search(query);
      expect(res.status).toBe(200);
      return { total: res.body.total as number, urls: (res.body.results as Result[]).map((r) => r.url) };
    };
    const exact = await search(`q=${encodeURIComponent('https://example.com/quarry')}`);
    expect(exact.body).toMatchObject({ total: 1, results: [{ id: guide.id, url: guide.url, source: 'local' }] });
    expect(exact.body.results[0].snippet).toBe(guide.body_text);
    // Another scheme, a fragment, a tracking parameter, upper-case host: the same page, whatever
    // `match` says (MCP asks with match=any).
    const variant = 'http://EXAMPLE.com/quarry?utm_source=feed#top';
    for (const match of ['', '&match=any', '&match=all']) {
      expect(await asked(`q=${encodeURIComponent(variant)}${match}`)).toEqual({ total: 1, urls: [guide.url] });
      // Outside the filters, searched as words: `any` finds pages holding one of them, never the page.
      expect((await asked(`q=${encodeURIComponent(guide.url)}${match}&lang=zh`)).urls).not.toContain(guide.url);
    }
    expect(await asked(`q=${encodeURIComponent(guide.url)}&offset=5`)).toEqual({ total: 1, urls: [] });
    // Filters still apply: outside them, the URL is searched as words (none of its pages hold them).
    expect(await asked(`q=${encodeURIComponent(guide.url)}&lang=zh`)).toEqual({ total: 0, urls: [] });
    expect(await asked(`q=${encodeURIComponent(guide.url)}&site=docs.example.com`)).toEqual({ total: 0, urls: [] });
    expect((await asked(`q=${encodeURIComponent(guide.url)}&site=example.com`)).urls).toEqual([guide.url]);
    // Not indexed, or beside other words: an ordinary search.
    expect(await asked(`q=${encodeURIComponent('https://example.com/missing')}`)).toEqual({ total: 0, urls: [] });
    expect((await asked(`q=${encodeURIComponent('https://example.com/quarry guide')}`)).total).toBe(0);
  });

  it.each([
    ['', 'q'],
    ['q=', 'q'],
    ['q=a&q=b', 'q'],
    [`q=${'x'.repeat(MAX_QUERY_LENGTH + 1)}`, 'q'],
    ['q=-only', 'q'],
    ['q=a&limit=0', 'limit'],
    ['q=a&limit=101', 'limit'],
    ['q=a&limit=10.5', 'limit'],
    ['q=a&limit=1e2', 'limit'],
    ['q=a&limit=-1', 'limit'],
    ['q=a&limit=abc', 'limit'],
    ['q=a&limit=', 'limit'],
    ['q=a&limit=1&limit=2', 'limit'],
    ['q=a&offset=991', 'offset'],
    ['q=a&offset=1.0', 'offset'],
    ['q=a&offset=-0', 'offset'],
    ['q=a&lang=english', 'lang'],
    ['q=a&lang_priority=1', 'lang_priority'],
    ['q=a&time_range=2d', 'time_range'],
    ['q=a&site=%22%29%3B%20DROP', 'site'],
    ['q=a&site=-', 'site'],
    ['q=a%20site:-', 'q'],
    ['q=%ZZ', 'q'],
    ['q=a&limit=%E0%A4%A', 'limit'],
    ['q=%C0%80', 'q'],
  ])('answers 400 for ?%s naming %s', async (query, param) => {
    const res = await search(query);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.param).toBe(param);
    expect(res.body.detail).not.toMatch(/\n\s+at /);
  });

  it('says a q of white space and one of characters that are dropped are empty in the same words', async () => {
    const details = await Promise.all(
      ['q=%20', 'q=%00', 'q=%E2%80%8B'].map(async (query) => (await search(query)).body.detail),
    );
    expect(details).toEqual(['q must not be empty', 'q must not be empty', 'q must not be empty']);
  });
});

describe('GET /api/v1/content/:id', () => {
  it('returns exactly the spec 2.3 fields of the stored page', async () => {
    const d = doc('https://example.com/quarry');
    const res = valid(await request(app).get(`/api/v1/content/${d.id}`), CONTENT);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: d.id,
      url: d.url,
      title: d.title,
      body_text: d.body_text,
      author: 'Ada Lovelace',
      published_at: '2026-01-05T10:00:00Z',
      lang: 'en',
      word_count: d.word_count,
      crawled_at: d.crawled_at,
      has_llms_txt: true,
    });
  });

  it.each(['AAAAAAAAAAAAAAAAAAAAAA', 'short', '..%2F..%2Fetc%2Fpasswd', '%2E%2E', '%00', 'a'.repeat(23)])(
    'answers 404 for the id %s',
    async (id) => {
      const res = valid(await request(app).get(`/api/v1/content/${id}`), CONTENT);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    },
  );

  it('answers a 4xx problem for a path that does not decode', async () => {
    // Not a hex digit after %, and escapes that are not UTF-8 (an overlong `/`).
    for (const path of ['/api/v1/content/%ZZ', '/api/v1/content/%C0%AF']) {
      const res = valid(await request(app).get(path), CONTENT);
      expect(res.status).toBe(400);
      // Not an invalid-parameter problem, which always names its parameter: the path is malformed.
      expect(JSON.parse(res.text)).toEqual({
        type: '/docs#problem-client-error',
        title: 'Bad Request',
        status: 400,
        detail: expect.stringContaining('bytes must spell UTF-8'),
      });
    }
  });

  it('takes a site parameter with a path as long as the document says, and no longer', async () => {
    const site = (chars: number) => `example.com/docs/${'x'.repeat(chars - 'example.com/docs/'.length)}`;
    const max = MAX_SITE_INPUT_CHARS;
    expect(max).toBeGreaterThan(253);
    expect((await search(`q=quarry&site=${site(max)}`)).status).toBe(200);
    const over = await search(`q=quarry&site=${site(max + 1)}`);
    expect(over.status).toBe(400);
    expect(over.body.param).toBe('site');
  });

  it('answers 404 for an external result (empty id)', async () => {
    for (const path of ['/api/v1/content/', '/api/v1/content']) {
      const res = valid(await request(app).get(path), null);
      expect(res.status).toBe(404);
      expect(res.body.detail).toMatch(/external results have none/);
    }
  });
});

describe('routing and errors', () => {
  it.each([
    ['post', SEARCH, SEARCH],
    ['delete', `/api/v1/content/${CORPUS[0]!.id}`, CONTENT],
    ['put', '/healthz', '/healthz'],
  ] as const)('answers 405 with Allow to %s %s', async (method, url, path) => {
    const res = valid(await request(app)[method](url), path);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('answers OPTIONS with the allowed methods', async () => {
    const res = await request(app).options(SEARCH);
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('lets a page of any origin read the API and its rate-limit headers, and answers its preflight', async () => {
    const origin = 'https://app.example.net';
    const res = valid(await request(app).get(`${SEARCH}?q=quarry`).set('Origin', origin), SEARCH);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toContain('RateLimit');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await request(app)
      .options('/api/v1/content/abc')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'x-api-key');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET,HEAD');
    expect(preflight.headers['access-control-allow-headers']).toContain('X-API-Key');
    // Answered before the rate limits: a preflight spends nothing of the client's quota.
    expect(preflight.headers.ratelimit).toBeUndefined();
    const admin = await request(app).get('/admin/api/stats').set('Origin', origin);
    expect(admin.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers 404 problems for unknown routes', async () => {
    for (const url of ['/', '/api/v2/search', '/api/v1/nothing', '/api/v1/search/extra']) {
      const res = valid(await request(app).get(url), null);
      expect(res.status).toBe(404);
    }
  });

  it('hides internal errors behind a generic 500 and logs them', async () => {
    const d = doc('https://docs.example.com/quarry-api');
    const { writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    await writeFile(join(fx.dir, 'blobs', d.id.slice(0, 2), d.id.slice(2, 4), `${d.id}.json`), '{"torn');
    const res = valid(await request(app).get(`/api/v1/content/${d.id}`), CONTENT);
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toMatch(/blob|json|at \w|\.ts/i);
    expect(fx.logs.some((l) => l.includes('blob_corrupt') && l.includes(res.headers['x-request-id'] ?? '?'))).toBe(
      true,
    );
    await fx.blobs.put(d);
  });
});

describe('health, docs and OpenAPI', () => {
  it('reports health without rate-limit headers', async () => {
    const res = valid(await request(app).get('/healthz'), '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers.ratelimit).toBeUndefined();
  });

  it('reports unhealthy (503, naming it) while another backend a search needs does not answer', async () => {
    let answering = false;
    const redis = {
      name: 'Redis (rate limits and keys)',
      ping: async () => {
        if (!answering) throw new Error('Connection is closed.');
      },
    };
    const checked = createApp(fx.deps(undefined, { healthChecks: [redis] }));
    const down = valid(await request(checked).get('/healthz'), '/healthz');
    expect(down.status).toBe(503);
    expect(down.body.detail).toBe('Redis (rate limits and keys) is not answering.');
    expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.stringify(down.body)).not.toContain('Connection is closed');
    answering = true;
    expect(valid(await request(checked).get('/healthz'), '/healthz').status).toBe(200);
    // Logged as a response, without an error (and stack) made up for it.
    const line = fx.logs.find((l) => l.includes(down.headers['x-request-id'] ?? '?') && l.includes('"res"'));
    expect(line).toContain('"statusCode":503');
    expect(line).toContain('request completed');
    expect(line).not.toContain('"err"');
  });

  it('serves the OpenAPI 3.1 document with both endpoints and their bounds', async () => {
    const res = valid(await request(app).get('/api/v1/openapi.json'), '/api/v1/openapi.json');
    expect(res.body.openapi).toBe('3.1.0');
    const params = res.body.paths[SEARCH].get.parameters as { name: string; schema: Record<string, unknown> }[];
    const byName = Object.fromEntries(params.map((p) => [p.name, p.schema]));
    expect(byName.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(byName.offset).toMatchObject({ type: 'integer', minimum: 0, maximum: 990, default: 0 });
    expect(byName.time_range).toMatchObject({ enum: ['1d', '7d', '30d', '1y', 'all'] });
    expect(byName.match).toMatchObject({ enum: ['all', 'any'], default: 'all' });
    expect(Object.keys(byName).sort()).toEqual([
      'lang',
      'lang_priority',
      'limit',
      'match',
      'offset',
      'q',
      'site',
      'time_range',
    ]);
    expect(res.body.paths[CONTENT].get.responses['404']).toBeDefined();
    expect(res.body.components.headers['X-RateLimit-Reset'].description).toMatch(/seconds until/i);
  });

  it('renders a self-contained docs page', async () => {
    const res = await request(app).get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.text).toContain('/api/v1/search');
    expect(res.text).toContain('id="problem-rate-limited"');
    expect(res.text).not.toMatch(/<script|src="http|href="http/);
  });
});

describe('logging', () => {
  it('logs the request id and never a key or cookie', async () => {
    const secret = 'qk_supersecretvalue1234567890';
    const res = valid(
      await request(app)
        .get('/healthz')
        .set('Authorization', `Bearer ${secret}`)
        .set('X-API-Key', secret)
        .set('Cookie', `session=${secret}`)
        .set('X-Request-Id', 'trace-abc-123'),
      '/healthz',
    );
    expect(res.headers['x-request-id']).toBe('trace-abc-123');
    const line = fx.logs.find((l) => l.includes('trace-abc-123'));
    expect(line).toBeDefined();
    expect(fx.logs.join('\n')).not.toContain(secret);
    // A key or token a client puts in the query string is not logged either.
    const key = 'qk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg';
    await request(app).get(`/healthz?api_key=${key}&token=admin-tok-9&q=solar`).set('X-Request-Id', 'trace-q-1');
    await request(app).get(`${SEARCH}?q=${key}`).set('X-Request-Id', 'trace-q-2');
    const logged = fx.logs.filter((l) => l.includes('trace-q-'));
    expect(logged).toHaveLength(2);
    expect(logged.join('\n')).not.toMatch(/qk_AbCd|admin-tok-9/);
    expect(logged[0]).toContain('api_key=[redacted]&token=[redacted]&q=solar');
    const bad = await request(app).get('/healthz').set('X-Request-Id', 'bad id; rm -rf');
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('HEAD and unavailable backends', () => {
  it('answers HEAD like GET without a body', async () => {
    const res = await request(app).head(`${SEARCH}?q=quarry`);
    expect(res.status).toBe(200);
    expect(res.text ?? '').toBe('');
    expect(res.headers.ratelimit).toMatch(/^"public"/);
  });

  it('reports a closed index as unhealthy (503) and never leaks its error to a search', async () => {
    const broken = await createFixture(CORPUS.slice(0, 2));
    try {
      const brokenApp = createApp(broken.deps());
      await broken.index.close();
      const health = valid(await request(brokenApp).get('/healthz'), '/healthz');
      expect(health.status).toBe(503);
      expect(Number(health.headers['retry-after'])).toBeGreaterThan(0);
      // Searching a closed index is a programming error, not an outage: a generic 500.
      const res = valid(await request(brokenApp).get(`${SEARCH}?q=quarry`), SEARCH);
      expect(res.status).toBe(500);
      expect(JSON.stringify(res.body)).not.toMatch(/sqlite|closed|database|connection/i);
    } finally {
      await broken.cleanup();
    }
  });
});
