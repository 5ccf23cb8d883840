import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SqliteKeyStore } from '@quarry/keys';
import type { CrawlSiteRequest } from '@quarry/mcp';
import { createApp } from './app.js';
import type { ApiDeps } from './deps.js';
import { type RunningServer, startServer } from './server.js';
import { CORPUS, createFixture, type Fixture, page } from './test-support/fixture.js';

const ADMIN_TOKEN = 'admin-token-for-the-mcp-tests';
const GUIDE = page('https://garden.example.com/tomatoes', {
  title: 'Growing tomatoes at home',
  body_text:
    'Growing tomatoes\n\nTomatoes like sun. They need water every day in summer.\n\nPests\n\nAphids eat the leaves. Spray them with soapy water in the evening.',
  body_markdown:
    '# Growing tomatoes\n\nTomatoes like sun. They need water every day in summer.\n\n## Pests\n\nAphids eat the leaves. Spray them with soapy water in the evening.',
});

type Structured = Record<string, unknown> & { results?: { id: string; url: string }[] };

let fx: Fixture;
const servers: RunningServer[] = [];
const crawlRequests: CrawlSiteRequest[] = [];

async function serve(env: Record<string, string>, extra: Partial<ApiDeps> = {}): Promise<string> {
  const server = await startServer(createApp(fx.deps(env, extra)), {
    port: 0,
    host: '127.0.0.1',
  });
  servers.push(server);
  return server.url;
}

async function connect(base: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'quarry-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  return client;
}

/** One JSON-RPC request, as a client without the SDK would send it. */
function rpc(base: string, method: string, params: unknown, headers: Record<string, string> = {}) {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
}

beforeAll(async () => {
  fx = await createFixture([...CORPUS, GUIDE]);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await fx.cleanup();
});

describe('/mcp over Streamable HTTP with the official SDK client', () => {
  let base: string;
  let client: Client;

  beforeAll(async () => {
    base = await serve({ QUARRY_RATE_LIMIT_PUBLIC: '1000' });
    client = await connect(base);
  });
  afterAll(async () => {
    await client.close();
  });

  it('lists search and get_content, each with an input schema, and no crawl_site without the admin token', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_content', 'search']);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.description?.length).toBeGreaterThan(50);
    }
  });

  it('finds a page with a plain-language question (match any by default)', async () => {
    const res = await client.callTool({ name: 'search', arguments: { q: 'how do I keep aphids off my tomatoes?' } });
    expect(res.isError).toBeFalsy();
    const results = (res.structuredContent as Structured).results ?? [];
    expect(results[0]?.url).toBe(GUIDE.url);
    expect(res.structuredContent).toMatchObject({ total_is_estimate: false });
    expect(JSON.stringify(res.content)).toContain(GUIDE.url);
  });

  it('reads the page as text, as markdown, and as passages for a question', async () => {
    const text = await client.callTool({ name: 'get_content', arguments: { id: GUIDE.id } });
    expect((text.structuredContent as Structured).body_text).toBe(GUIDE.body_text);
    const md = await client.callTool({ name: 'get_content', arguments: { id: GUIDE.id, format: 'markdown' } });
    expect((md.structuredContent as Structured).body_markdown).toBe(GUIDE.body_markdown);
    const asked = await client.callTool({
      name: 'get_content',
      arguments: { id: GUIDE.id, query: 'aphids soapy water', max_tokens: 30 },
    });
    const passages = (asked.structuredContent as { passages: { text: string; start: number; end: number }[] }).passages;
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.some((p) => p.text.includes('Aphids'))).toBe(true);
    for (const p of passages) expect(GUIDE.body_text.slice(p.start, p.end)).toBe(p.text);
  });

  it('answers an unknown id, a bad argument and a portion past the page with isError, and the session goes on', async () => {
    const unknown = await client.callTool({ name: 'get_content', arguments: { id: 'AAAAAAAAAAAAAAAAAAAAAA' } });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toContain('No indexed page');
    const bad = await client.callTool({ name: 'search', arguments: { q: 'tomatoes', limit: 1000 } });
    expect(bad.isError).toBe(true);
    const onlyExclusions = await client.callTool({ name: 'search', arguments: { q: '-tomatoes' } });
    expect(onlyExclusions.isError).toBe(true);
    const past = await client.callTool({ name: 'get_content', arguments: { id: GUIDE.id, start: 1_000_000 } });
    expect(past.isError).toBe(true);
    expect(JSON.stringify(past.content)).toContain('past the end of the page');
    // A budget without a question reads the page from its start.
    const portion = await client.callTool({ name: 'get_content', arguments: { id: GUIDE.id, max_tokens: 100 } });
    expect(portion.isError).toBeFalsy();
    expect(portion.structuredContent).toMatchObject({ portion: { start: 0, length: GUIDE.body_text.length } });
    const again = await client.callTool({ name: 'search', arguments: { q: 'tomatoes' } });
    expect(again.isError).toBeFalsy();
  });

  it('refuses a foreign Origin and accepts a loopback one', async () => {
    const foreign = await rpc(base, 'tools/list', {}, { origin: 'http://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ type: '/docs#problem-forbidden', status: 403 });
    const nullOrigin = await rpc(base, 'tools/list', {}, { origin: 'null' });
    expect(nullOrigin.status).toBe(403);
    const local = await rpc(base, 'tools/list', {}, { origin: 'http://localhost:3000' });
    expect(local.status).toBe(200);
  });

  it('answers a body that is not JSON with a JSON-RPC parse error (code -32700, id null)', async () => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc": "2.0", "id": 1, "method": ',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the request body is not valid JSON.' },
    });
  });

  it('answers GET with 405 (stateless: no event stream)', async () => {
    const res = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toMatchObject({ type: '/docs#problem-method-not-allowed' });
  });
});

describe('/mcp limits and keys, as /api/v1/search', () => {
  it('shares the public per-IP counter with the REST API; a limited tool call is a tool error', async () => {
    const base = await serve({ QUARRY_RATE_LIMIT_PUBLIC: '3' });
    expect((await fetch(`${base}/api/v1/search?q=quarry`)).status).toBe(200);
    const list = await rpc(base, 'tools/list', {});
    expect(list.status).toBe(200);
    expect(list.headers.get('ratelimit')).toContain('r=1');
    expect((await rpc(base, 'tools/list', {})).status).toBe(200);
    expect((await fetch(`${base}/api/v1/search?q=quarry`)).status).toBe(429);
    const listed = await rpc(base, 'tools/list', {});
    expect(listed.status).toBe(429);
    expect(listed.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const call = await rpc(base, 'tools/call', { name: 'search', arguments: { q: 'quarry' } });
    expect(call.status).toBe(200);
    expect(Number(call.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await call.json()) as { id: number; result: { isError: boolean; content: { text: string }[] } };
    expect(body.id).toBe(7);
    expect(body.result.isError).toBe(true);
    expect(body.result.content[0]?.text).toMatch(/^Rate limit exceeded; retry in \d+ seconds/);
  });

  it('refuses a JSON-RPC batch (-32600), so a hundred calls cannot pass the limiter as one request', async () => {
    const keys = new SqliteKeyStore({ path: join(fx.dir, 'keys-batch.sqlite') });
    try {
      const { key } = await keys.create('batcher', 3);
      const base = await serve({ QUARRY_RATE_LIMIT_PUBLIC: '1000' }, { keys });
      const calls = Array.from({ length: 100 }, (_, i) => ({
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'search', arguments: { q: 'quarry' } },
      }));
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${key}`,
        },
        body: JSON.stringify(calls),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: 'Invalid Request: batches are not supported; send one JSON-RPC message per POST.',
        },
      });
      // Single calls are each counted against the key's 3 a minute.
      const auth = { authorization: `Bearer ${key}` };
      const search = { name: 'search', arguments: { q: 'quarry' } };
      for (const remaining of ['2', '1', '0']) {
        const one = await rpc(base, 'tools/call', search, auth);
        expect(one.headers.get('x-ratelimit-remaining')).toBe(remaining);
        expect(((await one.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
      }
      const limited = (await (await rpc(base, 'tools/call', search, auth)).json()) as { result: { isError: boolean } };
      expect(limited.result.isError).toBe(true);
    } finally {
      await keys.close();
    }
  });

  it('answers a tools/call without a tool name with -32602 and a sentence, not an internal error', async () => {
    const base = await serve({ QUARRY_RATE_LIMIT_PUBLIC: '1000' });
    const res = await rpc(base, 'tools/call', { arguments: { q: 'quarry' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32602,
        message: 'Invalid params: tools/call needs params.name, the name of a tool (see tools/list).',
      },
    });
  });

  it('honours a dedicated key (own limit, X-RateLimit headers) and refuses an unknown one with 401', async () => {
    const keys = new SqliteKeyStore({ path: join(fx.dir, 'keys.sqlite') });
    try {
      const { key } = await keys.create('agent', 2);
      const base = await serve({ QUARRY_RATE_LIMIT_PUBLIC: '1000' }, { keys });
      const auth = { authorization: `Bearer ${key}` };
      const search = { name: 'search', arguments: { q: 'quarry' } };
      const first = await rpc(base, 'tools/call', search, auth);
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-limit')).toBe('2');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
      expect((await fetch(`${base}/api/v1/search?q=quarry`, { headers: auth })).status).toBe(200);
      expect((await fetch(`${base}/api/v1/search?q=quarry`, { headers: auth })).status).toBe(429);
      const limited = (await (await rpc(base, 'tools/call', search, auth)).json()) as { result: { isError: boolean } };
      expect(limited.result.isError).toBe(true);
      const unknown = await rpc(base, 'tools/list', {}, { authorization: 'Bearer not-a-real-key' });
      expect(unknown.status).toBe(401);
    } finally {
      await keys.close();
    }
  });

  it("counts a key's tool calls, one each, and not the handshake, tools/list or ping around them", async () => {
    const keys = new SqliteKeyStore({ path: join(fx.dir, 'keys-session.sqlite') });
    try {
      const { key } = await keys.create('agent', 5);
      const base = await serve({ QUARRY_RATE_LIMIT_PUBLIC: '1000' }, { keys });
      const auth = { authorization: `Bearer ${key}` };
      const searches = async (client: Client, count: number) => {
        for (let i = 0; i < count; i++) {
          const res = await client.callTool({ name: 'search', arguments: { q: `tomatoes ${i}` } });
          expect(res.isError).toBeFalsy();
        }
      };
      const first = await connect(base, auth);
      await first.listTools();
      await first.ping();
      await searches(first, 4);
      await first.close();
      // A new session still connects, and the fifth search of the minute is the key's last.
      const second = await connect(base, auth);
      await second.listTools();
      await searches(second, 1);
      const sixth = await second.callTool({ name: 'search', arguments: { q: 'tomatoes' } });
      expect(sixth.isError).toBe(true);
      expect(JSON.stringify(sixth.content)).toContain('Rate limit exceeded');
      await second.close();
      // No key, no session: a wrong one is refused at the handshake.
      await expect(connect(base, { authorization: 'Bearer qk_wrong' })).rejects.toThrow(/401/);
    } finally {
      await keys.close();
    }
  });

  it('counts wrong bearer tokens as admin-token guesses: ten, then the right token waits too, a key does not', async () => {
    const keys = new SqliteKeyStore({ path: join(fx.dir, 'keys-guesses.sqlite') });
    try {
      const { key } = await keys.create('agent', 100);
      const base = await serve({ QUARRY_RATE_LIMIT_PUBLIC: '1000', QUARRY_ADMIN_TOKEN: ADMIN_TOKEN }, { keys });
      const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
      expect((await rpc(base, 'tools/list', {}, admin)).status).toBe(200);
      for (let i = 0; i < 10; i++) {
        expect((await rpc(base, 'tools/list', {}, { authorization: `Bearer guess-${i}` })).status).toBe(401);
      }
      const locked = await rpc(base, 'tools/list', {}, admin);
      expect(locked.status).toBe(429);
      expect(((await locked.json()) as { detail: string }).detail).toMatch(/^Too many wrong admin tokens/);
      const call = await rpc(base, 'tools/call', { name: 'search', arguments: { q: 'quarry' } }, admin);
      const body = (await call.json()) as { result: { isError: boolean; content: { text: string }[] } };
      expect(body.result.isError).toBe(true);
      expect(body.result.content[0]?.text).toMatch(
        /^Too many wrong admin tokens from this address; retry in \d+ seconds/,
      );
      // A valid key is no try at the admin token: it works during the lockout.
      expect((await rpc(base, 'tools/list', {}, { authorization: `Bearer ${key}` })).status).toBe(200);
      // Without a credential the public tier still answers.
      expect((await rpc(base, 'tools/list', {})).status).toBe(200);
    } finally {
      await keys.close();
    }
  });

  it('answers wrong API keys with 401 as /api/v1 does, not as admin-token guesses that lock valid keys out', async () => {
    const keys = new SqliteKeyStore({ path: join(fx.dir, 'keys-wrong.sqlite') });
    try {
      const { key } = await keys.create('agent', 100);
      const base = await serve({ QUARRY_RATE_LIMIT_PUBLIC: '1000', QUARRY_ADMIN_TOKEN: ADMIN_TOKEN }, { keys });
      const search = { name: 'search', arguments: { q: 'quarry' } };
      for (let i = 0; i < 12; i++) {
        const wrong = await rpc(base, 'tools/call', search, { authorization: `Bearer qk_wrong${i}` });
        expect(wrong.status).toBe(401);
        expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="quarry"');
      }
      const valid = await rpc(base, 'tools/call', search, { authorization: `Bearer ${key}` });
      expect(valid.status).toBe(200);
      expect(((await valid.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
      expect((await rpc(base, 'tools/list', {}, { authorization: `Bearer ${ADMIN_TOKEN}` })).status).toBe(200);
    } finally {
      await keys.close();
    }
  });

  it('offers crawl_site only to a client presenting the configured admin token', async () => {
    const siteCrawler = async (request: CrawlSiteRequest) => {
      crawlRequests.push(request);
      return { url: request.url, outcome: 'queued' as const, maxDepth: request.maxDepth, maxPages: request.maxPages };
    };
    const base = await serve({ QUARRY_RATE_LIMIT_PUBLIC: '1000', QUARRY_ADMIN_TOKEN: ADMIN_TOKEN }, { siteCrawler });
    const anonymous = await connect(base);
    expect((await anonymous.listTools()).tools.map((t) => t.name)).not.toContain('crawl_site');
    await anonymous.close();
    const admin = await connect(base, { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect((await admin.listTools()).tools.map((t) => t.name)).toContain('crawl_site');
    const res = await admin.callTool({ name: 'crawl_site', arguments: { url: 'https://garden.example.com/' } });
    expect(res.isError).toBeFalsy();
    expect(crawlRequests).toEqual([{ url: 'https://garden.example.com/', maxDepth: 2, maxPages: 50 }]);
    const bad = await admin.callTool({ name: 'crawl_site', arguments: { url: 'ftp://garden.example.com/' } });
    expect(bad.isError).toBe(true);
    await admin.close();
  });
});
