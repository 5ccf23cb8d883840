import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FileBlobStore } from '@quarry/blobstore';
import { LanceSearchIndex } from '@quarry/index-lance';
import { parseQuery } from '@quarry/query';
import { openSqliteQueues } from '@quarry/queue';
import { type Site, startSite } from '@quarry/testkit';
import { requireBuiltCli, runCli, spawnCli } from './testing/run-cli.js';

describe('quarry forget', () => {
  let site: Site;
  let dir: string;
  /** Whether the start page links to a page added after the forget. */
  let linksNewPage = false;

  const env = (): Record<string, string> => ({
    QUARRY_DATA_DIR: dir,
    QUARRY_ALLOW_HOSTS: '127.0.0.1',
    QUARRY_HOST_DELAY_MS: '0',
    LOG_LEVEL: 'silent',
  });
  const quarry = (...args: string[]) => runCli(args, env());
  const hitsFor = async (word: string) => {
    const index = await LanceSearchIndex.open({ path: join(dir, 'index'), autoMaintain: false });
    try {
      return (await index.search({ query: parseQuery(word), limit: 10, offset: 0 })).hits
        .map((h) => ({ id: h.id, url: h.url }))
        .sort((a, b) => a.url.localeCompare(b.url));
    } finally {
      await index.close();
    }
  };
  const privateHits = () => [...site.hits.keys()].filter((path) => path.startsWith('/private/'));

  beforeAll(async () => {
    requireBuiltCli();
    const article = (word: string) =>
      `<html lang="en"><head><title>About the ${word}</title></head><body><article><h1>About the ${word}</h1><p>${`The ${word} lives in this page of a small site with a private part. `.repeat(12)}</p></article></body></html>`;
    site = await startSite({
      '/robots.txt': { body: '' },
      '/': (_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<html><body><a href="/a.html">a</a> <a href="/private/b.html">b</a> <a href="/private/c.html">c</a>${
              linksNewPage ? ' <a href="/private/new.html">new</a>' : ''
            }</body></html>`,
          ),
      '/a.html': { headers: { 'content-type': 'text/html' }, body: article('heron') },
      '/private/b.html': { headers: { 'content-type': 'text/html' }, body: article('otter') },
      '/private/c.html': { headers: { 'content-type': 'text/html' }, body: article('otter and the beaver') },
      '/private/new.html': { headers: { 'content-type': 'text/html' }, body: article('otter again') },
    });
    dir = mkdtempSync(join(tmpdir(), 'quarry-cli-forget-'));
  });

  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops crawling a part of a site, removes its pages, and crawls it again on --undo', async () => {
    expect((await quarry('crawl', '--seed', `${site.origin}/`, '--wait')).code).toBe(0);
    const otters = await hitsFor('otter');
    expect(otters.map((h) => h.url)).toEqual([`${site.origin}/private/b.html`, `${site.origin}/private/c.html`]);

    const forgotten = await quarry('forget', `http://${site.host}:${site.port}/private/`);
    expect(forgotten.stderr).toBe('');
    expect(forgotten.code).toBe(0);
    expect(forgotten.stdout).toContain(`forgotten: ${site.host}:${site.port}/private; 0 queued URLs dropped`);
    expect(forgotten.stdout).toContain(`${site.host}:${site.port}/private: 2 pages removed from the index`);
    expect(await hitsFor('otter')).toEqual([]);
    expect((await hitsFor('heron')).map((h) => h.url)).toEqual([`${site.origin}/a.html`]);
    // The page text went with them; the rest of the site stays.
    const blobs = new FileBlobStore({ dir: join(dir, 'blobs') });
    for (const { id } of otters) expect(await blobs.get(id)).toBeNull();
    expect(await blobs.get((await hitsFor('heron'))[0]?.id ?? '')).not.toBeNull();

    const status = await quarry('status');
    expect(status.stdout).toContain(
      `forgotten sites (quarry forget --undo crawls one again): ${site.host}:${site.port}/private`,
    );
    const listed = await quarry('forget', '--list');
    expect(listed.stdout).toBe(`${site.host}:${site.port}/private\n`);

    // A recrawl and a new link to the forgotten part fetch nothing there.
    const fetchedBefore = privateHits().map((path) => `${path} ${site.hits.get(path)}`);
    linksNewPage = true;
    const recrawl = await quarry('crawl', '--recrawl', '0', '--wait');
    expect(recrawl.code).toBe(0);
    expect(privateHits().map((path) => `${path} ${site.hits.get(path)}`)).toEqual(fetchedBefore);
    expect(site.hits.get('/a.html')).toBe(2);
    expect(await hitsFor('otter')).toEqual([]);
    const seeded = await quarry('crawl', '--seed', `${site.origin}/private/b.html`);
    expect(seeded.stderr).toContain('not queued, within a site taken out of the crawl');
    expect(seeded.stderr).toContain(`${site.origin}/private/b.html (${site.host}:${site.port}/private)`);

    const undone = await quarry('forget', '--undo', `${site.host}:${site.port}/private`);
    expect(undone.code).toBe(0);
    expect(undone.stdout).toContain(`crawling ${site.host}:${site.port}/private again`);
    expect(undone.stdout).toContain('2 URLs of theirs queued again');
    expect(undone.stdout).toContain('(`quarry start` or `quarry crawl --wait` crawls them)');
    expect((await quarry('crawl', '--wait')).code).toBe(0);
    expect((await hitsFor('otter')).map((h) => h.url)).toEqual([
      `${site.origin}/private/b.html`,
      `${site.origin}/private/c.html`,
    ]);

    // Pages kept by --keep-pages are counted in the status, until a forget without it removes them.
    const part = `${site.host}:${site.port}/private`;
    // Whether the queue records the pages as to be removed (a removal cut short is taken up again).
    const removing = async () => {
      const queues = openSqliteQueues({ path: join(dir, 'queue.db') });
      try {
        return await queues.crawl.forgottenRemovingPages();
      } finally {
        await queues.close();
      }
    };
    expect((await quarry('forget', '--keep-pages', part)).code).toBe(0);
    expect(await removing()).toEqual([]);
    expect((await quarry('status')).stdout).toContain(`${part} (2 pages indexed: quarry forget ${part} removes them)`);
    const pagesOf = async () => JSON.parse((await quarry('status', '--json')).stdout).forgottenPages;
    expect(await pagesOf()).toEqual({ [part]: 2 });
    expect((await quarry('forget', part)).stdout).toContain(`${part}: 2 pages removed from the index`);
    expect(await removing()).toEqual([part]);
    expect(await pagesOf()).toEqual({ [part]: 0 });
    expect((await quarry('forget', '--undo', part)).code).toBe(0);
    expect((await quarry('forget', '--list')).stdout).toBe('no site is forgotten\n');
    expect((await quarry('crawl', '--wait')).code).toBe(0);
    expect(await hitsFor('otter')).toHaveLength(2);

    // A removal cut short (forgotten, its pages to be removed, none removed yet) says so.
    const queues = openSqliteQueues({ path: join(dir, 'queue.db') });
    await queues.crawl.forget([part]).finally(() => queues.close());
    expect((await quarry('status')).stdout).toContain(
      `${part} (2 pages indexed, their removal cut short: quarry start or quarry forget ${part} removes them)`,
    );
    expect(JSON.parse((await quarry('status', '--json')).stdout).removingPages).toEqual([part]);
    expect((await quarry('forget', '--undo', part)).code).toBe(0);
  }, 120_000);

  it('takes the pages out of a running API within its read-consistency interval (1 s)', async () => {
    const served = spawnCli(['serve'], { ...env(), PORT: '0', QUARRY_HOST: '127.0.0.1' });
    try {
      const base = await served.listening(50_000);
      const search = async (q: string) =>
        ((await (await fetch(`${base}/api/v1/search?q=${q}`)).json()) as { results: { url: string }[] }).results
          .map((r) => r.url)
          .sort();
      expect(await search('otter')).toEqual([`${site.origin}/private/b.html`, `${site.origin}/private/c.html`]);
      expect((await quarry('forget', `${site.origin}/private/`)).code).toBe(0);
      // Another process's commit is seen by a search starting one read-consistency interval (1 s)
      // after it: a forget done within a second of the API's last search (a quiet machine) was
      // still listed by the next one.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await search('otter')).toEqual([]);
      expect(await search('heron')).toEqual([`${site.origin}/a.html`]);
      const content = await fetch(`${base}/api/v1/content/${(await hitsFor('heron'))[0]?.id}`);
      expect(content.status).toBe(200);
    } finally {
      await served.stop();
    }
  }, 90_000);

  it('says what is wrong with the command line, and forgets nothing', async () => {
    // Every refused command line at once; what is forgotten is listed once they are done.
    const flags = ['--undo', '--keep-pages'];
    const [none, bad, both, suffix, undoKeep, ...listings] = await Promise.all([
      quarry('forget'),
      quarry('forget', 'example.com', 'not a site'),
      quarry('forget', '--list', 'example.com'),
      // A public suffix would forget every site under it.
      quarry('forget', '*.com'),
      quarry('forget', '--undo', '--keep-pages', 'example.com'),
      // A listing changes nothing: a flag that would is refused rather than ignored.
      ...flags.map((flag) => quarry('forget', '--list', flag)),
    ]);
    expect(none?.code).toBe(2);
    expect(none?.stderr).toContain('name a site');
    expect(bad?.code).toBe(2);
    expect(bad?.stderr).toContain('not a site: "not a site"');
    expect(both?.code).toBe(2);
    expect(suffix?.code).toBe(2);
    expect(suffix?.stderr).toContain('quarry: "*.com" names com, a public suffix');
    expect((await quarry('forget', '--list')).stdout).not.toContain('example.com');
    // One `quarry:` before each message, never `quarry: quarry forget:`.
    for (const run of [none, bad, both]) expect(run?.stderr).toMatch(/^quarry: (?!quarry)/);
    expect(undoKeep?.code).toBe(2);
    expect(undoKeep?.stderr.trim()).toBe(
      "quarry: option '--undo' cannot be used with option '--keep-pages' (see --help)",
    );
    flags.forEach((flag, i) => {
      expect(listings[i]?.code).toBe(2);
      expect(listings[i]?.stderr).toContain(`option '--list' cannot be used with option '${flag}'`);
    });
  }, 30_000);

  it('says a site never forgotten has nothing to undo, and exits 2 after crawling the others again', async () => {
    // Two different sites: neither command touches what the other does.
    const [never, kept] = await Promise.all([
      quarry('forget', '--undo', 'x.org'),
      quarry('forget', '--keep-pages', 'y.org'),
    ]);
    expect(never).toMatchObject({ code: 2, stdout: '' });
    expect(never.stderr.trim()).toBe(
      'quarry: x.org was not forgotten: nothing to undo (quarry forget --list lists the forgotten sites)',
    );
    expect(kept.code).toBe(0);
    const mixed = await quarry('forget', '--undo', 'x.org', 'y.org');
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('x.org was not forgotten');
    expect(mixed.stdout).toContain('crawling y.org again');
    expect(mixed.stdout).not.toContain('x.org');
    expect((await quarry('forget', '--list')).stdout).not.toContain('y.org');
  }, 30_000);
});
