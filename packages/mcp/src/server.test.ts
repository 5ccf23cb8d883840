import { describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BackendUnavailableError, type PageDocument, pageIdForUrl, pageIdsForUrl, ValidationError } from '@quarry/core';
import { pageMarkdown } from '@quarry/passages';
import type { CrawlSiteRequest, CrawlSiteResult, QuarryBackend, SearchToolArgs } from './backend.js';
import { WHOLE_PAGE_TOKENS } from './content-tool.js';
import { createQuarryMcpServer } from './server.js';

const PAGE: PageDocument = {
  id: 'AAAAAAAAAAAAAAAAAAAAAB',
  url: 'https://example.com/a',
  title: 'A page',
  body_text: 'Intro.\n\nThe answer is forty-two.',
  lang: 'en',
  author: null,
  published_at: null,
  crawled_at: '2026-01-01T00:00:00Z',
  site_name: null,
  has_llms_txt: false,
  filetype: 'html',
  domain: 'example.com',
  word_count: 5,
};

/** A page with a date and no author. */
const DATED: PageDocument = { ...PAGE, id: 'AAAAAAAAAAAAAAAAAAAAAC', published_at: '2026-03-02T09:00:00Z' };

/** A page stored under the id its URL gives, as the crawler stores every page. */
const GUIDE: PageDocument = {
  ...PAGE,
  id: pageIdForUrl('https://example.com/guide'),
  url: 'https://example.com/guide',
  body_text: 'The guide.',
};

/** `count` paragraphs of 14 words (17 tokens) each, numbered. */
const paragraphs = (count: number): string =>
  Array.from(
    { length: count },
    (_, i) => `Paragraph ${i} tells of rivers and hills. The people near them fish in summer.`,
  ).join('\n\n');

/** A page of 40 paragraphs, 680 tokens. */
const LONG: PageDocument = { ...PAGE, id: 'AAAAAAAAAAAAAAAAAAAAAD', body_text: paragraphs(40), word_count: 560 };

/** A page of 3,000 paragraphs, about 51,000 tokens: more than get_content gives whole. */
const HUGE: PageDocument = { ...LONG, id: 'AAAAAAAAAAAAAAAAAAAAAE', body_text: paragraphs(3_000), word_count: 42_000 };

/** A backend over one page that records the searches it was asked and fails on demand. */
function backend(searches: SearchToolArgs[]): QuarryBackend {
  return {
    async search(args) {
      searches.push(args);
      if (args.q === 'down') throw new BackendUnavailableError('index closed');
      if (args.q === 'bug') throw new Error('secret internals at /srv/quarry');
      if (args.q === 'bad') throw new ValidationError('a query with only exclusions matches nothing', 'q');
      // 57 matches, none of them on the page asked for.
      if (args.q === 'nutrition') return { total: 57, total_is_estimate: false, took_ms: 1, results: [] };
      return { total: 0, total_is_estimate: false, took_ms: 1, results: [] };
    },
    page: async (id) => [PAGE, DATED, GUIDE, LONG, HUGE].find((doc) => doc.id === id) ?? null,
    // As the API's backend reads the index: under either scheme (what it finds for a copy is its own test's).
    pageAt: async (url) =>
      [PAGE, DATED, GUIDE, LONG, HUGE].find((doc) => pageIdsForUrl(url).includes(doc.id)) ??
      // A copy of the guide the crawl skipped: the API's backend gives the page crawled instead.
      (url === 'https://example.com/amp/guide' ? GUIDE : null),
  };
}

async function connect(searches: SearchToolArgs[], errors: unknown[] = []): Promise<Client> {
  const server = createQuarryMcpServer(backend(searches), { onError: (err) => errors.push(err) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('createQuarryMcpServer', () => {
  it('searches with match any unless told otherwise, and with the REST defaults', async () => {
    const searches: SearchToolArgs[] = [];
    const client = await connect(searches);
    await client.callTool({ name: 'search', arguments: { q: 'what is the answer?' } });
    await client.callTool({ name: 'search', arguments: { q: 'answer', match: 'all', limit: 3 } });
    expect(searches).toEqual([
      { q: 'what is the answer?', limit: 10, offset: 0, match: 'any' },
      { q: 'answer', limit: 3, offset: 0, match: 'all' },
    ]);
    const res = await client.callTool({ name: 'search', arguments: { q: 'nothing' } });
    expect(JSON.stringify(res.content)).toContain('No results');
  });

  it('declares tools without listChanged: the tools never change during a session', async () => {
    const client = await connect([]);
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
  });

  it("says get_content's offsets are UTF-16 code units, not characters", async () => {
    const client = await connect([]);
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'get_content');
    expect(tool?.description).toContain('Offsets count UTF-16 code units');
    const start = (tool?.inputSchema.properties as Record<string, { description?: string }> | undefined)?.start;
    expect(start?.description).toContain('UTF-16 code units');
    expect(JSON.stringify(tool?.outputSchema)).not.toMatch(/character offset|\(characters/);
  });

  it('turns failures into tool errors that name the problem but never internals', async () => {
    const errors: unknown[] = [];
    const client = await connect([], errors);
    const bad = await client.callTool({ name: 'search', arguments: { q: 'bad' } });
    expect(bad).toMatchObject({ isError: true, content: [{ text: 'a query with only exclusions matches nothing' }] });
    const down = await client.callTool({ name: 'search', arguments: { q: 'down' } });
    expect(down.isError).toBe(true);
    expect(JSON.stringify(down.content)).toContain('temporarily unavailable');
    const bug = await client.callTool({ name: 'search', arguments: { q: 'bug' } });
    expect(bug.isError).toBe(true);
    expect(JSON.stringify(bug.content)).not.toContain('/srv/quarry');
    expect(errors).toHaveLength(2);
  });

  it('reads a page whole or as passages, and says which id is unknown', async () => {
    const client = await connect([]);
    const whole = await client.callTool({ name: 'get_content', arguments: { id: PAGE.id } });
    expect(JSON.stringify(whole.content)).toContain('The answer is forty-two.');
    const passages = await client.callTool({
      name: 'get_content',
      arguments: { id: PAGE.id, query: 'answer', max_tokens: 16 },
    });
    // Short paragraphs share one chunk.
    expect(passages.structuredContent).toMatchObject({
      passages: [{ text: PAGE.body_text, start: 0, end: PAGE.body_text.length }],
    });
    const said = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text;
    expect(said(passages)).not.toContain('No word of the question');
    // No word of the question on the page: its opening, and the answer says so.
    const opening = await client.callTool({
      name: 'get_content',
      arguments: { id: PAGE.id, query: 'zebra', max_tokens: 16 },
    });
    expect(opening.structuredContent).toMatchObject({ passages: [{ start: 0, score: 0 }] });
    expect(said(opening)).toContain('No word of the question is on this page; its opening instead:');
    // A date without an author is said as a date, never as the author.
    const dated = await client.callTool({ name: 'get_content', arguments: { id: DATED.id } });
    const text = (dated.content as { text: string }[])[0]!.text;
    expect(text).toContain('Published: 2026-03-02T09:00:00Z');
    expect(text).not.toContain('By:');
    const unknown = await client.callTool({ name: 'get_content', arguments: { id: 'nope' } });
    expect(unknown.isError).toBe(true);
    expect(unknown.content).toEqual([expect.objectContaining({ text: expect.stringContaining('"nope"') })]);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('crawl_site');
  });

  it('answers an argument the tool does not take with a tool error naming it, and lists none', async () => {
    const client = await connect([]);
    const typo = await client.callTool({ name: 'get_content', arguments: { id: PAGE.id, max_token: 100 } });
    expect(typo.isError).toBe(true);
    const said = JSON.stringify(typo.content);
    expect(said).toContain('unknown argument max_token');
    expect(said).toContain('max_tokens');
    const search = await client.callTool({ name: 'search', arguments: { q: 'answer', limt: 3, sites: 'x' } });
    expect(search.isError).toBe(true);
    expect(JSON.stringify(search.content)).toContain('unknown arguments limt, sites');
    for (const tool of (await client.listTools()).tools) {
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    }
  });

  it('reads a page by its URL, under either scheme, and wants exactly one of id and url', async () => {
    const client = await connect([]);
    for (const url of ['https://example.com/guide', 'http://EXAMPLE.com/guide#intro']) {
      const byUrl = await client.callTool({ name: 'get_content', arguments: { url } });
      expect(byUrl.structuredContent).toMatchObject({ id: GUIDE.id, body_text: 'The guide.' });
    }
    // Found in place of a copy's URL: the page's own URL is the source, and the URL asked for is said.
    const copy = await client.callTool({ name: 'get_content', arguments: { url: 'https://example.com/amp/guide' } });
    expect(copy.structuredContent).toMatchObject({ id: GUIDE.id, url: GUIDE.url });
    expect(JSON.stringify(copy.content)).toContain(
      `Source: ${GUIDE.url}\\nAsked for: https://example.com/amp/guide (the crawl took it for a copy of this page)`,
    );
    const own = await client.callTool({ name: 'get_content', arguments: { url: 'http://example.com/guide' } });
    expect(JSON.stringify(own.content)).not.toContain('Asked for');
    const missing = await client.callTool({ name: 'get_content', arguments: { url: 'https://example.com/none' } });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain('No page is indexed at');
    const both = await client.callTool({ name: 'get_content', arguments: { id: GUIDE.id, url: GUIDE.url } });
    expect(both.isError).toBe(true);
    expect(JSON.stringify(both.content)).toContain('not both');
    const neither = await client.callTool({ name: 'get_content', arguments: {} });
    expect(neither.isError).toBe(true);
    expect(neither.content).toEqual([
      { type: 'text', text: 'Give the page to read: id (of a search result) or url (of an indexed page).' },
    ]);
  });

  it('reads a long page in portions from start that make up its text or its markdown', async () => {
    const client = await connect([]);
    const forms = [
      ['text', 'body_text', LONG.body_text],
      ['markdown', 'body_markdown', pageMarkdown(LONG)],
    ] as const;
    for (const [format, field, body] of forms) {
      let read = '';
      for (let start = 0, calls = 1; ; calls++) {
        const res = await client.callTool({
          name: 'get_content',
          arguments: { id: LONG.id, format, max_tokens: 100, ...(start > 0 ? { start } : {}) },
        });
        const content = res.structuredContent as Record<string, unknown> & { portion: Record<string, number> };
        const { end, tokens } = content.portion;
        expect(content.portion).toMatchObject({ start, length: body.length });
        expect(tokens).toBeLessThanOrEqual(100);
        expect(Object.keys(content)).not.toContain(field === 'body_text' ? 'body_markdown' : 'body_text');
        read += content[field];
        const next = end === body.length ? 'end of page' : `continue with start=${end}`;
        expect(textOf(res)).toMatch(/^# A page\nSource: https:\/\/example.com\/a\n\nParagraph \d+ /);
        expect(textOf(res).endsWith(`\n\n[chars ${start}-${end} of ${body.length}; ${next}]`)).toBe(true);
        if (end === body.length) {
          expect(calls).toBeGreaterThan(5);
          break;
        }
        start = end!;
      }
      expect(read).toBe(body);
    }
    // start alone reads with the default budget, which holds the rest of this page.
    const start = LONG.body_text.indexOf('Paragraph 30');
    const rest = await client.callTool({ name: 'get_content', arguments: { id: LONG.id, start } });
    expect(rest.structuredContent).toMatchObject({
      body_text: LONG.body_text.slice(start),
      portion: { start, end: LONG.body_text.length },
    });
  });

  it('gives a page past WHOLE_PAGE_TOKENS as its first portion, with where to read on, unless asked for less', async () => {
    const client = await connect([]);
    for (const [format, field, body] of [
      ['text', 'body_text', HUGE.body_text],
      ['markdown', 'body_markdown', pageMarkdown(HUGE)],
    ] as const) {
      const first = await client.callTool({ name: 'get_content', arguments: { id: HUGE.id, format } });
      const content = first.structuredContent as Record<string, unknown> & { portion: Record<string, number> };
      const { end, tokens } = content.portion;
      expect(content.portion).toMatchObject({ start: 0, length: body.length });
      expect(tokens).toBeLessThanOrEqual(WHOLE_PAGE_TOKENS);
      expect(tokens).toBeGreaterThan(WHOLE_PAGE_TOKENS * 0.9);
      expect(content[field]).toBe(body.slice(0, end));
      expect(textOf(first).endsWith(`[chars 0-${end} of ${body.length}; continue with start=${end}]`)).toBe(true);
      const next = await client.callTool({ name: 'get_content', arguments: { id: HUGE.id, format, start: end } });
      expect(next.structuredContent).toMatchObject({ portion: { start: end } });
    }
    // A page under the limit is still given whole, with no portion.
    const whole = await client.callTool({ name: 'get_content', arguments: { id: LONG.id } });
    expect(whole.structuredContent).toMatchObject({ body_text: LONG.body_text });
    expect(Object.keys(whole.structuredContent ?? {})).not.toContain('portion');
  });

  it('refuses start with query, at or past the end of the page, or other than a whole number', async () => {
    const client = await connect([]);
    const withQuery = await client.callTool({
      name: 'get_content',
      arguments: { id: LONG.id, query: 'rivers', start: 10 },
    });
    expect(withQuery.isError).toBe(true);
    expect(textOf(withQuery)).toContain('start reads the page in portions and does not go with query');
    const length = LONG.body_text.length;
    for (const start of [length, length + 1]) {
      const past = await client.callTool({ name: 'get_content', arguments: { id: LONG.id, max_tokens: 100, start } });
      expect(past.isError).toBe(true);
      expect(textOf(past)).toBe(
        `start ${start} is past the end of the page: its text has ${length} UTF-16 code units. Give a start below ${length} (0 for the beginning).`,
      );
    }
    const markdownLength = pageMarkdown(LONG).length;
    const pastMarkdown = await client.callTool({
      name: 'get_content',
      arguments: { id: LONG.id, format: 'markdown', start: markdownLength },
    });
    expect(textOf(pastMarkdown)).toContain(`its markdown has ${markdownLength} UTF-16 code units`);
    for (const start of [-1, 2.5, '10']) {
      const bad = await client.callTool({ name: 'get_content', arguments: { id: LONG.id, start } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toContain('start must be an integer of at least 0');
    }
  });

  it('says when the offset is past the last result, and suggests match any only when it was all', async () => {
    const client = await connect([]);
    const past = await client.callTool({ name: 'search', arguments: { q: 'nutrition', offset: 990 } });
    expect(past.isError).toBeFalsy();
    expect(textOf(past)).toBe(
      'Offset 990 is past the last result: "nutrition" has 57 matches. Use an offset below 57 (0 for the first page).',
    );
    const none = await client.callTool({ name: 'search', arguments: { q: 'nothing' } });
    expect(textOf(none)).toBe('No results for "nothing". Try other or fewer words, or fewer filters.');
    const all = await client.callTool({ name: 'search', arguments: { q: 'nothing', match: 'all' } });
    expect(textOf(all)).toContain('or match "any"');
  });

  it("names a bad argument in the REST API's words, and takes a question as long as search does", async () => {
    const client = await connect([]);
    const cases: [Record<string, unknown>, string][] = [
      [{ q: 'answer', limit: 2.5 }, 'limit must be an integer from 1 to 100'],
      [{ q: 'answer', offset: 991 }, 'offset must be an integer from 0 to 990'],
      [{ limit: 3 }, 'q is required'],
      [{ q: '' }, 'q must not be empty'],
      [{ q: 'answer', match: 'some' }, 'match must be one of all, any'],
      [{ q: 'answer', lang: 'english' }, 'lang must be a language code such as en or zh-CN'],
    ];
    for (const [args, message] of cases) {
      const res = await client.callTool({ name: 'search', arguments: args });
      expect(res.isError).toBe(true);
      expect(textOf(res)).toContain(message);
      expect(textOf(res)).not.toMatch(/expected|received|Invalid input/);
    }
    const long = await client.callTool({
      name: 'get_content',
      arguments: { id: PAGE.id, query: `the answer ${'x'.repeat(4000)}` },
    });
    expect(long.isError).toBeFalsy();
    const tooLong = await client.callTool({ name: 'get_content', arguments: { id: PAGE.id, query: 'x'.repeat(4097) } });
    expect(textOf(tooLong)).toContain('query must be at most 4096 characters');
  });

  it('answers a tools/call without a tool name or with arguments that are no object with -32602 and a sentence', async () => {
    const server = createQuarryMcpServer(backend([]));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const replies: JSONRPCMessage[] = [];
    clientSide.onmessage = (message) => replies.push(message);
    await server.connect(serverSide);
    await clientSide.start();
    // Sent as a client without the SDK would, past the types that would refuse them.
    const call = (id: number, params?: unknown) =>
      clientSide.send({ jsonrpc: '2.0', id, method: 'tools/call', params } as JSONRPCMessage);
    await call(1);
    await call(2, { arguments: { q: 'answer' } });
    await call(3, { name: 'search', arguments: 'answer' });
    await call(4, { name: 'search', arguments: ['answer'] });
    await call(5, { name: 'search', arguments: { q: 'answer' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const byId = new Map(replies.map((r) => ['id' in r ? r.id : null, r]));
    for (const id of [1, 2]) {
      expect(byId.get(id)).toEqual({
        jsonrpc: '2.0',
        id,
        error: {
          code: -32602,
          message: 'Invalid params: tools/call needs params.name, the name of a tool (see tools/list).',
        },
      });
    }
    for (const id of [3, 4]) {
      expect(byId.get(id)).toMatchObject({
        error: {
          code: -32602,
          message: 'Invalid params: params.arguments of search must be an object of its arguments by name.',
        },
      });
    }
    expect(byId.get(5)).toMatchObject({ id: 5, result: { content: [{ type: 'text' }] } });
    await server.close();
  });

  it('answers initialize without its params with -32602 and a sentence, not -32603 and zod issues', async () => {
    const server = createQuarryMcpServer(backend([]));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const replies: JSONRPCMessage[] = [];
    clientSide.onmessage = (message) => replies.push(message);
    await server.connect(serverSide);
    await clientSide.start();
    await clientSide.send({ jsonrpc: '2.0', id: 1, method: 'initialize' } as JSONRPCMessage);
    await clientSide.send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { capabilities: [] } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [bare, partial] = replies as { id: number; error: { code: number; message: string } }[];
    expect(bare).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(bare?.error.message).toMatch(
      /^Invalid params: initialize needs params with protocolVersion .*; params is missing/,
    );
    expect(partial?.error.message).toMatch(
      /; params\.protocolVersion, params\.capabilities, params\.clientInfo are missing or not of that type\.$/,
    );
    await server.close();
  });
});

/** The text of a tool answer's first content block. */
function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { text: string }[])[0]?.text ?? '';
}

describe('crawl_site', () => {
  /** A server whose crawler answers `result` and records what it was asked. */
  async function crawlClient(result: CrawlSiteResult, asked: CrawlSiteRequest[] = []): Promise<Client> {
    const server = createQuarryMcpServer({
      ...backend([]),
      crawlSite: async (request) => {
        asked.push(request);
        return result;
      },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(clientSide);
    return client;
  }
  const url = 'https://example.com/';

  it('says what was queued, with the input names max_depth and max_pages in its output', async () => {
    const asked: CrawlSiteRequest[] = [];
    const client = await crawlClient({ url, outcome: 'queued', maxDepth: 3, maxPages: 20 }, asked);
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'crawl_site');
    expect(Object.keys(tool?.outputSchema?.properties ?? {})).toEqual(
      expect.arrayContaining(['max_depth', 'max_pages', 'outcome']),
    );
    expect(Object.keys(tool?.outputSchema?.properties ?? {})).not.toContain('maxDepth');
    const res = await client.callTool({ name: 'crawl_site', arguments: { url, max_depth: 3, max_pages: 20 } });
    expect(asked).toEqual([{ url, maxDepth: 3, maxPages: 20 }]);
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toEqual({ url, outcome: 'queued', queued: 1, max_depth: 3, max_pages: 20 });
    expect(textOf(res)).toBe(`Queued ${url} (depth 3, at most 20 pages); its pages appear in search once crawled.`);
  });

  it('tells a URL queued again, recrawled, already queued, already crawled and a spent budget apart', async () => {
    const asked = { url, maxDepth: 2, maxPages: 50 };
    const again = await (
      await crawlClient({ ...asked, outcome: 'queued_again', previous: { state: 'failed', reason: 'http_404' } })
    ).callTool({ name: 'crawl_site', arguments: { url } });
    expect(again.structuredContent).toEqual({
      url,
      outcome: 'queued_again',
      queued: 1,
      previous_state: 'failed',
      previous_reason: 'http_404',
    });
    expect(textOf(again)).toContain('again (it had ended failed: http_404)');
    const deeper = await (await crawlClient({ ...asked, outcome: 'recrawled', pages: 12 })).callTool({
      name: 'crawl_site',
      arguments: { url },
    });
    expect(deeper.structuredContent).toEqual({ url, outcome: 'recrawled', queued: 12, max_depth: 2, max_pages: 50 });
    expect(textOf(deeper)).toBe(
      `${url} was crawled before with a smaller depth or page budget: its 12 pages are queued again and crawled to depth 2, at most 50 pages.`,
    );
    const cases = [
      ['already_queued', 'is already queued'],
      ['already_crawled', 'was crawled before with as large a depth'],
      ['budget_spent', 'A larger max_pages (at most 1000) may queue it'],
    ] as const;
    for (const [outcome, says] of cases) {
      const res = await (await crawlClient({ ...asked, outcome })).callTool({ name: 'crawl_site', arguments: { url } });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toEqual({ url, outcome, queued: 0 });
      expect(textOf(res)).toContain(says);
      expect(textOf(res)).not.toContain('queued before');
    }
  });

  it('says how many pages a site with its budget spent has, and the max_pages that queues it', async () => {
    const spent = { url, outcome: 'budget_spent', maxDepth: 2, maxPages: 50 } as const;
    const res = await (await crawlClient({ ...spent, sitePages: 120 })).callTool({
      name: 'crawl_site',
      arguments: { url },
    });
    expect(res.structuredContent).toEqual({ url, outcome: 'budget_spent', queued: 0, site_pages: 120 });
    expect(textOf(res)).toBe(
      `${url} was not queued: the page budget (max_pages 50) counts every URL of its site already in the crawl, ` +
        'and it has 120 (queued or crawled). Call crawl_site again with max_pages above 120 (at most 1000) to queue it.',
    );
    const full = await (await crawlClient({ ...spent, sitePages: 1000 })).callTool({
      name: 'crawl_site',
      arguments: { url },
    });
    expect(full.structuredContent).toMatchObject({ site_pages: 1000 });
    expect(textOf(full)).toContain('as many as the largest max_pages (1000) allows, so crawl_site cannot queue more');
  });

  it('answers a refused private address with a tool error naming QUARRY_ALLOW_HOSTS', async () => {
    const metadata = 'http://169.254.169.254/latest/meta-data/';
    const client = await crawlClient({ url: metadata, outcome: 'refused', address: '169.254.169.254' });
    const res = await client.callTool({ name: 'crawl_site', arguments: { url: metadata } });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toContain('169.254.169.254 is a private or reserved address');
    expect(textOf(res)).toContain('QUARRY_ALLOW_HOSTS=169.254.169.254');
    expect(textOf(res)).toContain('nothing was queued');
  });
});
