import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileBlobStore } from '@quarry/blobstore';
import { type PageDocument, pageIdForUrl } from '@quarry/core';
import express from 'express';
import request from 'supertest';
import { createAdminRouter } from './router.js';
import { type AdminFixture, crawlOutcomes, startAdminFixture, TOKEN } from './testing/fixture.js';

const doc = (url: string): PageDocument => ({
  id: pageIdForUrl(url),
  url,
  title: `Notes at ${url}`,
  body_text: 'Field notes about quarries, their stone and the people who cut it.',
  lang: 'en',
  author: null,
  published_at: null,
  crawled_at: '2026-12-01T00:00:00Z',
  site_name: null,
  has_llms_txt: false,
  filetype: 'html',
  domain: new URL(url).hostname,
  word_count: 12,
});

const task = (url: string) => ({ url, depth: 1, scope: 'example.org', seed: 'https://example.org/' });

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('admin: forgotten sites', () => {
  let fx: AdminFixture;
  let blobDir: string;
  let blobs: FileBlobStore;
  const bearer = (req: request.Test) => req.set('Authorization', `Bearer ${TOKEN}`);

  beforeAll(async () => {
    blobDir = mkdtempSync(join(tmpdir(), 'quarry-admin-blobs-'));
    blobs = new FileBlobStore({ dir: blobDir });
    fx = await startAdminFixture({ blobs });
  });
  afterAll(async () => {
    await fx.close();
    rmSync(blobDir, { recursive: true, force: true });
  });

  it('forgets a site over the API: its queued URLs dropped, its pages removed in the background', async () => {
    const pages = ['https://example.org/private/a', 'https://example.org/private/b', 'https://example.org/open'].map(
      doc,
    );
    await blobs.putMany(pages);
    await fx.searchIndex.upsert(pages);
    await fx.queues.crawl.add([task('https://example.org/private/c'), task('https://example.org/open/d')]);

    const res = await bearer(request(fx.server).post('/admin/api/sites/forget')).send({
      sites: ['https://Example.org/private/'],
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ sites: ['example.org/private'], dropped: 1, removing: true });
    await until('the pages removed', async () => {
      const sites = await bearer(request(fx.server).get('/admin/api/sites'));
      return sites.body.removals['example.org/private']?.state === 'removed';
    });
    const sites = await bearer(request(fx.server).get('/admin/api/sites'));
    expect(sites.body).toEqual({
      forgotten: ['example.org/private'],
      indexed: { 'example.org/private': 0 },
      removals: { 'example.org/private': { state: 'removed', removed: 2 } },
    });
    expect(await fx.searchIndex.has(pages[0]?.id ?? '')).toBe(false);
    expect(await fx.searchIndex.has(pages[1]?.id ?? '')).toBe(false);
    expect(await fx.searchIndex.has(pages[2]?.id ?? '')).toBe(true);
    expect(await blobs.get(pages[0]?.id ?? '')).toBeNull();
    expect((await blobs.get(pages[2]?.id ?? ''))?.url).toBe('https://example.org/open');
    expect((await fx.queues.crawl.stats()).queued).toBe(1);

    const back = await bearer(request(fx.server).post('/admin/api/sites/unforget')).send({
      sites: ['example.org/private'],
    });
    expect(back.body).toEqual({ sites: ['example.org/private'], queued: 1 });
    expect((await bearer(request(fx.server).get('/admin/api/sites'))).body.forgotten).toEqual([]);

    // Pages kept are counted as the site's indexed pages.
    const kept = await bearer(request(fx.server).post('/admin/api/sites/forget')).send({
      sites: ['example.org/open'],
      keepPages: true,
    });
    expect(kept.body).toMatchObject({ removing: false });
    expect((await bearer(request(fx.server).get('/admin/api/sites'))).body.indexed).toEqual({ 'example.org/open': 1 });
    expect((await bearer(request(fx.server).get('/admin/hosts'))).text).toContain(
      '<span class="site">example.org/open</span> (1 page indexed: forgetting it again removes them)',
    );
    await bearer(request(fx.server).post('/admin/api/sites/unforget')).send({ sites: ['example.org/open'] });
  });

  it('takes up again, when made, the removals a stop cut short, and leaves pages kept', async () => {
    const cut = ['https://cut.example.org/a', 'https://cut.example.org/b'].map(doc);
    const kept = doc('https://kept.example.org/a');
    await blobs.putMany([...cut, kept]);
    await fx.searchIndex.upsert([...cut, kept]);
    // As a process stopped right after the forgets left them: the sites forgotten, no page removed.
    await fx.queues.crawl.forget(['cut.example.org']);
    await fx.queues.crawl.forget(['kept.example.org'], { keepPages: true });
    const errors: unknown[] = [];
    const app = express();
    app.use(
      '/admin',
      createAdminRouter({
        token: TOKEN,
        crawl: fx.queues.crawl,
        index: fx.queues.index,
        searchIndex: fx.searchIndex,
        blobs,
        onError: (err) => errors.push(err),
      }),
    );
    await until('the cut removal taken up', async () => {
      const sites = await bearer(request(app).get('/admin/api/sites'));
      return sites.body.removals['cut.example.org']?.state === 'removed';
    });
    const sites = await bearer(request(app).get('/admin/api/sites'));
    expect(sites.body.indexed).toEqual({ 'cut.example.org': 0, 'kept.example.org': 1 });
    expect(sites.body.removals).toEqual({ 'cut.example.org': { state: 'removed', removed: 2 } });
    expect(await fx.searchIndex.has(cut[0]?.id ?? '')).toBe(false);
    expect(await blobs.get(cut[1]?.id ?? '')).toBeNull();
    expect(await fx.searchIndex.has(kept.id)).toBe(true);
    expect(errors).toEqual([]);
    await fx.queues.crawl.unforget(['cut.example.org', 'kept.example.org']);
  });

  it('refuses a body that names no site, changing nothing', async () => {
    for (const body of [{ sites: ['not a site'] }, { sites: 'example.org' }, { sites: [] }, {}]) {
      const res = await bearer(request(fx.server).post('/admin/api/sites/forget')).send(
        body as Record<string, unknown>,
      );
      // A string is read as a list of sites, as the hosts page's form sends them.
      if (typeof body.sites === 'string') {
        expect(res.status).toBe(202);
        await bearer(request(fx.server).post('/admin/api/sites/unforget')).send({ sites: [body.sites] });
        continue;
      }
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({
        type: '/docs#problem-invalid-parameter',
        title: 'Invalid parameter',
        param: 'sites',
      });
    }
    expect((await fx.queues.crawl.forgotten()).length).toBe(0);
  });

  // `*.com` was read as `com`: every .com site was taken out of the crawl, and its pages removed.
  it('refuses to forget a public suffix, changing nothing, and says why', async () => {
    await crawlOutcomes(fx, { 'https://shop.example.com/1': { status: 'done' } });
    for (const sites of [['*.com'], ['example.org', 'co.uk']]) {
      const res = await bearer(request(fx.server).post('/admin/api/sites/forget')).send({ sites });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ param: 'sites', detail: expect.stringContaining('a public suffix') });
    }
    expect(await fx.queues.crawl.forgotten()).toEqual([]);
    const page = await bearer(request(fx.server).post('/admin/sites/forget')).type('form').send({ site: '*.com' });
    expect(page.status).toBe(400);
    expect(page.text).toContain('&#34;*.com&#34; names com, a public suffix');
    expect(await fx.queues.crawl.forgotten()).toEqual([]);
  });

  it('forgets and crawls again from the hosts page, same-origin only', async () => {
    const login = await request(fx.server)
      .post('/admin/login')
      .set('Origin', fx.origin)
      .type('form')
      .send({ token: TOKEN });
    const cookie = ((login.headers['set-cookie'] as unknown as string[])[0] ?? '').split(';')[0] ?? '';

    const crossSite = await request(fx.server)
      .post('/admin/sites/forget')
      .set('Cookie', cookie)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ site: 'example.net' });
    expect(crossSite.status).toBe(403);
    expect(await fx.queues.crawl.forgotten()).toEqual([]);

    const forgot = await request(fx.server)
      .post('/admin/sites/forget')
      .set('Cookie', cookie)
      .set('Origin', fx.origin)
      .type('form')
      .send({ site: 'example.net', keep_pages: 'on' });
    expect(forgot.status).toBe(200);
    expect(forgot.text).toContain('<p id="result">Forgot example.net.</p>');
    expect(forgot.text).toContain('Their indexed pages stay searchable.');
    const hosts = await request(fx.server).get('/admin/hosts').set('Cookie', cookie);
    expect(hosts.text).toContain('<li><span class="site">example.net</span>');
    expect(hosts.text).toContain('action="/admin/sites/unforget"');

    const bad = await request(fx.server)
      .post('/admin/sites/forget')
      .set('Cookie', cookie)
      .set('Origin', fx.origin)
      .type('form')
      .send({ site: '<b>' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Nothing was changed.');
    expect(bad.text).not.toContain('<b>');

    const again = await request(fx.server)
      .post('/admin/sites/unforget')
      .set('Cookie', cookie)
      .set('Origin', fx.origin)
      .type('form')
      .send({ site: 'example.net' });
    expect(again.text).toContain('Crawling example.net again.');
    expect(await fx.queues.crawl.forgotten()).toEqual([]);
  });
});
