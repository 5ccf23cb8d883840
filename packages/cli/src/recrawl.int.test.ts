import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LanceSearchIndex } from '@quarry/index-lance';
import { parseQuery } from '@quarry/query';
import { type Route, type Site, startSite } from '@quarry/testkit';

const ROOT = join(new URL('.', import.meta.url).pathname, '../../..');
const BIN = join(ROOT, 'packages/cli/bin/quarry.js');

describe('quarry crawl --recrawl', () => {
  let site: Site;
  let dir: string;
  let version = 1;
  const conditional: string[] = [];

  const quarry = (...args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        env: {
          PATH: process.env.PATH,
          QUARRY_DATA_DIR: dir,
          QUARRY_ALLOW_HOSTS: '127.0.0.1',
          QUARRY_HOST_DELAY_MS: '0',
          LOG_LEVEL: 'silent',
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });
  const urlsFor = async (word: string) => {
    const index = await LanceSearchIndex.open({ path: join(dir, 'index'), autoMaintain: false });
    try {
      return (await index.search({ query: parseQuery(word), limit: 10, offset: 0 })).hits.map((h) => h.url);
    } finally {
      await index.close();
    }
  };

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'packages/cli/dist/main.js'))) throw new Error('run `npm run build` first');
    const article = (word: string) =>
      `<html lang="en"><head><title>About the ${word}</title></head><body><article><h1>About the ${word}</h1><p>${`The ${word} lives in this page of a small site that changes now and then. `.repeat(12)}</p></article></body></html>`;
    const versioned = (words: [string, string]) => (req: IncomingMessage, res: ServerResponse) => {
      const etag = `"v${version}"`;
      const asked = req.headers['if-none-match'];
      if (typeof asked === 'string') conditional.push(`${req.url} ${asked}`);
      if (asked === etag) return res.writeHead(304, { etag }).end();
      res.writeHead(200, { 'content-type': 'text/html', etag }).end(article(words[version - 1] ?? 'nothing'));
    };
    const routes: Record<string, Route> = {
      '/robots.txt': { body: '' },
      '/': { body: '<html><body><a href="/a.html">a</a> <a href="/b.html">b</a></body></html>' },
      '/a.html': versioned(['heron', 'egret']),
      '/b.html': versioned(['badger', 'badger']),
    };
    site = await startSite(routes);
    dir = mkdtempSync(join(tmpdir(), 'quarry-cli-recrawl-'));
  });

  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('queues crawled pages again and fetches them with their validators', async () => {
    const first = await quarry('crawl', '--seed', `${site.origin}/`, '--wait');
    expect(first.code).toBe(0);
    expect(await urlsFor('heron')).toEqual([`${site.origin}/a.html`]);
    expect(conditional).toEqual([]);

    const nothingYet = await quarry('crawl', '--recrawl', '7d');
    expect(nothingYet.code).toBe(0);
    expect(nothingYet.stderr).toContain('queued 0 URLs again that finished at least 7d ago');

    version = 2;
    const again = await quarry('crawl', '--recrawl', '0', '--wait');
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('queued 4 URLs again that finished at any time: pages crawled, and URLs that ended');
    expect(again.stdout).toMatch(/crawl finished: 3 done/);
    expect(conditional.sort()).toEqual(['/a.html "v1"', '/b.html "v1"']);
    expect(await urlsFor('egret')).toEqual([`${site.origin}/a.html`]);
    expect(await urlsFor('heron')).toEqual([]);
    expect(await urlsFor('badger')).toEqual([`${site.origin}/b.html`]);
  }, 60_000);

  it('refuses an age that is not a duration, and a crawl with nothing to do', async () => {
    const bad = await quarry('crawl', '--recrawl', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--recrawl.*duration/);
    const nothing = await quarry('crawl');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('--recrawl AGE');
  }, 30_000);
});
