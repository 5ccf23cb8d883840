import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createApp, type RunningServer, startServer } from '@quarry/api';
import { FileBlobStore } from '@quarry/blobstore';
import { loadConfig, type PageDocument, pageIdForUrl, type SearchIndex } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import { CHROMIUM_FLAGS, findChromium } from '@quarry/render';
import { describeWithServer } from '@quarry/testkit';
import express from 'express';
import { pino } from 'pino';
import { type Browser, chromium } from 'playwright-core';

const DIST = join(new URL('.', import.meta.url).pathname, '../dist');
const BODY = 'Tide pools hold starfish, anemones and crabs.\n\nVisit them at low tide and touch nothing.';
const DOC: PageDocument = {
  id: pageIdForUrl('https://coast.example.org/tide-pools'),
  url: 'https://coast.example.org/tide-pools',
  title: 'Tide pools',
  body_text: BODY,
  lang: 'en',
  author: null,
  published_at: null,
  crawled_at: '2026-11-20T10:00:00Z',
  site_name: null,
  has_llms_txt: false,
  filetype: 'html',
  domain: 'coast.example.org',
  word_count: 15,
};

/** What the page reports back from running the built client in the browser. */
interface BrowserRun {
  firstUrl: string | undefined;
  passage: string | undefined;
  errorName: string;
  errorStatus: number;
  errorParam: string | undefined;
}

describeWithServer('chromium', '@quarry/client in Chromium (the built ESM, no bundler)', () => {
  let dir: string;
  let index: SearchIndex;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(join(DIST, 'index.js'))) throw new Error('run `npm run build` first (the browser loads dist/)');
    dir = await mkdtemp(join(tmpdir(), 'quarry-client-browser-'));
    index = await LanceSearchIndex.open({ path: join(dir, 'index') });
    const blobs = new FileBlobStore({ dir: join(dir, 'blobs') });
    await blobs.put(DOC);
    await index.upsert([DOC]);
    const api = createApp({ config: loadConfig({}), index, blobs, logger: pino({ level: 'silent' }) });
    // The page, the client's modules and the API share one origin (the API sends no CORS headers).
    const site = express();
    site.get('/', (_req, res) => {
      res.type('html').send('<!doctype html><title>client</title>');
    });
    site.use('/client', express.static(DIST));
    site.use(api);
    server = await startServer(site, { port: 0, host: '127.0.0.1' });
    const executablePath = findChromium();
    if (!executablePath) throw new Error('chromium is on PATH, but findChromium() finds none in its directories');
    browser = await chromium.launch({ executablePath, args: [...CHROMIUM_FLAGS] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await index?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('searches, reads passages and maps a problem to QuarryApiError in the browser', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    const run = (await page.evaluate(async () => {
      const { QuarryClient } = await import(`${location.origin}/client/index.js`);
      const quarry = new QuarryClient({ baseUrl: location.origin });
      const found = await quarry.search('tide pools starfish');
      const first = found.results[0];
      const content = await quarry.content(first.id, { query: 'low tide', max_tokens: 32 });
      const error = await quarry.search('tide', { limit: 1000 }).catch((e: unknown) => e);
      return {
        firstUrl: first?.url,
        passage: content.passages?.[0]?.text,
        errorName: error.name,
        errorStatus: error.status,
        errorParam: error.param,
      };
    })) as BrowserRun;
    expect(run).toEqual({
      firstUrl: DOC.url,
      passage: expect.stringContaining('low tide'),
      errorName: 'QuarryApiError',
      errorStatus: 400,
      errorParam: 'limit',
    });
  });
});
