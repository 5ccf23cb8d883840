import { afterEach, describe, expect, it } from '@jest/globals';
import { DUPLICATE_REASON, SITE_FORGOTTEN } from '../forget.js';
import type { CommonQueueOptions } from '../options.js';
import type { CrawlTask, CrawlWorker, Queues } from '../types.js';
import { doneAfter, type OpenQueues, task, waitFor, waitIdle } from './helpers.js';

/** The contract of forgotten sites (`forget`, `unforget`, `forgotten`, `forgottenRemovingPages`). */
export function describeForget(open: OpenQueues): void {
  describe('forgotten sites', () => {
    let queues: Queues | undefined;
    let workers: CrawlWorker[] = [];
    const start = async (options: CommonQueueOptions = {}): Promise<Queues> => {
      queues = await open({ retryBaseDelayMs: 20, closeTimeoutMs: 2000, hostDelayMs: 0, ...options });
      return queues;
    };

    afterEach(async () => {
      await Promise.all(workers.map((w) => w.close()));
      workers = [];
      await queues?.close();
      queues = undefined;
    });

    const urls = [
      'http://a.test/1',
      'http://a.test/2',
      'http://www.a.test/3',
      'http://b.test/docs/1',
      'http://b.test/blog/1',
      'http://c.test/1',
    ];

    it('drops the queued URLs of the sites, never fetching them, and refuses new ones', async () => {
      const { crawl } = await start();
      expect(await crawl.add(urls.map((u) => task(u)))).toBe(6);
      const dropped = await crawl.forget(['A.test', 'https://b.test/docs/']);
      // The embedded queue drops them at once; the distributed one as workers reach them.
      if (dropped !== null) expect(dropped).toBe(4);
      expect(await crawl.forgotten()).toEqual(['a.test', 'b.test/docs']);
      // Refused from now on, also when found again under another seed; other sites are taken.
      expect(
        await crawl.add([task('http://a.test/new'), task('http://sub.a.test/x'), task('http://b.test/docs/2')]),
      ).toBe(0);
      expect(await crawl.add([task('http://b.test/blog/2'), task('http://c.test/2')])).toBe(2);
      const seen: CrawlTask[] = [];
      workers.push(
        crawl.work(
          doneAfter((t) => seen.push(t)),
          { concurrency: 2 },
        ),
      );
      await waitIdle(crawl);
      expect(seen.map((t) => t.url).sort()).toEqual([
        'http://b.test/blog/1',
        'http://b.test/blog/2',
        'http://c.test/1',
        'http://c.test/2',
      ]);
      const stats = await crawl.stats();
      expect({ done: stats.done, skipped: stats.skipped, queued: stats.queued }).toEqual({
        done: 4,
        skipped: 4,
        queued: 0,
      });
      const reason = stats.reasons.find((r) => r.reason === SITE_FORGOTTEN);
      expect(reason).toMatchObject({ state: 'skipped', count: 4 });
      const hosts = await crawl.hosts({ sort: 'skipped', limit: 10, offset: 0 });
      expect(hosts.hosts.find((h) => h.host === 'a.test')).toMatchObject({ queued: 0, skipped: 2 });
    });

    it('leaves URLs finished before the forget as they are', async () => {
      const { crawl } = await start();
      await crawl.add([task('http://a.test/1')]);
      workers.push(
        crawl.work(
          doneAfter(() => {}),
          { concurrency: 1 },
        ),
      );
      await waitIdle(crawl);
      await crawl.forget(['a.test']);
      const stats = await crawl.stats();
      expect({ done: stats.done, skipped: stats.skipped }).toEqual({ done: 1, skipped: 0 });
    });

    it('skips without a request a URL of a forgotten site queued again by a recrawl', async () => {
      const { crawl } = await start();
      await crawl.add([task('http://a.test/1'), task('http://c.test/1')]);
      const seen: string[] = [];
      workers.push(
        crawl.work(
          doneAfter((t) => seen.push(t.url)),
          { concurrency: 2 },
        ),
      );
      await waitIdle(crawl);
      await crawl.forget(['a.test']);
      expect(await crawl.recrawl({ olderThanMs: 0 })).toBe(2);
      await waitFor('the recrawl done', async () => (await crawl.stats()).skipped === 1);
      await waitIdle(crawl);
      expect(seen.sort()).toEqual(['http://a.test/1', 'http://c.test/1', 'http://c.test/1']);
      expect((await crawl.stats()).reasons.find((r) => r.reason === SITE_FORGOTTEN)?.count).toBe(1);
      // The URL dropped there comes back with the site.
      expect(await crawl.unforget(['a.test'])).toBe(1);
      await waitFor('the site crawled again', () => seen.length === 4);
    });

    it("queues again the pages of other sites skipped as copies of the site's pages", async () => {
      const { crawl } = await start();
      await crawl.add([task('http://m.test/p'), task('http://o.test/p', { meta: { etag: '"e"' } })]);
      const seen: CrawlTask[] = [];
      const worker = crawl.work(
        async (t) => {
          seen.push(t);
          return t.url === 'http://o.test/p' && seen.length <= 2
            ? { status: 'skipped', reason: 'duplicate', meta: { duplicateOf: 'http://m.test/p' } }
            : { status: 'done' };
        },
        { concurrency: 1 },
      );
      await waitIdle(crawl);
      await worker.close();
      expect((await crawl.stats()).skipped).toBe(1);
      await crawl.forget(['m.test']);
      workers.push(
        crawl.work(
          doneAfter((t) => seen.push(t)),
          { concurrency: 1 },
        ),
      );
      await waitFor('the copy crawled again', () => seen.length === 3);
      await waitIdle(crawl);
      expect(seen[2]?.url).toBe('http://o.test/p');
      expect(seen[2]?.meta ?? {}).toEqual({});
      expect((await crawl.stats()).skipped).toBe(0);
    });

    it('leaves the copies of the pages a forget keeps skipped, until a forget removes those pages', async () => {
      const { crawl } = await start();
      await crawl.add([task('http://m.test/p'), task('http://o.test/p')]);
      const seen: CrawlTask[] = [];
      const worker = crawl.work(
        async (t) => {
          seen.push(t);
          return t.url === 'http://o.test/p'
            ? { status: 'skipped', reason: DUPLICATE_REASON, meta: { duplicateOf: 'http://m.test/p' } }
            : { status: 'done' };
        },
        { concurrency: 1 },
      );
      await waitIdle(crawl);
      await worker.close();
      // The original stays indexed, so its copy stays out of the index.
      await crawl.forget(['m.test'], { keepPages: true });
      const stats = await crawl.stats();
      expect({ queued: stats.queued, skipped: stats.skipped }).toEqual({ queued: 0, skipped: 1 });
      expect(stats.reasons.find((r) => r.reason === DUPLICATE_REASON)).toMatchObject({ state: 'skipped', count: 1 });
      expect(await crawl.isIdle()).toBe(true);
      // Forgotten again, its pages removed: the copy is taken again.
      await crawl.forget(['m.test']);
      workers.push(
        crawl.work(
          doneAfter((t) => seen.push(t)),
          { concurrency: 1 },
        ),
      );
      await waitFor('the copy crawled again', () => seen.length === 3);
      await waitIdle(crawl);
      expect(seen[2]?.url).toBe('http://o.test/p');
    });

    it('unforget recrawls with their validators the pages a keep-pages forget left indexed', async () => {
      const { crawl } = await start();
      const meta = { etag: '"v1"', lastModified: 'Sat, 21 Nov 2026 10:00:00 GMT', indexed: '1' };
      await crawl.add(['http://a.test/1', 'http://a.test/2', 'http://c.test/1'].map((u) => task(u, { meta })));
      const seen: CrawlTask[] = [];
      let inFlight = false;
      let finish = (): void => {};
      const finished = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const worker = crawl.work(
        async (t) => {
          seen.push(t);
          if (t.url === 'http://a.test/2') {
            inFlight = true;
            await finished;
          }
          return { status: 'done' };
        },
        { concurrency: 3 },
      );
      await waitFor('a.test/2 in flight, the rest done', async () => inFlight && (await crawl.stats()).done === 2);
      // Finished before the forget, by a clock that counts milliseconds.
      await new Promise((resolve) => setTimeout(resolve, 5));
      await crawl.forget(['a.test'], { keepPages: true });
      // In flight as its site was forgotten: the indexer refused its page, which is not indexed.
      finish();
      await waitIdle(crawl);
      await worker.close();
      expect(await crawl.unforget(['a.test'])).toBe(2);
      workers.push(
        crawl.work(
          doneAfter((t) => seen.push(t)),
          { concurrency: 2 },
        ),
      );
      await waitFor('a.test crawled again', () => seen.length === 5);
      await waitIdle(crawl);
      const again = new Map(seen.slice(3).map((t) => [t.url, t.meta]));
      expect(again.get('http://a.test/1')).toEqual(meta);
      expect(again.get('http://a.test/2')).toEqual({ indexed: '1' });
    });

    it('unforget fetches whole the pages of a site a forget removed, though a later one kept them', async () => {
      const { crawl } = await start();
      const meta = { etag: '"v1"', indexed: '1' };
      await crawl.add([task('http://a.test/1', { meta }), task('http://b.test/1', { meta })]);
      const seen: CrawlTask[] = [];
      const worker = crawl.work(
        doneAfter((t) => seen.push(t)),
        { concurrency: 2 },
      );
      await waitIdle(crawl);
      await worker.close();
      // a.test: removed, then kept (the removal may have run); b.test: kept, then removed.
      await crawl.forget(['a.test']);
      await crawl.forget(['a.test', 'b.test'], { keepPages: true });
      await crawl.forget(['b.test']);
      expect(await crawl.unforget(['a.test', 'b.test'])).toBe(2);
      workers.push(
        crawl.work(
          doneAfter((t) => seen.push(t)),
          { concurrency: 2 },
        ),
      );
      await waitFor('both crawled again', () => seen.length === 4);
      await waitIdle(crawl);
      expect(seen.slice(2).map((t) => t.meta)).toEqual([{ indexed: '1' }, { indexed: '1' }]);
    });

    it('unforget crawls again, whole, the URLs crawled before the forget, whose pages it removed', async () => {
      const { crawl } = await start();
      const meta = { etag: '"v1"', lastModified: 'Sat, 21 Nov 2026 10:00:00 GMT', note: 'kept' };
      await crawl.add([task('http://a.test/1', { meta }), task('http://c.test/1', { meta })]);
      const seen: CrawlTask[] = [];
      const worker = crawl.work(
        doneAfter((t) => seen.push(t)),
        { concurrency: 2 },
      );
      await waitIdle(crawl);
      await worker.close();
      await crawl.forget(['a.test']);
      expect(await crawl.unforget(['a.test'])).toBe(1);
      workers.push(
        crawl.work(
          doneAfter((t) => seen.push(t)),
          { concurrency: 2 },
        ),
      );
      await waitFor('a.test crawled again', () => seen.length === 3);
      await waitIdle(crawl);
      expect(seen[2]?.url).toBe('http://a.test/1');
      expect(seen[2]?.meta).toEqual({ note: 'kept' });
      expect((await crawl.stats()).done).toBeGreaterThanOrEqual(2);
    });

    it('unforget takes the sites again and queues the URLs the forget dropped', async () => {
      const { crawl } = await start();
      await crawl.add(urls.map((u) => task(u)));
      await crawl.forget(['a.test', 'www.a.test', 'b.test/docs']);
      const first: string[] = [];
      const worker = crawl.work(
        doneAfter((t) => first.push(t.url)),
        { concurrency: 2 },
      );
      await waitIdle(crawl);
      await worker.close();
      expect(first.sort()).toEqual(['http://b.test/blog/1', 'http://c.test/1']);

      // www.a.test stays forgotten on its own: its URL is not queued again.
      expect(await crawl.unforget(['a.test', 'never-forgotten.test'])).toBe(2);
      expect(await crawl.forgotten()).toEqual(['b.test/docs', 'www.a.test']);
      expect(await crawl.unforget(['a.test'])).toBe(0);
      expect(await crawl.add([task('http://a.test/new'), task('http://www.a.test/new')])).toBe(1);
      const second: string[] = [];
      workers.push(
        crawl.work(
          doneAfter((t) => second.push(t.url)),
          { concurrency: 2 },
        ),
      );
      await waitFor('the site crawled again', async () => second.length === 3);
      await waitIdle(crawl);
      expect(second.sort()).toEqual(['http://a.test/1', 'http://a.test/2', 'http://a.test/new']);
      // Only the URLs of the sites still forgotten stay skipped, and their reason counts only them.
      const stats = await crawl.stats();
      expect(stats.skipped).toBe(2);
      expect(stats.reasons.find((r) => r.reason === SITE_FORGOTTEN)).toMatchObject({ state: 'skipped', count: 2 });
    });

    it('records whose pages are to be removed: the last forget of a site says, unforget clears it', async () => {
      const { crawl } = await start();
      await crawl.forget(['a.test', 'b.test/docs']);
      await crawl.forget(['c.test'], { keepPages: true });
      expect(await crawl.forgotten()).toEqual(['a.test', 'b.test/docs', 'c.test']);
      expect(await crawl.forgottenRemovingPages()).toEqual(['a.test', 'b.test/docs']);
      // Forgotten again: kept pages are to be removed now, and the other way round.
      await crawl.forget(['c.test']);
      await crawl.forget(['a.test'], { keepPages: true });
      expect(await crawl.forgottenRemovingPages()).toEqual(['b.test/docs', 'c.test']);
      await crawl.unforget(['b.test/docs']);
      expect(await crawl.forgottenRemovingPages()).toEqual(['c.test']);
      // Taken again later, with its pages kept: not among them.
      await crawl.forget(['b.test/docs'], { keepPages: true });
      expect(await crawl.forgottenRemovingPages()).toEqual(['c.test']);
    });

    it('says which value names no site, and changes nothing', async () => {
      const { crawl } = await start();
      await expect(crawl.forget(['a.test', 'not a site'])).rejects.toThrow(/not a site: "not a site"/);
      await expect(crawl.forget([])).rejects.toThrow(RangeError);
      expect(await crawl.forgotten()).toEqual([]);
      expect(await crawl.forgottenRemovingPages()).toEqual([]);
    });
  });
}
