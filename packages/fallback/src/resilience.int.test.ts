import { beforeAll, describe, expect, it } from '@jest/globals';
import { createFallbackSearcher } from './options.js';
import type { ResilientFallbackSearcher } from './searcher.js';
import { fixture, hang, reply, request, term, useFakeProvider } from './test-server.fixture.js';

const TIMEOUT_MS = 300;
const server = useFakeProvider();

/** A fresh SearXNG searcher (own breaker and cache) that records why calls gave nothing. */
function searcher(
  options: { failureThreshold?: number; cooldownMs?: number; cacheTtlMs?: number; timeoutMs?: number } = {},
) {
  const reasons: string[] = [];
  const s = createFallbackSearcher({
    provider: 'searxng',
    searxngUrl: server.baseUrl,
    timeoutMs: TIMEOUT_MS,
    onError: (reason) => reasons.push(reason),
    ...options,
  }) as ResilientFallbackSearcher;
  return { s, reasons };
}

let queryNo = 0;
/** A request no earlier test has cached. */
const fresh = () => request(term(`q${++queryNo}`));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('fallback resilience against a misbehaving provider', () => {
  // The file's first request loads and connects the HTTP client. On a loaded machine (CI's other
  // workers, Chromium) that outlasted the timeout, and the hanging provider never saw its request.
  beforeAll(async () => {
    server.handle(reply(200, '{"results": []}'));
    await searcher({ timeoutMs: 10_000 }).s.search(fresh());
  });

  it('answers [] in about the timeout when the provider hangs, and aborts the request', async () => {
    server.handle(hang);
    const seen = server.requests.length;
    const { s, reasons } = searcher();
    const started = performance.now();
    const results = await s.search(fresh());
    const tookMs = performance.now() - started;
    expect(results).toEqual([]);
    expect(tookMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(tookMs).toBeLessThan(TIMEOUT_MS + 400);
    expect(reasons).toEqual([`searxng: timed out after ${TIMEOUT_MS} ms`]);
    await expect(Promise.race([server.requests[seen]!.closed.then(() => 'closed'), sleep(1000)])).resolves.toBe(
      'closed',
    );
  });

  it('answers [] in about the timeout when the body trickles in too slowly', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"results": [');
      const timer = setInterval(() => res.write(' '), 50);
      res.once('close', () => clearInterval(timer));
    });
    const { s, reasons } = searcher();
    const started = performance.now();
    expect(await s.search(fresh())).toEqual([]);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 400);
    expect(reasons[0]).toMatch(/timed out/);
  });

  it.each([
    ['a 500', reply(500, '{"error":"boom"}'), /HTTP 500/],
    ['an HTML error page', reply(200, '<!doctype html><title>Error</title>', 'text/html'), /not JSON/],
    ['invalid JSON', reply(200, '{"results": [ {"url": '), /invalid JSON/],
    ['an empty body', reply(200, ''), /invalid JSON/],
    ['a wrong shape', reply(200, JSON.stringify({ answers: [], results: 'none' })), /shape/],
    ['a JSON array', reply(200, '[1,2,3]'), /shape/],
    ['a 403 (json format disabled)', reply(403, 'Forbidden', 'text/plain'), /HTTP 403/],
  ])('answers [] with a logged reason for %s', async (_label, handler, reason) => {
    server.handle(handler);
    const { s, reasons } = searcher();
    expect(await s.search(fresh())).toEqual([]);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(reason);
  });

  it('refuses a huge answer, announced or streamed, without reading it all', async () => {
    const huge = JSON.stringify({ results: [{ url: 'https://a.org/', title: 'x'.repeat(3 * 1024 * 1024) }] });
    // Time enough to stream 2 MiB on a loaded machine: the size bound, not the timeout, must refuse it.
    const { s, reasons } = searcher({ timeoutMs: 10_000 });
    server.handle(reply(200, huge));
    expect(await s.search(fresh())).toEqual([]);
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 4 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    expect(await s.search(fresh())).toEqual([]);
    expect(reasons).toHaveLength(2);
    for (const r of reasons) expect(r).toMatch(/larger than 2097152 bytes/);
  });

  it('takes at most 50 results from an answer with more', async () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ url: `https://m.org/${i}`, title: `r${i}`, content: '' }));
    server.handle(reply(200, JSON.stringify({ results: many })));
    const { s } = searcher();
    const results = await s.search(request(term('many'), { count: 100 }));
    expect(results).toHaveLength(50);
    expect(results.at(-1)?.url).toBe('https://m.org/49');
  });

  it('honours Retry-After of a 429 by skipping the provider that long', async () => {
    server.handle(reply(429, '{"error":"slow down"}', 'application/json', { 'retry-after': '1' }));
    const { s, reasons } = searcher();
    expect(await s.search(fresh())).toEqual([]);
    expect(reasons[0]).toMatch(/rate limited \(HTTP 429, retry after 1 s\)/);
    const sent = server.requests.length;
    server.handle(reply(200, fixture('searxng-search.json')));
    expect(await s.search(fresh())).toEqual([]);
    expect(server.requests.length).toBe(sent);
    expect(s.circuitState).toBe('open');
    await sleep(1050);
    expect((await s.search(fresh())).length).toBeGreaterThan(0);
    expect(server.requests.length).toBe(sent + 1);
    expect(s.circuitState).toBe('closed');
  });

  it('opens the circuit after N failures, tries once after the cool-down, and recovers', async () => {
    server.handle(reply(500, 'x', 'text/plain'));
    const { s } = searcher({ failureThreshold: 3, cooldownMs: 300 });
    const start = server.requests.length;
    for (let i = 0; i < 3; i++) expect(await s.search(fresh())).toEqual([]);
    expect(server.requests.length).toBe(start + 3);
    const skippedAt = performance.now();
    expect(await s.search(fresh())).toEqual([]);
    expect(performance.now() - skippedAt).toBeLessThan(50);
    expect(server.requests.length).toBe(start + 3);
    await sleep(320);
    // The trial fails: the circuit reopens without waiting for N more failures.
    expect(await s.search(fresh())).toEqual([]);
    expect(server.requests.length).toBe(start + 4);
    expect(await s.search(fresh())).toEqual([]);
    expect(server.requests.length).toBe(start + 4);
    await sleep(320);
    server.handle(reply(200, fixture('searxng-search.json')));
    expect((await s.search(fresh())).length).toBeGreaterThan(0);
    expect((await s.search(fresh())).length).toBeGreaterThan(0);
    expect(server.requests.length).toBe(start + 6);
    expect(s.circuitState).toBe('closed');
  });

  it('serves a repeated request from the cache until its TTL ends', async () => {
    server.handle(reply(200, fixture('searxng-search.json')));
    const { s } = searcher({ cacheTtlMs: 400 });
    const r = request(term('cached'), { lang: 'en' });
    const start = server.requests.length;
    const first = await s.search(r);
    first[0]!.score = 99;
    const second = await s.search({ ...r, q: 'different raw text, same meaning' });
    expect(server.requests.length).toBe(start + 1);
    expect(second[0]!.score).toBeLessThan(1);
    expect(second.map((x) => x.url)).toEqual(first.map((x) => x.url));
    await s.search({ ...r, lang: 'fr' });
    expect(server.requests.length).toBe(start + 2);
    await sleep(450);
    await s.search(r);
    expect(server.requests.length).toBe(start + 3);
  });

  it("stops at once on the caller's abort without counting it against the provider", async () => {
    server.handle(hang);
    const { s, reasons } = searcher({ failureThreshold: 1 });
    const controller = new AbortController();
    const pending = s.search(fresh(), controller.signal);
    await sleep(30);
    const abortedAt = performance.now();
    controller.abort();
    expect(await pending).toEqual([]);
    expect(performance.now() - abortedAt).toBeLessThan(100);
    expect(reasons).toEqual([]);
    expect(s.circuitState).toBe('closed');
    expect(await s.search(fresh(), AbortSignal.abort())).toEqual([]);
  });

  it('answers [] when nothing listens at the configured address', async () => {
    const reasons: string[] = [];
    const s = createFallbackSearcher({
      provider: 'searxng',
      searxngUrl: 'http://127.0.0.1:9',
      timeoutMs: TIMEOUT_MS,
      onError: (reason) => reasons.push(reason),
    });
    expect(await s!.search(fresh())).toEqual([]);
    expect(reasons[0]).toMatch(/network error/);
  });
});
