import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Route, type Site, startSite } from '@quarry/testkit';
import { BIN, type RunningCli, requireBuiltCli, runCli, spawnCli } from './testing/run-cli.js';

const ADMIN_TOKEN = 'admin-token-for-the-crawl-site-tests';
/** CLI processes start in the hooks; a loaded CI machine takes seconds for each. */
const STARTUP_TIMEOUT_MS = 120_000;
/** Addresses the crawler refuses with QUARRY_ALLOW_HOSTS=127.0.0.1: link-local, private, loopback. */
const REFUSED = ['http://169.254.169.254/latest/meta-data/', 'http://10.1.2.3/', 'http://127.0.0.2/'];

const article = (word: string) =>
  `<html lang="en"><head><title>About the ${word}</title></head><body><article><h1>About the ${word}</h1><p>${`The ${word} lives on a small site of a local network. `.repeat(15)}</p></article></body></html>`;

type CallResult = Awaited<ReturnType<Client['callTool']>>;
const textOf = (result: CallResult) => (result.content as { text: string }[])[0]?.text ?? '';

describe('crawl_site queues as `quarry crawl --seed` does, and says what it did', () => {
  let site: Site;
  let dir: string;
  const env = (): Record<string, string> => ({
    QUARRY_DATA_DIR: dir,
    QUARRY_ALLOW_HOSTS: '127.0.0.1',
    QUARRY_HOST_DELAY_MS: '0',
    QUARRY_ADMIN_TOKEN: ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
  });
  const queuedNow = async (): Promise<number> =>
    JSON.parse((await runCli(['status', '--json'], env())).stdout).crawl.queued;

  beforeAll(async () => {
    requireBuiltCli();
    const routes: Record<string, Route> = {
      '/robots.txt': { body: '' },
      '/': { headers: { 'content-type': 'text/html' }, body: article('otter') },
      '/apple': { status: 404, headers: { 'content-type': 'text/html' }, body: '<html>gone</html>' },
    };
    site = await startSite(routes);
    dir = mkdtempSync(join(tmpdir(), 'quarry-mcp-crawl-'));
    // Two pages of the site admitted: one done, one failed (404); a budget of 1 is spent.
    const crawled = await runCli(
      ['crawl', '--seed', `${site.origin}/`, '--seed', `${site.origin}/apple`, '--wait'],
      env(),
    );
    expect(crawled.stdout).toMatch(/crawl finished: 1 done, \d+ skipped, 1 failed/);
  }, STARTUP_TIMEOUT_MS);
  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('on stdio (quarry mcp)', () => {
    let client: Client;
    const crawlSite = (args: Record<string, unknown>) => client.callTool({ name: 'crawl_site', arguments: args });

    beforeAll(async () => {
      client = new Client({ name: 'quarry-crawl-site-test', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [BIN, 'mcp'],
          env: { PATH: process.env.PATH ?? '', ...env() },
          stderr: 'ignore',
        }),
      );
    }, STARTUP_TIMEOUT_MS);
    afterAll(async () => {
      await client?.close();
    });

    it('refuses a private or reserved address as a tool error naming QUARRY_ALLOW_HOSTS, queueing nothing', async () => {
      const before = await queuedNow();
      for (const url of REFUSED) {
        const res = await crawlSite({ url });
        expect(res.isError).toBe(true);
        expect(textOf(res)).toContain('is a private or reserved address');
        expect(textOf(res)).toContain(`QUARRY_ALLOW_HOSTS=${new URL(url).hostname}`);
      }
      expect(await queuedNow()).toBe(before);
    });

    it('queues a seed that ended failed again, saying why it had failed', async () => {
      const res = await crawlSite({ url: `${site.origin}/apple` });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toEqual({
        url: `${site.origin}/apple`,
        outcome: 'queued_again',
        queued: 1,
        previous_state: 'failed',
        previous_reason: 'http_404',
      });
      expect(textOf(res)).toContain(`Queued ${site.origin}/apple again (it had ended failed: http_404)`);
    });

    it('says the page budget is spent, by how many pages, and a max_pages above them queues the URL', async () => {
      const url = `${site.origin}/slow/`;
      const res = await crawlSite({ url, max_pages: 1 });
      const { site_pages: pages } = res.structuredContent as { site_pages: number };
      // The two seeds, and what the crawl of the first found (its sitemaps skipped).
      expect(pages).toBeGreaterThanOrEqual(2);
      expect(res.structuredContent).toEqual({ url, outcome: 'budget_spent', queued: 0, site_pages: pages });
      expect(textOf(res)).toBe(
        `${url} was not queued: the page budget (max_pages 1) counts every URL of its site already in the crawl, ` +
          `and it has ${pages} (queued or crawled). Call crawl_site again with max_pages above ${pages} (at most 1000) to queue it.`,
      );
      expect((await crawlSite({ url, max_pages: pages })).structuredContent).toMatchObject({ outcome: 'budget_spent' });
      const queued = await crawlSite({ url, max_pages: pages + 1 });
      expect(queued.structuredContent).toMatchObject({ outcome: 'queued', queued: 1, max_pages: pages + 1 });
    });

    it('says a URL within a forgotten site is not queued, and why', async () => {
      expect((await runCli(['forget', `${site.host}:${site.port}/private`], env())).code).toBe(0);
      const before = await queuedNow();
      const res = await crawlSite({ url: `${site.origin}/private/notes.html` });
      expect(res.structuredContent).toEqual({
        url: `${site.origin}/private/notes.html`,
        outcome: 'site_forgotten',
        queued: 0,
      });
      expect(textOf(res)).toContain('the operator took its site out of the crawl');
      expect(await queuedNow()).toBe(before);
    });

    it('queues a new URL once, then says it is already queued; a crawled one is left alone', async () => {
      const fresh = await crawlSite({ url: `${site.origin}/new.html`, max_depth: 1, max_pages: 10 });
      expect(fresh.structuredContent).toEqual({
        url: `${site.origin}/new.html`,
        outcome: 'queued',
        queued: 1,
        max_depth: 1,
        max_pages: 10,
      });
      const again = await crawlSite({ url: `${site.origin}/new.html` });
      expect(again.structuredContent).toMatchObject({ outcome: 'already_queued', queued: 0 });
      const done = await crawlSite({ url: `${site.origin}/` });
      expect(done.structuredContent).toMatchObject({ outcome: 'already_crawled', queued: 0 });
      expect(textOf(done)).toContain('was crawled before with as large a depth and page budget and is left alone');
    });

    it('crawls a site again when asked to go deeper than it was crawled', async () => {
      // `quarry crawl` crawled it to depth 3: depth 5 reaches further.
      const deeper = await crawlSite({ url: `${site.origin}/`, max_depth: 5 });
      expect(deeper.structuredContent).toMatchObject({
        url: `${site.origin}/`,
        outcome: 'recrawled',
        queued: expect.any(Number),
        max_depth: 5,
        max_pages: 50,
      });
      const { queued } = deeper.structuredContent as { queued: number };
      expect(queued).toBeGreaterThanOrEqual(1);
      expect(await queuedNow()).toBeGreaterThanOrEqual(queued);
      expect(textOf(deeper)).toContain('was crawled before with a smaller depth or page budget');
      // Queued now: asked again, it waits.
      const again = await crawlSite({ url: `${site.origin}/`, max_depth: 5 });
      expect(again.structuredContent).toMatchObject({ outcome: 'already_queued', queued: 0 });
    });
  });

  describe('over HTTP (POST /mcp of quarry serve, with the admin token)', () => {
    let served: RunningCli | undefined;
    let client: Client;

    beforeAll(async () => {
      served = spawnCli(['serve', '--port', '0'], { ...env(), QUARRY_HOST: '127.0.0.1', QUARRY_METRICS_PORT: '' });
      const base = await served.listening(STARTUP_TIMEOUT_MS);
      client = new Client({ name: 'quarry-crawl-site-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
        }),
      );
    }, STARTUP_TIMEOUT_MS);
    afterAll(async () => {
      await client?.close();
      await served?.stop();
    });

    it('refuses a private address and tells a spent budget, as on stdio', async () => {
      const refused = await client.callTool({ name: 'crawl_site', arguments: { url: REFUSED[0] } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('QUARRY_ALLOW_HOSTS=169.254.169.254');
      const spent = await client.callTool({
        name: 'crawl_site',
        arguments: { url: `${site.origin}/other/`, max_pages: 1 },
      });
      expect(spent.structuredContent).toMatchObject({ outcome: 'budget_spent', queued: 0 });
      expect((spent.structuredContent as { site_pages: number }).site_pages).toBeGreaterThanOrEqual(2);
    });
  });
});
