import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { pageIdForUrl } from '@quarry/core';

const ROOT = join(new URL('.', import.meta.url).pathname, '../../..');
const BIN = join(ROOT, 'packages/cli/bin/quarry.js');
const GUIDE = {
  url: 'https://garden.example.com/tomatoes',
  title: 'Growing tomatoes at home',
  lang: 'en',
  body_text:
    'Tomatoes like sun. They need water every day in summer.\n\nAphids eat the leaves of young plants. Spray them with soapy water in the evening.',
};
const OTHER = {
  url: 'https://bikes.example.com/chains',
  title: 'Oiling a bicycle chain',
  lang: 'en',
  body_text: 'Clean the chain first. Then put one drop of oil on every link and wipe off the rest.',
};

/** Two CLI processes start in the hook (import, then mcp); a loaded CI machine takes seconds for each. */
const STARTUP_TIMEOUT_MS = 120_000;

type Structured = Record<string, unknown> & { results?: { id: string; url: string }[] };

describe('quarry mcp (stdio) with the official SDK client', () => {
  let dir: string;
  let client: Client;
  let stderr = '';
  const env = (): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    QUARRY_DATA_DIR: dir,
    // Logging at info proves that nothing but the protocol reaches stdout.
    LOG_LEVEL: 'info',
  });

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'packages/cli/dist/main.js'))) throw new Error('run `npm run build` first');
    dir = mkdtempSync(join(tmpdir(), 'quarry-mcp-'));
    const file = join(dir, 'docs.jsonl');
    writeFileSync(file, `${JSON.stringify(GUIDE)}\n${JSON.stringify(OTHER)}\n`);
    const imported = spawnSync(process.execPath, [BIN, 'import', file], { env: env(), encoding: 'utf8' });
    expect(imported.status).toBe(0);
    client = new Client({ name: 'quarry-stdio-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      env: env(),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    await client.connect(transport);
  }, STARTUP_TIMEOUT_MS);

  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists search and get_content (no crawl_site without an admin token)', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_content', 'search']);
    // The server logs, to stderr: stdout carries the protocol only (the client parsed every line).
    expect(stderr).toContain('quarry MCP server on stdio');
  });

  it('finds the imported page with a plain-language question and reads it as text and markdown', async () => {
    const found = await client.callTool({
      name: 'search',
      arguments: { q: 'How do I get rid of aphids on my tomato plants?' },
    });
    expect(found.isError).toBeFalsy();
    const first = (found.structuredContent as Structured).results?.[0];
    expect(first?.url).toBe(GUIDE.url);
    expect(first?.id).toBe(pageIdForUrl(GUIDE.url));

    const text = await client.callTool({ name: 'get_content', arguments: { id: first?.id } });
    expect((text.structuredContent as Structured).body_text).toBe(GUIDE.body_text);
    const md = await client.callTool({ name: 'get_content', arguments: { id: first?.id, format: 'markdown' } });
    expect((md.structuredContent as Structured).body_markdown).toContain('Aphids eat the leaves');
    expect(JSON.stringify(md.content)).toContain(GUIDE.title);
  });

  it('answers an unknown id with isError and keeps serving', async () => {
    const unknown = await client.callTool({
      name: 'get_content',
      arguments: { id: pageIdForUrl('https://nowhere.example/') },
    });
    expect(unknown.isError).toBe(true);
    const again = await client.callTool({ name: 'search', arguments: { q: 'bicycle chain oil' } });
    expect((again.structuredContent as Structured).results?.[0]?.url).toBe(OTHER.url);
  });

  /** A client's opening: `initialize`, then `notifications/initialized`. */
  const OPENING = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
  ];
  const call = (id: number, name: string, args: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  });

  /** `quarry mcp` given `messages` (a string as the line it is) on a stdin that then closes, as a script piping them does. */
  const piped = (messages: readonly (object | string)[], timeout: number) => {
    const line = (message: object | string) => (typeof message === 'string' ? message : JSON.stringify(message));
    const run = spawnSync(process.execPath, [BIN, 'mcp'], {
      env: env(),
      encoding: 'utf8',
      input: `${messages.map(line).join('\n')}\n`,
      timeout,
      // SIGTERM would be handled: the server closes cleanly on it, after the calls in flight.
      killSignal: 'SIGKILL',
    });
    type Answer = { id: number | null; result?: { structuredContent?: Structured }; error?: { code: number } };
    const all: Answer[] = run.stdout
      .trim()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
    const answers = new Map(all.filter((answer) => answer.id !== null).map((answer) => [answer.id, answer]));
    // The answers to lines that were not read as messages: their id is unknown.
    const unreadable = all.filter((answer) => answer.id === null);
    return { status: run.status, signal: run.signal, answers, unreadable };
  };

  it(
    'answers every call written before stdin closed, as a script piping requests gets them',
    () => {
      const run = piped(
        [
          ...OPENING,
          call(2, 'search', { q: 'bicycle chain oil' }),
          call(3, 'get_content', { id: pageIdForUrl(GUIDE.url) }),
        ],
        STARTUP_TIMEOUT_MS,
      );
      expect(run.status).toBe(0);
      expect([...run.answers.keys()].sort()).toEqual([1, 2, 3]);
      expect(run.answers.get(2)?.result?.structuredContent?.results?.[0]?.url).toBe(OTHER.url);
      expect(run.answers.get(3)?.result?.structuredContent?.body_text).toBe(GUIDE.body_text);
    },
    STARTUP_TIMEOUT_MS,
  );

  it(
    'answers a line that is not JSON, or not JSON-RPC, with its error (id null), and serves on',
    () => {
      const run = piped(
        [...OPENING, 'this is not json', '{"hello":"world"}', call(2, 'search', { q: 'bicycle chain oil' })],
        STARTUP_TIMEOUT_MS,
      );
      expect(run.status).toBe(0);
      const errors = run.unreadable.map((answer) => answer.error?.code);
      expect(errors).toEqual([-32700, -32600]);
      expect(run.answers.get(2)?.result?.structuredContent?.results?.[0]?.url).toBe(OTHER.url);
    },
    STARTUP_TIMEOUT_MS,
  );

  it(
    'ends quietly, exit 0, when the client stops reading (closes the pipe) before its answers',
    async () => {
      const child = spawn(process.execPath, [BIN, 'mcp'], { env: env() });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const code = new Promise<number | null>((resolve) => child.once('exit', resolve));
      // The first answer read, then the read end closed, as `quarry mcp | head -c 100` does.
      const first = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      child.stdin.write(`${JSON.stringify(OPENING[0])}\n`);
      await first;
      child.stdout.destroy();
      child.stdin.write(
        `${[...OPENING.slice(1), call(2, 'search', { q: 'bicycle chain oil' })].map((m) => JSON.stringify(m)).join('\n')}\n`,
      );
      expect(await code).toBe(0);
      expect(stderr).not.toMatch(/EPIPE|Unhandled|at /);
    },
    STARTUP_TIMEOUT_MS,
  );

  it(
    'does not wait for the answer to a call the client cancelled before closing stdin',
    () => {
      const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'left' } };
      // A cancelled call is never answered: waiting for it would hold the process for the whole
      // 30 s the end of stdin gives the calls in flight, past this timeout.
      const run = piped([...OPENING, call(2, 'search', { q: 'tomatoes' }), cancel], 25_000);
      expect(run.signal).toBeNull();
      expect(run.status).toBe(0);
      expect([...run.answers.keys()]).toEqual([1]);
    },
    STARTUP_TIMEOUT_MS,
  );
});

describe('quarry mcp --help', () => {
  it('names every tool, crawl_site with what offers it', () => {
    if (!existsSync(join(ROOT, 'packages/cli/dist/main.js'))) throw new Error('run `npm run build` first');
    const help = spawnSync(process.execPath, [BIN, 'mcp', '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      '(search, get_content; crawl_site when QUARRY_ADMIN_TOKEN is set)',
    );
  });
});
