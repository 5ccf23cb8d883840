import { describe, expect, it } from '@jest/globals';
import { createFallbackSearcher, fallbackOptionsFromConfig } from './options.js';
import { SearxngProvider } from './searxng.js';
import { and, fixture, not, phrase, reply, request, term, useFakeProvider } from './test-server.fixture.js';

const server = useFakeProvider();

describe('SearxngProvider against a SearXNG-shaped server', () => {
  it('sends the translated query and parameters to /search with format=json', async () => {
    server.handle(reply(200, fixture('searxng-search.json')));
    const provider = new SearxngProvider({ baseUrl: `${server.baseUrl}/searx` });
    const r = request(and(term('tokio'), phrase('async runtime'), not(term('java'))), {
      lang: 'en-GB',
      timeRange: '30d',
      sites: ['tokio.rs'],
      filetypes: ['pdf'],
    });
    await provider.search(r, new AbortController().signal);
    const seen = server.requests.at(-1)!.url;
    expect(seen.pathname).toBe('/searx/search');
    expect(seen.searchParams.get('q')).toBe('tokio "async runtime" -java site:tokio.rs filetype:pdf');
    expect(seen.searchParams.get('format')).toBe('json');
    expect(seen.searchParams.get('language')).toBe('en');
    expect(seen.searchParams.get('time_range')).toBe('month');
  });

  it('maps the documented answer to complete, deduplicated external results', async () => {
    server.handle(reply(200, fixture('searxng-search.json'), 'application/json; charset=utf-8'));
    const provider = new SearxngProvider({ baseUrl: server.baseUrl });
    const results = await provider.search(request(term('tokio')), new AbortController().signal);
    expect(results.map((r) => r.url)).toEqual([
      'https://tokio.rs/',
      'https://github.com/tokio-rs/tokio',
      'https://docs.rs/tokio/latest/tokio/runtime/index.html',
    ]);
    const [first, second, third] = results;
    expect(first).toMatchObject({ id: '', source: 'external', domain: 'tokio.rs', lang: 'und', has_llms_txt: false });
    expect(first?.published_at).toBeNull();
    expect(first?.crawled_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(first).not.toHaveProperty('site_name');
    expect(second?.snippet).toContain('timers, …');
    expect(second?.published_at).toBe('2024-06-01T12:30:00Z');
    expect(second?.crawled_at).toBe('2024-06-01T12:30:00Z');
    expect(third?.snippet).toContain('An I/O event loop, called the driver.');
    expect(third?.snippet).not.toMatch(/[<>]/);
    expect(third?.published_at).toBe('2024-02-10T00:00:00Z');
    const scores = results.map((r) => r.score);
    expect(scores.every((s) => s > 0 && s < 1)).toBe(true);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('uses the requested language for results when SearXNG gives none', async () => {
    server.handle(reply(200, fixture('searxng-search.json')));
    const provider = new SearxngProvider({ baseUrl: server.baseUrl });
    const results = await provider.search(
      request(term('tokio'), { lang: 'de', count: 1 }),
      new AbortController().signal,
    );
    expect(results).toHaveLength(1);
    expect(results[0]?.lang).toBe('de');
  });

  it('does not call the server when the request can match nothing', async () => {
    const before = server.requests.length;
    const provider = new SearxngProvider({ baseUrl: server.baseUrl });
    const r = request(term('x'), { site: 'a.org', sites: ['b.org'] });
    expect(await provider.search(r, new AbortController().signal)).toEqual([]);
    expect(provider.cacheKey(r)).toBeNull();
    expect(server.requests.length).toBe(before);
  });
});

describe('createFallbackSearcher from configuration', () => {
  it('builds a SearXNG searcher from the config shape, and none for provider none', async () => {
    server.handle(reply(200, fixture('searxng-search.json')));
    const fallback = {
      provider: 'searxng' as const,
      searxngUrl: server.baseUrl,
      braveApiKey: undefined,
      braveUrl: 'https://api.search.brave.com',
      timeoutMs: 1500,
      crawlResults: false,
    };
    const searcher = createFallbackSearcher(fallbackOptionsFromConfig({ fallback }));
    expect(searcher?.name).toBe('searxng');
    const results = await searcher!.search(request(term('config-test')));
    expect(results.length).toBeGreaterThan(0);
    expect(
      createFallbackSearcher(fallbackOptionsFromConfig({ fallback: { ...fallback, provider: 'none' } })),
    ).toBeNull();
    expect(() => createFallbackSearcher({ provider: 'brave' })).toThrow(/braveApiKey/);
  });
});
