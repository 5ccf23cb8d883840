import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FallbackRequest, FallbackSearcher, SearchResult } from '@quarry/core';
import { MAX_QUERY_LENGTH } from '@quarry/query';
import { createApp } from './app.js';
import { startServer } from './server.js';
import { createFixture, type Fixture } from './test-support/fixture.js';
import { specProblems } from './test-support/openapi-validator.js';

/**
 * A stand-in for a third-party search service: it reports each call, then answers only when the
 * test releases it or the API aborts the request.
 */
class GatedFallback implements FallbackSearcher {
  readonly name = 'gated';
  readonly calls: { request: FallbackRequest; signal: AbortSignal | undefined }[] = [];
  #onCall: (() => void) | undefined;
  #release: (() => void) | undefined;

  nextCall(): Promise<void> {
    return new Promise((resolve) => {
      this.#onCall = resolve;
    });
  }

  release(): void {
    this.#release?.();
  }

  search(request: FallbackRequest, signal?: AbortSignal): Promise<SearchResult[]> {
    this.calls.push({ request, signal });
    this.#onCall?.();
    return new Promise((resolve) => {
      this.#release = () => resolve([]);
      signal?.addEventListener('abort', () => resolve([]), { once: true });
    });
  }
}

async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timeout ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function aborted(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return Promise.reject(new Error('the fallback got no signal'));
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * Sends `request` as raw bytes (what `fetch` would refuse to send) and reads the whole answer.
 * `halfClose: false` keeps the sending side open until the server closes (as an HTTP/1.0 client does).
 */
function rawExchange(
  url: string,
  request: Buffer,
  { halfClose = true } = {},
): Promise<{ status: number; headers: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => (halfClose ? socket.end(request) : socket.write(request)));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body });
    });
  });
}

async function checkedJson(res: Response, path: string): Promise<unknown> {
  const text = await res.text();
  const body = text ? JSON.parse(text) : undefined;
  const headers = Object.fromEntries(res.headers.entries());
  expect(specProblems({ status: res.status, headers, body, text }, path)).toEqual([]);
  return body;
}

let fx: Fixture;

beforeAll(async () => {
  fx = await createFixture();
});
afterAll(async () => {
  await fx.cleanup();
});

function serve(fallback: FallbackSearcher, shutdownTimeoutMs?: number) {
  const app = createApp(fx.deps({ QUARRY_FALLBACK_TIMEOUT_MS: '30000' }, { fallback }));
  return startServer(app, { port: 0, host: '127.0.0.1', ...(shutdownTimeoutMs ? { shutdownTimeoutMs } : {}) });
}

describe('startServer', () => {
  it('aborts the fallback when the client disconnects, and keeps serving', async () => {
    const fallback = new GatedFallback();
    const server = await serve(fallback);
    try {
      const called = fallback.nextCall();
      const client = new AbortController();
      const pending = fetch(`${server.url}/api/v1/search?q=quarry`, { signal: client.signal });
      await within(called, 5000);
      client.abort();
      await expect(pending).rejects.toThrow();
      await within(aborted(fallback.calls[0]?.signal), 5000);
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      await checkedJson(health, '/healthz');
    } finally {
      await server.close();
    }
  });

  it('lets an in-flight request finish on close, refusing new connections', async () => {
    const fallback = new GatedFallback();
    const server = await serve(fallback);
    const called = fallback.nextCall();
    const inFlight = fetch(`${server.url}/api/v1/search?q=quarry`);
    await within(called, 5000);
    const closed = server.close();
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    fallback.release();
    const res = await within(inFlight, 5000);
    expect(res.status).toBe(200);
    const body = (await checkedJson(res, '/api/v1/search')) as { results: unknown[] };
    expect(body.results.length).toBeGreaterThan(0);
    await within(closed, 5000);
  });

  it('cuts a request that outlives the shutdown deadline', async () => {
    const fallback = new GatedFallback();
    const server = await serve(fallback, 300);
    const called = fallback.nextCall();
    const inFlight = fetch(`${server.url}/api/v1/search?q=quarry`);
    inFlight.catch(() => undefined);
    await within(called, 5000);
    const startedMs = Date.now();
    await within(server.close(), 5000);
    expect(Date.now() - startedMs).toBeGreaterThanOrEqual(250);
    await expect(inFlight).rejects.toThrow();
    await within(aborted(fallback.calls[0]?.signal), 5000);
  });

  it('takes a question of hundreds of words, and the longest q in Chinese, in the URL', async () => {
    const none: FallbackSearcher = { name: 'none', search: async () => [] };
    const server = await serve(none);
    try {
      const search = async (params: Record<string, string>) => {
        const res = await fetch(`${server.url}/api/v1/search?${new URLSearchParams(params)}`);
        return { status: res.status, body: (await checkedJson(res, '/api/v1/search')) as Record<string, unknown> };
      };
      const urls = (body: Record<string, unknown>) => (body.results as { url: string }[]).map((r) => r.url);
      // 300 words, two of them on one page: every word optional.
      const filler = Array.from({ length: 298 }, (_, i) => `filler${i}`);
      const question = [...filler.slice(0, 150), 'self-hosted', 'retrieval', ...filler.slice(150)].join(' ');
      const asked = await search({ q: question, match: 'any' });
      expect(asked.status).toBe(200);
      expect(urls(asked.body)[0]).toBe('https://example.com/quarry');
      // MAX_QUERY_LENGTH characters of Chinese: 36 KiB percent-encoded, past Node's default 16 KiB.
      const sentence = '这是一篇关于搜索引擎的中文新闻。';
      const chinese = sentence.repeat(Math.ceil(MAX_QUERY_LENGTH / sentence.length)).slice(0, MAX_QUERY_LENGTH);
      const long = await search({ q: chinese, match: 'any' });
      expect(long.status).toBe(200);
      expect(urls(long.body)).toContain('https://news.example.cn/zh');
      const tooLong = await search({ q: `${chinese}新`, match: 'any' });
      expect(tooLong).toMatchObject({ status: 400, body: { param: 'q' } });
    } finally {
      await server.close();
    }
  });

  it('answers a request its HTTP parser rejects with a problem that says what to fix', async () => {
    const none: FallbackSearcher = { name: 'none', search: async () => [] };
    const server = await serve(none);
    try {
      // `curl 'http://host/api/v1/search?q=北京'` sends the UTF-8 bytes unencoded.
      const unencoded = await rawExchange(
        server.url,
        Buffer.from('GET /api/v1/search?q=北京 HTTP/1.1\r\nHost: quarry\r\n\r\n', 'utf8'),
      );
      expect(unencoded.status).toBe(400);
      expect(unencoded.headers).toContain('content-type: application/problem+json; charset=utf-8');
      expect(unencoded.headers).toContain('access-control-allow-origin: *');
      expect(JSON.parse(unencoded.body)).toMatchObject({
        type: '/docs#problem-client-error',
        status: 400,
        detail: expect.stringContaining("curl -G --data-urlencode 'q=北京'"),
      });
      // In the path (a content id), the hint is not about q.
      const inPath = await rawExchange(
        server.url,
        Buffer.from('GET /api/v1/content/北京 HTTP/1.1\r\nHost: quarry\r\n\r\n', 'utf8'),
      );
      expect(inPath.status).toBe(400);
      const detail = (JSON.parse(inPath.body) as { detail: string }).detail;
      expect(detail).toContain('not percent-encoded');
      expect(detail).toContain('in a path');
      expect(detail).not.toContain('q=');
      const unknownMethod = await rawExchange(server.url, Buffer.from('FOO / HTTP/1.1\r\nHost: quarry\r\n\r\n'));
      expect(unknownMethod.status).toBe(405);
      expect(unknownMethod.headers).toContain('allow: get, head');
      expect(JSON.parse(unknownMethod.body)).toMatchObject({ type: '/docs#problem-method-not-allowed', status: 405 });
      const garbage = await rawExchange(server.url, Buffer.from('GET / HTTP/1.1\r\nHost quarry\r\n\r\n'));
      expect(garbage.status).toBe(400);
      expect(JSON.parse(garbage.body)).toMatchObject({ status: 400, detail: 'The request is not valid HTTP/1.1.' });
      const huge = await rawExchange(
        server.url,
        Buffer.from(`GET /healthz HTTP/1.1\r\nHost: quarry\r\nX-Big: ${'a'.repeat(80_000)}\r\n\r\n`),
      );
      expect(huge.status).toBe(431);
      expect(JSON.parse(huge.body)).toMatchObject({ status: 431, title: 'Request Header Fields Too Large' });
      // An oversized request line, through fetch: the body is a documented problem.
      const tooLong = await fetch(`${server.url}/api/v1/search?q=${'a'.repeat(60_000)}`);
      expect(tooLong.status).toBe(431);
      expect(await checkedJson(tooLong, '/api/v1/search')).toMatchObject({ type: '/docs#problem-client-error' });
      // The server keeps answering.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('answers an HTTP/1.1 request without a Host header with a problem, and serves HTTP/1.0 without one', async () => {
    const none: FallbackSearcher = { name: 'none', search: async () => [] };
    const server = await serve(none);
    try {
      const noHost = await rawExchange(server.url, Buffer.from('GET /api/v1/search?q=quarry HTTP/1.1\r\n\r\n'));
      expect(noHost.status).toBe(400);
      expect(noHost.headers).toContain('content-type: application/problem+json; charset=utf-8');
      expect(noHost.headers).toContain('access-control-allow-origin: *');
      expect(JSON.parse(noHost.body)).toMatchObject({
        type: '/docs#problem-client-error',
        status: 400,
        detail: expect.stringContaining('Host'),
      });
      const http10 = await rawExchange(server.url, Buffer.from('GET /api/v1/search?q=quarry HTTP/1.0\r\n\r\n'), {
        halfClose: false,
      });
      expect(http10.status).toBe(200);
      expect(JSON.parse(http10.body)).toMatchObject({ total: expect.any(Number) });
    } finally {
      await server.close();
    }
  });

  it('answers CONNECT with 405 and a problem, not a dropped connection', async () => {
    const none: FallbackSearcher = { name: 'none', search: async () => [] };
    const server = await serve(none);
    try {
      const tunnel = await rawExchange(
        server.url,
        Buffer.from('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
      );
      expect(tunnel.status).toBe(405);
      expect(tunnel.headers).toContain('allow: get, head');
      expect(JSON.parse(tunnel.body)).toMatchObject({ status: 405, detail: expect.stringContaining('CONNECT') });
    } finally {
      await server.close();
    }
  });
});
