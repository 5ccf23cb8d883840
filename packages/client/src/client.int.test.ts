import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApp, type RunningServer, startServer } from '@quarry/api';
import { FileBlobStore } from '@quarry/blobstore';
import { loadConfig, type PageDocument, pageIdForUrl, type SearchIndex } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import { pino } from 'pino';
import { QuarryClient } from './client.js';
import { QuarryApiError, QuarryConnectionError, QuarryRateLimitError } from './errors.js';

function page(url: string, title: string, body: string): PageDocument {
  return {
    id: pageIdForUrl(url),
    url,
    title,
    body_text: body,
    lang: 'en',
    author: 'Grace Hopper',
    published_at: '2026-03-01T09:00:00Z',
    crawled_at: '2026-11-20T10:00:00Z',
    site_name: null,
    has_llms_txt: false,
    filetype: 'html',
    domain: new URL(url).hostname,
    word_count: body.split(/\s+/).length,
  };
}

const SOLAR = page(
  'https://energy.example.com/solar',
  'Solar panel efficiency',
  'Solar panels turn sunlight into electricity.\n\nEfficiency\n\nMost panels sold today convert about twenty percent of sunlight. Heat lowers their efficiency.',
);
const WIND = page(
  'https://energy.example.com/wind',
  'Wind turbines',
  'Wind turbines turn moving air into electricity.',
);

let dir: string;
let index: SearchIndex;
const servers: RunningServer[] = [];

async function serve(env: Record<string, string> = {}): Promise<string> {
  const config = loadConfig({}, { QUARRY_RATE_LIMIT_PUBLIC: '1000', ...env });
  const blobs = new FileBlobStore({ dir: join(dir, 'blobs') });
  const app = createApp({ config, index, blobs, logger: pino({ level: 'silent' }) });
  const server = await startServer(app, { port: 0, host: '127.0.0.1' });
  servers.push(server);
  return server.url;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-client-'));
  index = await LanceSearchIndex.open({ path: join(dir, 'index') });
  await new FileBlobStore({ dir: join(dir, 'blobs') }).putMany([SOLAR, WIND]);
  await index.upsert([SOLAR, WIND]);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await index.close();
  await rm(dir, { recursive: true, force: true });
});

describe('QuarryClient against a real Quarry API', () => {
  let baseUrl: string;
  let quarry: QuarryClient;
  beforeAll(async () => {
    baseUrl = await serve();
    quarry = new QuarryClient({ baseUrl });
  });

  it('searches and returns typed results', async () => {
    const response = await quarry.search('solar efficiency', { limit: 5 });
    expect(response.total).toBe(1);
    expect(response.results[0]).toMatchObject({ id: SOLAR.id, url: SOLAR.url, source: 'local', lang: 'en' });
    const either = await quarry.search('solar OR wind', { match: 'all', site: 'energy.example.com' });
    expect(either.results.map((r) => r.url).sort()).toEqual([SOLAR.url, WIND.url]);
  });

  it('reads content as text, as markdown, and as passages with exact offsets', async () => {
    const text = await quarry.content(SOLAR.id);
    expect(text.body_text).toBe(SOLAR.body_text);
    expect(text.body_markdown).toBeUndefined();
    const md = await quarry.content(SOLAR.id, { format: 'markdown' });
    expect(md.body_markdown).toContain('Solar panels turn sunlight');
    const asked = await quarry.content(SOLAR.id, { query: 'heat efficiency', max_tokens: 32 });
    expect(asked.passages?.length).toBeGreaterThan(0);
    for (const p of asked.passages ?? []) expect(SOLAR.body_text.slice(p.start, p.end)).toBe(p.text);
  });

  it('reads a page in portions that put together make up its text, and its markdown', async () => {
    for (const format of ['text', 'markdown'] as const) {
      let start = 0;
      let whole = '';
      let length = -1;
      for (let i = 0; i < 50; i++) {
        const part = await quarry.portion(SOLAR.id, { format, start, max_tokens: 16 });
        expect(part.id).toBe(SOLAR.id);
        expect(part.portion.start).toBe(start);
        expect(part.portion.tokens).toBeLessThanOrEqual(16);
        whole += (format === 'markdown' ? part.body_markdown : part.body_text) ?? '';
        length = part.portion.length;
        start = part.portion.end;
        if (start === length) break;
      }
      expect(whole.length).toBe(length);
      if (format === 'text') expect(whole).toBe(SOLAR.body_text);
      else expect(whole).toBe((await quarry.content(SOLAR.id, { format })).body_markdown);
    }
    const past = await quarry.portion(SOLAR.id, { start: 10_000_000 }).catch((e: unknown) => e);
    expect(past).toMatchObject({ status: 400, param: 'start' });
  });

  it('maps problem details to QuarryApiError with status and param', async () => {
    const bad = await quarry.search('solar', { limit: 500 }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(QuarryApiError);
    expect(bad).toMatchObject({ status: 400, param: 'limit', type: '/docs#problem-invalid-parameter' });
    const missing = await quarry.content('AAAAAAAAAAAAAAAAAAAAAA').catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404 });
    const budget = await quarry.content(SOLAR.id, { query: 'solar', max_tokens: 5 }).catch((e: unknown) => e);
    expect(budget).toMatchObject({ status: 400, param: 'max_tokens' });
  });

  it('sends the API key as a bearer token (an unknown key is a 401)', async () => {
    const keyed = new QuarryClient({ baseUrl, apiKey: 'not-a-real-key' });
    await expect(keyed.search('solar')).rejects.toMatchObject({ status: 401 });
  });

  it('reports an unreachable API as a QuarryConnectionError', async () => {
    const nowhere = new QuarryClient({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2_000 });
    await expect(nowhere.search('solar')).rejects.toBeInstanceOf(QuarryConnectionError);
  });
});

describe('QuarryClient on 429', () => {
  it('waits Retry-After and retries, within its bound', async () => {
    const baseUrl = await serve({ QUARRY_RATE_LIMIT_PUBLIC: '1', QUARRY_RATE_LIMIT_WINDOW_SECS: '2' });
    const seen: { status: number; atMs: number; retryAfter: string | null }[] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      seen.push({ status: response.status, atMs: Date.now(), retryAfter: response.headers.get('retry-after') });
      return response;
    };
    const patient = new QuarryClient({ baseUrl, maxRetries: 3, fetch: recording });
    await patient.search('solar');
    const second = await patient.search('solar');
    expect(second.results[0]?.id).toBe(SOLAR.id);
    expect(seen.map((s) => s.status)).toEqual([200, 429, 200]);
    const waitedMs = seen[2]!.atMs - seen[1]!.atMs;
    expect(waitedMs).toBeGreaterThanOrEqual(Number(seen[1]!.retryAfter) * 1000 - 50);
  });

  it('throws QuarryRateLimitError with retryAfterSecs when out of retries', async () => {
    const baseUrl = await serve({ QUARRY_RATE_LIMIT_PUBLIC: '1', QUARRY_RATE_LIMIT_WINDOW_SECS: '60' });
    const impatient = new QuarryClient({ baseUrl, maxRetries: 0 });
    await impatient.search('solar');
    const error = await impatient.search('solar').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuarryRateLimitError);
    expect((error as QuarryRateLimitError).retryAfterSecs).toBeGreaterThan(0);
    // A wait longer than the client accepts is not waited for either.
    const bounded = new QuarryClient({ baseUrl, maxRetries: 5, maxRetryAfterSecs: 1 });
    const startedMs = Date.now();
    await expect(bounded.search('solar')).rejects.toBeInstanceOf(QuarryRateLimitError);
    expect(Date.now() - startedMs).toBeLessThan(1_000);
  });
});
