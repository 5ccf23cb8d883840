import { describe, expect, it } from '@jest/globals';
import { BraveProvider } from './brave.js';
import { createFallbackSearcher } from './options.js';
import { fixture, or, phrase, reply, request, term, useFakeProvider } from './test-server.fixture.js';

const API_KEY = 'BSA-test-subscription-token-123456';
const server = useFakeProvider();

describe('BraveProvider against a Brave-shaped server', () => {
  it('calls /res/v1/web/search with the token header and Brave parameters', async () => {
    server.handle(reply(200, fixture('brave-web-search.json')));
    const provider = new BraveProvider({ apiKey: API_KEY, baseUrl: server.baseUrl });
    const r = request(or(term('tokio'), phrase('async std', 'title')), {
      lang: 'zh-CN',
      timeRange: '7d',
      count: 80,
      site: 'tokio.rs',
    });
    await provider.search(r, new AbortController().signal);
    const seen = server.requests.at(-1)!;
    expect(seen.url.pathname).toBe('/res/v1/web/search');
    expect(seen.headers['x-subscription-token']).toBe(API_KEY);
    expect(seen.headers.accept).toContain('application/json');
    expect(seen.url.searchParams.get('q')).toBe('tokio OR intitle:"async std" site:tokio.rs');
    expect(seen.url.searchParams.get('count')).toBe('20');
    expect(seen.url.searchParams.get('search_lang')).toBe('zh-hans');
    expect(seen.url.searchParams.get('freshness')).toBe('pw');
    expect(seen.url.href).not.toContain(API_KEY);
  });

  it('maps the documented answer: plain-text snippets, site names, languages, dates, no duplicates', async () => {
    server.handle(reply(200, fixture('brave-web-search.json')));
    const provider = new BraveProvider({ apiKey: API_KEY, baseUrl: server.baseUrl });
    const results = await provider.search(request(term('tokio')), new AbortController().signal);
    expect(results.map((r) => r.url)).toEqual([
      'https://tokio.rs/',
      'https://docs.rs/tokio/latest/tokio/',
      'https://tokio.rs/tokio/tutorial/hello-tokio',
    ]);
    const [tokio, docs, tutorial] = results;
    expect(tokio).toMatchObject({
      id: '',
      source: 'external',
      title: 'Tokio - An asynchronous Rust runtime',
      domain: 'tokio.rs',
      site_name: 'Tokio',
      lang: 'en',
      has_llms_txt: false,
      published_at: '2024-03-05T10:12:00Z',
      crawled_at: '2024-03-05T10:12:00Z',
    });
    expect(tokio?.snippet).toBe(
      'Tokio is an event-driven, non-blocking I/O platform for writing asynchronous applications with the Rust programming language & friends.',
    );
    expect(docs?.snippet).toContain("platform's core");
    expect(docs?.site_name).toBe('Docs.rs');
    expect(docs?.published_at).toBeNull();
    expect(tutorial?.title).toBe('Tokio tutorial: Hello Tokio');
    expect(tutorial?.snippet).toBe(
      'We will get started by writing a very basic Tokio application. It connects to the Mini-Redis server.',
    );
    expect(tutorial?.published_at).toBe('2023-11-20T08:00:00Z');
  });

  it('drops results in another language than the requested one', async () => {
    server.handle(reply(200, fixture('brave-web-search.json')));
    const provider = new BraveProvider({ apiKey: API_KEY, baseUrl: server.baseUrl });
    expect(await provider.search(request(term('tokio'), { lang: 'fr' }), new AbortController().signal)).toEqual([]);
  });

  it('treats an answer without web results as empty, and one without type as malformed', async () => {
    const provider = new BraveProvider({ apiKey: API_KEY, baseUrl: server.baseUrl });
    server.handle(reply(200, JSON.stringify({ type: 'search', query: { original: 'x' } })));
    expect(await provider.search(request(term('x')), new AbortController().signal)).toEqual([]);
    server.handle(reply(200, JSON.stringify({ web: { results: [] } })));
    await expect(provider.search(request(term('x')), new AbortController().signal)).rejects.toThrow(/shape/);
  });

  it('does not follow a redirect, which would carry the token elsewhere; never reports the token', async () => {
    const reasons: string[] = [];
    const searcher = createFallbackSearcher({
      provider: 'brave',
      braveApiKey: API_KEY,
      braveUrl: server.baseUrl,
      onError: (reason) => reasons.push(reason),
    });
    server.handle((_req, res) => res.writeHead(302, { location: `${server.baseUrl}/elsewhere` }).end());
    const before = server.requests.length;
    expect(await searcher!.search(request(term('redirect')))).toEqual([]);
    expect(server.requests.length).toBe(before + 1);
    for (const [status, body, type] of [
      [500, '<html>oops</html>', 'text/html'],
      [401, JSON.stringify({ error: { detail: `bad token ${API_KEY}` } }), 'application/json'],
      [200, `{"type":"search","token":"${API_KEY}"`, 'application/json'],
    ] as const) {
      server.handle(reply(status, body, type));
      expect(await searcher!.search(request(term(`status-${status}`)))).toEqual([]);
    }
    expect(reasons).toHaveLength(4);
    expect(reasons.join('\n')).not.toContain(API_KEY);
    expect(reasons.every((r) => r.startsWith('brave: '))).toBe(true);
  });
});
