import { afterEach, describe, expect, it } from '@jest/globals';
import { type CrawlTask, openSqliteQueues, type Queues } from '@quarry/queue';
import { pino } from 'pino';
import { recrawlOlderThan, scheduleRecrawls } from './recrawl.js';

const logger = pino({ level: 'silent' });
const task = (url: string) => ({ url, depth: 0, scope: 'a.test', seed: url });

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('recrawls', () => {
  let queues: Queues | undefined;
  afterEach(async () => {
    await queues?.close();
    queues = undefined;
  });

  it('recrawlOlderThan takes every finished state, in batches until none is left', async () => {
    queues = openSqliteQueues({ path: ':memory:', hostDelayMs: 0 });
    const { crawl } = queues;
    await crawl.add(['ok', 'skip', 'fail'].map((p) => task(`http://a.test/${p}`)));
    const worker = crawl.work(
      async (t) => {
        if (t.url.endsWith('skip')) return { status: 'skipped', reason: 'noindex' };
        if (t.url.endsWith('fail')) return { status: 'failed', reason: 'http_404' };
        return { status: 'done' };
      },
      { concurrency: 3 },
    );
    await until(() => crawl.isIdle());
    await worker.close();
    expect(await recrawlOlderThan(crawl, 3_600_000)).toBe(0);
    expect(await recrawlOlderThan(crawl, 0)).toBe(3);
    expect(await crawl.stats()).toMatchObject({ queued: 3, done: 0, skipped: 0, failed: 0 });
  });

  it('scheduleRecrawls queues pages again once they are older than the age, until closed', async () => {
    queues = openSqliteQueues({ path: ':memory:', hostDelayMs: 0 });
    const { crawl } = queues;
    const crawled: CrawlTask[] = [];
    const worker = crawl.work(
      async (t) => {
        crawled.push(t);
        return { status: 'done', meta: { etag: `"${crawled.length}"` } };
      },
      { concurrency: 2 },
    );
    await crawl.add([task('http://a.test/1'), task('http://a.test/2')]);
    await until(() => crawled.length === 2);
    const schedule = scheduleRecrawls(crawl, 500, logger); // sweeps at once, then every second
    await until(() => crawled.length >= 4, 5000);
    // Each URL came back once, with the validator its first crawl left.
    expect(
      crawled
        .slice(2)
        .map((t) => t.url)
        .sort(),
    ).toEqual(['http://a.test/1', 'http://a.test/2']);
    expect(crawled.slice(2).every((t) => /^"[12]"$/.test(t.meta?.etag ?? ''))).toBe(true);
    await schedule.close();
    const after = crawled.length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(crawled.length).toBe(after);
    await worker.close();
  });
});
