import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { FileBlobStore } from '@quarry/blobstore';
import { openBullmqQueues, type Queues } from '@quarry/queue';
import { CHROMIUM_FLAGS, findChromium } from '@quarry/render';
import { describeWithServer, itWithServer, type RedisServer, startRedis } from '@quarry/testkit';
import { Queue } from 'bullmq';
import { type Browser, chromium, type Page } from 'playwright-core';
import { type AdminFixture, crawlOutcomes, page as doc, startAdminFixture, TOKEN } from './testing/fixture.js';

const shotsDir = mkdtempSync(join(tmpdir(), 'quarry-admin-shots-'));

/** A failed URL as long as one of an audit's (2,031 characters). */
const LONG_URL = `https://example.org/copy?session=${'0123456789abcdef'.repeat(125)}&end=1`;

/** A page that may only reach loopback; anything else is aborted and remembered. */
async function loopbackPage(browser: Browser, offHost: string[], consoleErrors: string[]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.route('**/*', (route) => {
    const host = new URL(route.request().url()).hostname;
    if (host === '127.0.0.1' || host === 'localhost' || host === '[::1]') return route.continue();
    offHost.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  return page;
}

async function logIn(page: Page, fx: AdminFixture, path = '/admin/'): Promise<void> {
  await page.goto(`${fx.origin}${path}`);
  // Unauthenticated: the browser lands on the login form.
  expect(new URL(page.url()).pathname).toBe('/admin/login');
  await page.getByLabel('Admin token').fill(TOKEN);
  await Promise.all([page.waitForURL(`${fx.origin}${path}`), page.getByRole('button', { name: 'Log in' }).click()]);
}

async function screenshot(page: Page, name: string): Promise<void> {
  const file = join(shotsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`admin screenshot: ${file}`);
}

describeWithServer('chromium', 'admin pages in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    // The Chromium the product would drive (`quarry` finds it the same way), with its flags.
    const executablePath = findChromium();
    if (!executablePath) throw new Error('chromium is on PATH, but findChromium() finds none in its directories');
    browser = await chromium.launch({ executablePath, args: [...CHROMIUM_FLAGS] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('logs in through the form; the dashboard shows live counts; the embedded queues page explains itself', async () => {
    const fx = await startAdminFixture({ refreshIntervalMs: 200 });
    const offHost: string[] = [];
    const errors: string[] = [];
    try {
      const tasks = ['a', 'b'].map((p) => ({
        url: `https://example.org/${p}`,
        depth: 0,
        scope: 'example.org',
        seed: 'https://example.org/',
      }));
      await fx.queues.crawl.add(tasks);
      await fx.searchIndex.upsert([doc(1)]);
      const page = await loopbackPage(browser, offHost, errors);
      await logIn(page, fx);

      await expect(page.getByRole('heading', { name: 'Crawl' }).isVisible()).resolves.toBe(true);
      const queued = page.locator('[data-stat="crawl.queued"]');
      await expect(queued.textContent()).resolves.toBe('2');
      await expect(page.locator('[data-stat="documents"]').textContent()).resolves.toBe('1');

      // The page polls: new work shows up without a reload.
      await fx.queues.crawl.add([
        { url: 'https://example.org/c', depth: 0, scope: 'example.org', seed: 'https://example.org/' },
      ]);
      await fx.queues.index.push([doc(2), doc(3)]);
      await page.waitForFunction(
        () => document.querySelector('[data-stat="crawl.queued"]')?.textContent === '3',
        null,
        { timeout: 5000 },
      );
      await page.waitForFunction(
        () => document.querySelector('[data-stat="index.waiting"]')?.textContent === '2',
        null,
        { timeout: 5000 },
      );
      // Redrawn by the page's script, the time keeps the server's ISO UTC form (it turned local, zoneless).
      await expect(page.locator('#status').textContent()).resolves.toMatch(/^Updated \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      await expect(page.locator('#status').getAttribute('data-refreshes')).resolves.toMatch(/^[1-9]\d*$/);
      // No crawler in this process, and no Bull Board: redrawn, the note says where the back-offs are.
      await expect(page.locator('#backoffs').textContent()).resolves.toMatch(
        /^No crawler runs in this process \(quarry serve\): the crawler of quarry start or quarry crawl --wait/,
      );
      await screenshot(page, 'dashboard');

      await page.getByRole('link', { name: 'Queues' }).click();
      await page.waitForURL(`${fx.origin}/admin/queues`);
      await expect(page.getByText('SQLite tables').isVisible()).resolves.toBe(true);
      await screenshot(page, 'queues-embedded');

      await Promise.all([
        page.waitForURL(`${fx.origin}/admin/login`),
        page.getByRole('button', { name: 'Log out' }).click(),
      ]);
      await page.goto(`${fx.origin}/admin/`);
      expect(new URL(page.url()).pathname).toBe('/admin/login');
      expect(offHost).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await fx.close();
    }
  });

  it('keeps the index’s notices on the dashboard as it refreshes, as text', async () => {
    const fx = await startAdminFixture({ refreshIntervalMs: 200 }, { earlierAnalysis: true });
    const offHost: string[] = [];
    const errors: string[] = [];
    try {
      const page = await loopbackPage(browser, offHost, errors);
      await logIn(page, fx);
      const notice = page.locator('#notices p');
      await expect(notice.textContent()).resolves.toMatch(/^the search index at .*<i>.*quarry reindex$/);
      // After a refresh drawn by the page's script, the same single notice.
      await page.waitForFunction(() => Number(document.getElementById('status')?.dataset.refreshes) >= 1, null, {
        timeout: 5000,
      });
      await expect(notice.count()).resolves.toBe(1);
      await expect(notice.textContent()).resolves.toMatch(/^the search index at .*<i>.*quarry reindex$/);
      await expect(page.locator('#notices i').count()).resolves.toBe(0);
      expect(offHost).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await fx.close();
    }
  });

  it('draws the pages skipped apart from the sitemaps read, the reasons’ notes and the other reasons as it refreshes', async () => {
    const fx = await startAdminFixture({ refreshIntervalMs: 200 });
    const offHost: string[] = [];
    const errors: string[] = [];
    try {
      const page = await loopbackPage(browser, offHost, errors);
      await logIn(page, fx);
      await expect(page.locator('#reasons').textContent()).resolves.toBe('Nothing skipped or failed so far.');
      await expect(page.locator('#lists').textContent()).resolves.toBe('No sitemap or feed looked for so far.');
      // The crawl ends after the page was drawn: only the page's script shows what follows.
      const failures = Array.from({ length: 12 }, (_, n) => [
        `https://example.org/f${n}`,
        { status: 'failed' as const, reason: `http_${400 + n}` },
      ]);
      await crawlOutcomes(fx, {
        'https://example.org/sitemap.xml': { status: 'skipped', reason: 'no_sitemap' },
        [LONG_URL]: { status: 'skipped', reason: 'duplicate' },
        'https://example.org/private': { status: 'skipped', reason: 'robots_disallowed' },
        ...Object.fromEntries(failures),
      });
      await page.waitForFunction(() => document.querySelector('[data-stat="listsRead"]')?.textContent === '1', null, {
        timeout: 5000,
      });
      await expect(page.locator('[data-stat="skippedPages"]').textContent()).resolves.toBe('2');
      await expect(page.locator('[data-stat="crawl.failed"]').textContent()).resolves.toBe('12');
      const rows = await page
        .locator('#reasons tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
      // A long URL shows its start and end, whole in its tooltip.
      expect(rows).toContainEqual([
        'skipped',
        'duplicatethe same main text is indexed under another URL (its canonical or shortest one)',
        '1',
        `${LONG_URL.slice(0, 80)}…${LONG_URL.slice(-30)}`,
      ]);
      await expect(page.locator('#reasons td.examples div').first().getAttribute('title')).resolves.toBe(LONG_URL);
      expect(rows).toContainEqual(['skipped', 'robots_disallowed', '1', 'https://example.org/private']);
      expect(rows.at(-1)).toEqual(['failed', 'other reasons', '2', '']);
      expect(rows.filter((r) => r[1] === 'other reasons').length).toBe(1);
      // The skipped rows add up to the Skipped tile: the sitemap is in a table of its own, as its tile is.
      const skipped = rows.filter((r) => r[0] === 'skipped').reduce((n, r) => n + Number(r[2]), 0);
      expect(skipped).toBe(2);
      const lists = await page
        .locator('#lists tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
      expect(lists).toEqual([
        [expect.stringMatching(/^no_sitemapa sitemap tried for a seed/), '1', 'https://example.org/sitemap.xml'],
      ]);
      await screenshot(page, 'dashboard-reasons');
      expect(offHost).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await fx.close();
    }
  });

  it('draws the hosts the crawler backs off from as it refreshes, host names as text', async () => {
    const backoffs: { host: string; reason: string; untilMs: number }[] = [];
    const fx = await startAdminFixture({ refreshIntervalMs: 200, backingOff: () => backoffs });
    const offHost: string[] = [];
    const errors: string[] = [];
    try {
      const page = await loopbackPage(browser, offHost, errors);
      await logIn(page, fx);
      await expect(page.locator('#backoffs').textContent()).resolves.toBe('No host is being backed off from.');
      // A robots.txt answering 500 after the page was drawn: only the page's script shows it.
      const untilMs = Date.UTC(2026, 11, 5, 20, 35, 33);
      backoffs.push(
        { host: '127.0.0.6', reason: 'robots_unreachable', untilMs },
        { host: '<img src=x>.example', reason: 'http_429', untilMs },
      );
      await page.waitForFunction(() => document.querySelectorAll('#backoffs tr').length === 2, null, { timeout: 5000 });
      const rows = await page
        .locator('#backoffs tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
      expect(rows).toEqual([
        ['127.0.0.6', 'robots_unreachable', '2026-12-05T20:35:33Z'],
        ['<img src=x>.example', 'http_429', '2026-12-05T20:35:33Z'],
      ]);
      await expect(page.locator('#backoffs img').count()).resolves.toBe(0);
      await screenshot(page, 'dashboard-backoffs');
      backoffs.length = 0;
      await page.waitForFunction(
        () => document.getElementById('backoffs')?.textContent === 'No host is being backed off from.',
        null,
        { timeout: 5000 },
      );
      expect(offHost).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await fx.close();
    }
  });

  it('draws the hosts table, sorts and filters it, and redraws it as it refreshes, crawled data as text', async () => {
    const backoffs: { host: string; reason: string; untilMs: number }[] = [];
    const fx = await startAdminFixture({ refreshIntervalMs: 200, backingOff: () => backoffs });
    const offHost: string[] = [];
    const errors: string[] = [];
    try {
      const page = await loopbackPage(browser, offHost, errors);
      await logIn(page, fx, '/admin/hosts');
      // An empty crawl has no hosts yet, drawn and redrawn alike (it said "No host matches." unfiltered).
      await expect(page.locator('#hosts').textContent()).resolves.toBe(
        'No hosts yet: nothing has been queued or crawled.',
      );
      await page.waitForFunction(() => Number(document.getElementById('status')?.dataset.refreshes) >= 1, null, {
        timeout: 5000,
      });
      await expect(page.locator('#hosts').textContent()).resolves.toBe(
        'No hosts yet: nothing has been queued or crawled.',
      );
      await crawlOutcomes(fx, {
        'https://xn--bcher-kva.example/1': { status: 'done' },
        'https://b.example/1': { status: 'failed', reason: 'http_404' },
        'https://b.example/2': { status: 'failed', reason: 'http_404' },
      });
      await page.reload();
      const rows = () =>
        page.locator('#hosts tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
      expect(await rows()).toEqual([
        ['b.example', '0', '0', '0', '0', '2', 'http_404 2', expect.stringMatching(/Z$/), ''],
        ['xn--bcher-kva.example', '0', '0', '1', '0', '0', '', expect.stringMatching(/Z$/), ''],
      ]);
      // Sorting by Done is a link; the page it leads to is drawn in that order.
      await Promise.all([page.waitForURL(/sort=done/), page.getByRole('link', { name: 'Done' }).click()]);
      await expect(page.locator('#hosts tr td.host').allTextContents()).resolves.toEqual([
        'xn--bcher-kva.example',
        'b.example',
      ]);
      // URLs queued and a back-off (its reason holding markup) after the page was drawn: only the
      // page's script shows them.
      await fx.queues.crawl.add(
        [1, 2, 3].map((n) => ({ url: `https://c.example/${n}`, depth: 0, scope: 'c', seed: 'https://c.example/' })),
      );
      backoffs.push({ host: 'b.example', reason: '<img src=x>', untilMs: Date.UTC(2026, 11, 5, 20, 35, 33) });
      await page.waitForFunction(() => document.querySelectorAll('#hosts tr').length === 3, null, { timeout: 5000 });
      const redrawn = await rows();
      expect(redrawn.find((r) => r[0] === 'b.example')?.[8]).toBe('<img src=x> until 2026-12-05T20:35:33Z');
      expect(redrawn.find((r) => r[0] === 'c.example')?.slice(1, 2)).toEqual(['3']);
      await expect(page.locator('#hosts img').count()).resolves.toBe(0);
      await expect(page.locator('#summary').textContent()).resolves.toBe('hosts 1–3 of 3');
      // The filter is a GET form; the sort is kept.
      await page.getByLabel('Host contains').fill('c.ex');
      await Promise.all([page.waitForURL(/q=c.ex/), page.getByRole('button', { name: 'Filter' }).click()]);
      expect(new URL(page.url()).searchParams.get('sort')).toBe('done');
      await expect(page.locator('#hosts tr td.host').allTextContents()).resolves.toEqual(['c.example']);
      await screenshot(page, 'hosts');
      // A filter nothing matches says so, drawn and redrawn alike.
      await page.getByLabel('Host contains').fill('zzz');
      await Promise.all([page.waitForURL(/q=zzz/), page.getByRole('button', { name: 'Filter' }).click()]);
      await expect(page.locator('#hosts').textContent()).resolves.toBe('No host matches.');
      await page.waitForFunction(() => Number(document.getElementById('status')?.dataset.refreshes) >= 1, null, {
        timeout: 5000,
      });
      await expect(page.locator('#hosts').textContent()).resolves.toBe('No host matches.');
      expect(offHost).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await fx.close();
    }
  });

  it('forgets a site from the hosts page after asking, and crawls it again', async () => {
    const blobDir = mkdtempSync(join(tmpdir(), 'quarry-admin-blobs-'));
    const fx = await startAdminFixture({ blobs: new FileBlobStore({ dir: blobDir }) });
    const offHost: string[] = [];
    const errors: string[] = [];
    try {
      await fx.queues.crawl.add([{ url: 'https://d.example/1', depth: 0, scope: 'd', seed: 'https://d.example/' }]);
      const page = await loopbackPage(browser, offHost, errors);
      await logIn(page, fx, '/admin/hosts');
      const asked: string[] = [];
      // Declined first: nothing is sent.
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.dismiss();
      });
      await page.getByLabel('Forget').fill('d.example');
      await page.getByRole('button', { name: 'Forget' }).click();
      await expect(fx.queues.crawl.forgotten()).resolves.toEqual([]);
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.accept();
      });
      await Promise.all([
        page.waitForURL(/\/admin\/sites\/forget$/),
        page.getByRole('button', { name: 'Forget' }).click(),
      ]);
      expect(asked).toEqual([
        'Forget d.example? Its queued URLs are dropped and its indexed pages removed.',
        'Forget d.example? Its queued URLs are dropped and its indexed pages removed.',
      ]);
      await expect(page.locator('#result').textContent()).resolves.toBe('Forgot d.example.');
      await expect(fx.queues.crawl.forgotten()).resolves.toEqual(['d.example']);
      await Promise.all([
        page.waitForURL(/\/admin\/hosts$/),
        page.getByRole('link', { name: 'Back to the hosts' }).click(),
      ]);
      await expect(page.locator('#forgotten .site').allTextContents()).resolves.toEqual(['d.example']);
      await Promise.all([
        page.waitForURL(/\/admin\/sites\/unforget$/),
        page.getByRole('button', { name: 'Crawl again' }).click(),
      ]);
      await expect(page.locator('#result').textContent()).resolves.toBe('Crawling d.example again.');
      await expect(fx.queues.crawl.forgotten()).resolves.toEqual([]);
      expect(offHost).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await fx.close();
      rmSync(blobDir, { recursive: true, force: true });
    }
  });

  itWithServer('redis', 'shows Bull Board with the crawl queue after logging in', async () => {
    const redis: RedisServer = await startRedis();
    let queues: Queues | undefined;
    const bullQueues: Queue[] = [];
    let fx: AdminFixture | undefined;
    const offHost: string[] = [];
    try {
      queues = await openBullmqQueues({ redisUrl: redis.url, hostDelayMs: 0 });
      const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null };
      bullQueues.push(
        new Queue('crawl', { connection, prefix: 'quarry' }),
        new Queue('index', { connection, prefix: 'quarry' }),
      );
      await queues.crawl.add(
        [1, 2, 3].map((n) => ({
          url: `https://example.org/q${n}`,
          depth: 0,
          scope: 'example.org',
          seed: 'https://example.org/',
        })),
      );
      fx = await startAdminFixture({ bullQueues });
      const errors: string[] = [];
      const page = await loopbackPage(browser, offHost, errors);
      await logIn(page, fx, '/admin/queues');
      // The overview lists both queues, and the crawl queue's card counts the jobs really in Redis.
      await page.getByText('3 Jobs').waitFor({ timeout: 15_000 });
      await expect(page.getByText('crawl', { exact: true }).first().isVisible()).resolves.toBe(true);
      await expect(page.getByText('index', { exact: true }).first().isVisible()).resolves.toBe(true);
      await expect(page.title()).resolves.toBe('Quarry queues');
      await screenshot(page, 'bull-board');
      expect(offHost).toEqual([]);
      // Bull Board's page links a Google web font; the CSP blocks it, which is the only complaint.
      expect(errors.filter((e) => !e.includes('https://fonts.googleapis.com/'))).toEqual([]);
    } finally {
      await fx?.close();
      await Promise.all(bullQueues.map((q) => q.close()));
      await queues?.close();
      await redis.stop();
    }
  });
});
