import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileBlobStore } from '@quarry/blobstore';
import { loadConfig, pageIdForUrl } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import { parseQuery } from '@quarry/query';
import { openSqliteQueues, type Queues } from '@quarry/queue';
import { type Site, startSite } from '@quarry/testkit';
import { pino } from 'pino';
import { Crawler } from './crawler.js';
import { waitUntilCrawlIdle } from './idle.js';
import { startIndexer } from './indexer.js';
import { parseSeed } from './seeds.js';

const filler =
  'Quarry recrawls pages and asks the server whether they changed, so an unchanged page costs one short answer. ' +
  'Each paragraph is long enough for the readability algorithm to keep the page as an article.';

const page = (title: string, word: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head>
<body><article><h1>${title}</h1><p>The ${word} is the subject here. ${filler}</p><p>${filler}</p><p>${filler}</p></article></body></html>`;

const LAST_MODIFIED = 'Sat, 21 Nov 2026 10:00:00 GMT';

/** The site as it is on the first crawl (version 1) and after it changed (version 2). */
function routes(state: { version: number; conditional: Map<string, string> }) {
  const html = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(body);
  };
  const noteConditional = (req: IncomingMessage) => {
    const validator = req.headers['if-none-match'] ?? req.headers['if-modified-since'];
    if (typeof validator === 'string') state.conditional.set(req.url ?? '', validator);
  };
  return {
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
    '/': {
      body: `<html><head><title>Home</title></head><body><h1>Home</h1><ul>${[
        '/stable.html',
        '/changing.html',
        '/gone.html',
        '/noindex-later.html',
        '/moved.html',
        '/moved-away.html',
      ]
        .map((href) => `<li><a href="${href}">${href}</a></li>`)
        .join('')}</ul></body></html>`,
    },
    '/stable.html': (req: IncomingMessage, res: ServerResponse) => {
      noteConditional(req);
      if (req.headers['if-none-match'] === '"stable-1"') return html(res, 304, '', { etag: '"stable-1"' });
      html(res, 200, page('Stable page', 'wombat'), { etag: '"stable-1"' });
    },
    '/changing.html': (req: IncomingMessage, res: ServerResponse) => {
      noteConditional(req);
      const modified = state.version === 1 ? LAST_MODIFIED : 'Sun, 22 Nov 2026 10:00:00 GMT';
      if (req.headers['if-modified-since'] === modified) return html(res, 304, '');
      html(res, 200, page('Changing page', state.version === 1 ? 'tapir' : 'okapi'), { 'last-modified': modified });
    },
    '/gone.html': (_req: IncomingMessage, res: ServerResponse) => {
      if (state.version === 1) return html(res, 200, page('Soon gone', 'narwhal'));
      html(res, 410, '<html><body>Gone</body></html>');
    },
    '/noindex-later.html': (_req: IncomingMessage, res: ServerResponse) => {
      const head = state.version === 1 ? '' : '<meta name="robots" content="noindex">';
      html(res, 200, page('Private soon', 'axolotl', head));
    },
    '/moved.html': (_req: IncomingMessage, res: ServerResponse) => {
      if (state.version === 1) return html(res, 200, page('Before the move', 'pangolin'));
      res.writeHead(301, { location: '/stable.html' });
      res.end();
    },
    // Moved to another site, out of the seed's scope: not followed, and out of the index.
    '/moved-away.html': (_req: IncomingMessage, res: ServerResponse) => {
      if (state.version === 1) return html(res, 200, page('Before leaving', 'quokka'));
      res.writeHead(301, { location: 'https://elsewhere.example/landed.html' });
      res.end();
    },
  };
}

describe('recrawl with conditional requests', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-recrawl-'));
  const state = { version: 1, conditional: new Map<string, string>() };
  let site: Site;
  let queues: Queues;
  let index: LanceSearchIndex;
  let blobs: FileBlobStore;
  let stop: () => Promise<void> = async () => {};

  const waitIdle = async () => {
    if (!(await waitUntilCrawlIdle(queues, { timeoutMs: 30_000, pollMs: 150 })))
      throw new Error('crawl did not finish');
  };
  const urlsFor = async (word: string) =>
    (await index.search({ query: parseQuery(word), limit: 10, offset: 0 })).hits.map((h) => h.url);

  beforeAll(async () => {
    site = await startSite(routes(state));
    const config = loadConfig({
      QUARRY_DATA_DIR: dir,
      QUARRY_ALLOW_HOSTS: '127.0.0.1',
      QUARRY_HOST_DELAY_MS: '0',
      LOG_LEVEL: 'silent',
    });
    const logger = pino({ level: 'silent' });
    queues = openSqliteQueues({ path: join(dir, 'queue.db'), hostDelayMs: 0 });
    index = await LanceSearchIndex.open({ path: join(dir, 'index') });
    blobs = new FileBlobStore({ dir: join(dir, 'blobs') });
    const crawler = new Crawler({ config, queues, logger, extractThreads: 0 });
    const indexer = startIndexer({ queue: queues.index, index, blobs, logger });
    stop = async () => {
      await crawler.close();
      await indexer.close();
    };
    await crawler.addSeeds([parseSeed(`${site.origin}/ depth=1`)]);
    crawler.start();
    await waitIdle();
  }, 60_000);

  afterAll(async () => {
    await stop();
    await queues?.close();
    await index?.close();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('indexes the first version without conditional requests', async () => {
    expect(state.conditional.size).toBe(0);
    for (const word of ['wombat', 'tapir', 'narwhal', 'axolotl', 'pangolin', 'quokka']) {
      expect(await urlsFor(word)).toHaveLength(1);
    }
    expect(await index.count()).toBe(7); // the six pages and the home page
  });

  it('asks with the stored validators, keeps unchanged pages and follows changes and removals', async () => {
    state.version = 2;
    const goneId = pageIdForUrl(`${site.origin}/gone.html`);
    expect(await blobs.get(goneId)).not.toBeNull();
    expect(await queues.crawl.recrawl({ olderThanMs: 0 })).toBe(7);
    await waitIdle();

    // Validators went back as they were received: an ETag and a Last-Modified date.
    expect(state.conditional.get('/stable.html')).toBe('"stable-1"');
    expect(state.conditional.get('/changing.html')).toBe(LAST_MODIFIED);
    expect(site.hits.get('/stable.html')).toBeGreaterThanOrEqual(2);

    // 304: still there. Changed: the new text replaced the old one.
    expect(await urlsFor('wombat')).toEqual([`${site.origin}/stable.html`]);
    expect(await urlsFor('okapi')).toEqual([`${site.origin}/changing.html`]);
    expect(await urlsFor('tapir')).toEqual([]);
    // Gone (410), noindex now, and moved away: out of the index, and the gone page's blob too.
    expect(await urlsFor('narwhal')).toEqual([]);
    expect(await urlsFor('axolotl')).toEqual([]);
    expect(await urlsFor('pangolin')).toEqual([]);
    expect(await urlsFor('quokka')).toEqual([]);
    expect(await blobs.get(goneId)).toBeNull();
    expect(await index.count()).toBe(3); // home, stable, changing

    const stats = await queues.crawl.stats();
    expect(stats.topFailures).toEqual([{ reason: 'http_410', count: 1 }]);
  });

  it('recrawls other states on request and sends validators only where the server gave them', async () => {
    state.conditional.clear();
    // The noindex page, the pages moved away and within the site (its target queued, a page of its
    // own), and the /sitemap.xml tried for the seed (404: no_sitemap).
    expect(await queues.crawl.recrawl({ olderThanMs: 0, states: ['skipped'] })).toBe(4);
    await waitIdle();
    expect(state.conditional.size).toBe(0);
    expect(await queues.crawl.recrawl({ olderThanMs: 0 })).toBeGreaterThan(0);
    await waitIdle();
    // The changed page now answers 304 to its new date, and stays searchable.
    expect(state.conditional.get('/changing.html')).toBe('Sun, 22 Nov 2026 10:00:00 GMT');
    expect(await urlsFor('okapi')).toEqual([`${site.origin}/changing.html`]);
  });
});
