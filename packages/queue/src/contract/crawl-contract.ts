import { afterEach, describe, expect, it } from '@jest/globals';
import { NonRetryableError, RetryableError } from '@quarry/core';
import type { CommonQueueOptions } from '../options.js';
import type { CrawlTask, CrawlWorker, Queues } from '../types.js';
import { doneAfter, type OpenQueues, StartLog, task, waitFor, waitIdle } from './helpers.js';

/**
 * Slack when comparing measured handler starts with a configured delay: the queue enforces the
 * delay between its grants, and a busy test machine can add a few ms between grant and handler.
 */
const JITTER_MS = 25;

/** The crawl-queue half of the contract: dedup, budgets, politeness, retries, stats, close. */
export function describeCrawlContract(open: OpenQueues): void {
  let queues: Queues | undefined;
  let workers: CrawlWorker[] = [];
  const start = async (options: CommonQueueOptions): Promise<Queues> => {
    queues = await open({ retryBaseDelayMs: 20, closeTimeoutMs: 2000, ...options });
    return queues;
  };

  afterEach(async () => {
    await Promise.all(workers.map((w) => w.close()));
    workers = [];
    await queues?.close();
    queues = undefined;
  });

  describe('add', () => {
    it('adds each URL once for the whole life of the crawl', async () => {
      const { crawl } = await start({ hostDelayMs: 0 });
      expect(await crawl.add([task('http://a.test/1'), task('http://a.test/1'), task('http://a.test/2')])).toBe(2);
      expect(await crawl.add([task('http://a.test/2'), task('http://a.test/3')])).toBe(1);
      expect((await crawl.stats()).queued).toBe(3);
      const seen: string[] = [];
      workers.push(
        crawl.work(
          doneAfter((t) => seen.push(t.url)),
          { concurrency: 2 },
        ),
      );
      await waitFor('three done', async () => (await crawl.stats()).done === 3);
      expect(await crawl.add([task('http://a.test/1'), task('http://a.test/3')])).toBe(0);
      await waitIdle(crawl);
      expect(seen.sort()).toEqual(['http://a.test/1', 'http://a.test/2', 'http://a.test/3']);
    });

    it('enforces maxPagesInScope per scope, counting only admitted URLs', async () => {
      const { crawl } = await start({ hostDelayMs: 0 });
      const urls = [1, 2, 3, 4, 5].map((n) => task(`http://a.test/${n}`, { scope: 's1', maxPagesInScope: 3 }));
      expect(await crawl.add([urls[0] ?? task('http://x.test/'), ...urls])).toBe(3);
      expect(await crawl.add([task('http://a.test/9', { scope: 's1', maxPagesInScope: 3 })])).toBe(0);
      expect(await crawl.add([task('http://a.test/9', { scope: 's2', maxPagesInScope: 3 })])).toBe(1);
      expect(await crawl.add([task('http://a.test/10', { scope: 's1', maxPagesInScope: 4 })])).toBe(1);
      expect((await crawl.stats()).queued).toBe(5);
      // What a budget is compared with: a larger one than that admits more.
      expect(await crawl.admittedInScope('s1')).toBe(4);
      expect(await crawl.admittedInScope('s2')).toBe(1);
      expect(await crawl.admittedInScope('s3')).toBe(0);
    });

    it('admits an uncounted task (a redirect target) past the budget, and counts it nowhere', async () => {
      const { crawl } = await start({ hostDelayMs: 0 });
      const budgeted = (n: number) => task(`http://a.test/${n}`, { scope: 's1', maxPagesInScope: 2 });
      expect(await crawl.add([budgeted(1), task('http://a.test/r', { scope: 's1', uncounted: true })])).toBe(2);
      expect(await crawl.add([budgeted(2)])).toBe(1);
      expect(await crawl.add([budgeted(3)])).toBe(0);
      expect(await crawl.add([task('http://a.test/r2', { scope: 's1', uncounted: true })])).toBe(1);
      expect(await crawl.admittedInScope('s1')).toBe(2);
      // Dedup holds for it as for any URL, and the task it hands over carries no flag.
      expect(await crawl.add([task('http://a.test/r', { scope: 's1', uncounted: true })])).toBe(0);
      const got: CrawlTask[] = [];
      workers.push(
        crawl.work(
          doneAfter((t) => got.push(t)),
          { concurrency: 1 },
        ),
      );
      await waitIdle(crawl);
      expect(got.find((t) => t.url === 'http://a.test/r')).not.toHaveProperty('uncounted');
      expect(got).toHaveLength(4);
    });

    it('hands the task over as added, with attempt 1', async () => {
      const { crawl } = await start({ hostDelayMs: 0 });
      const meta = { etag: '"abc"', lastModified: 'Sat, 21 Nov 2026 10:00:00 GMT' };
      await crawl.add([
        { url: 'http://a.test/p', depth: 2, scope: 'a', seed: 'http://a.test/', render: 'always', meta },
      ]);
      const got: CrawlTask[] = [];
      workers.push(
        crawl.work(
          doneAfter((t) => got.push(t)),
          { concurrency: 1 },
        ),
      );
      await waitIdle(crawl);
      expect(got).toEqual([
        { url: 'http://a.test/p', depth: 2, scope: 'a', seed: 'http://a.test/', render: 'always', meta, attempt: 1 },
      ]);
    });
  });

  describe('politeness', () => {
    it('spaces starts on one host by the delay and runs other hosts in parallel', async () => {
      const delayMs = 150;
      const { crawl } = await start({ hostDelayMs: delayMs });
      await crawl.add(['http://a.test/1', 'http://a.test/2', 'http://a.test/3', 'http://b.test/1'].map((u) => task(u)));
      const log = new StartLog();
      workers.push(
        crawl.work(
          doneAfter((t) => log.record(t.url, t.attempt)),
          { concurrency: 4 },
        ),
      );
      await waitIdle(crawl);
      expect(log.on('a.test')).toHaveLength(3);
      expect(log.minGapOn('a.test')).toBeGreaterThanOrEqual(delayMs - JITTER_MS);
      const [firstA, secondA] = log.on('a.test');
      const [firstB] = log.on('b.test');
      expect(firstB).toBeDefined();
      // b.test must not wait behind a.test's delay.
      expect(firstB ?? Infinity).toBeLessThan(secondA ?? 0);
      expect(Math.abs((firstB ?? 0) - (firstA ?? 0))).toBeLessThan(delayMs);
    });

    it("counts a host's delay from its last request when a task says it was sent after the task's start", async () => {
      const delayMs = 300;
      const lateMs = 200;
      const { crawl } = await start({ hostDelayMs: delayMs });
      await crawl.add(['http://a.test/1', 'http://a.test/2', 'http://a.test/3'].map((u) => task(u)));
      const log = new StartLog();
      workers.push(
        crawl.work(
          async (t) => {
            log.record(t.url, t.attempt);
            // The task's request leaves late (checks before it, a busy event loop) and ends at once.
            await new Promise((resolve) => setTimeout(resolve, lateMs));
            return { status: 'done', lastRequestAgoMs: 0 };
          },
          { concurrency: 3 },
        ),
      );
      await waitIdle(crawl);
      expect(log.on('a.test')).toHaveLength(3);
      // A delay after the request, not after the start the request came lateMs after.
      expect(log.minGapOn('a.test')).toBeGreaterThanOrEqual(lateMs + delayMs - JITTER_MS);
    });

    it('starts tasks that send no request (needsNoRequest) without a politeness slot', async () => {
      const delayMs = 400;
      const { crawl } = await start({ hostDelayMs: delayMs });
      const disallowed = [1, 2, 3, 4, 5, 6].map((n) => `http://a.test/private/${n}`);
      await crawl.add(['http://a.test/1', ...disallowed, 'http://a.test/2'].map((u) => task(u)));
      const log = new StartLog();
      const skipped: string[] = [];
      workers.push(
        crawl.work(
          async (t) => {
            if (t.url.includes('/private/')) {
              skipped.push(t.url);
              return { status: 'skipped', reason: 'robots_disallowed' };
            }
            log.record(t.url, t.attempt);
            return { status: 'done' };
          },
          { concurrency: 4, needsNoRequest: (t) => t.url.includes('/private/') },
        ),
      );
      await waitIdle(crawl);
      expect(skipped.sort()).toEqual(disallowed);
      const stats = await crawl.stats();
      expect(stats).toMatchObject({ done: 2, skipped: 6, inFlight: 0, queued: 0 });
      const [first, second] = log.on('a.test');
      // The two requesting tasks are a delay apart, not seven: the six skips took no slot. (The
      // slack is wider than the other politeness tests': six handlers start beside the first, and
      // on a loaded CI machine its start was logged 30 ms after its grant.)
      expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(delayMs - 4 * JITTER_MS);
      expect((second ?? Infinity) - (first ?? 0)).toBeLessThan(3 * delayMs);
    });

    it('keeps at most perHostConcurrency tasks in flight on one host', async () => {
      const { crawl } = await start({ hostDelayMs: 0, perHostConcurrency: 2 });
      await crawl.add([1, 2, 3, 4, 5, 6].map((n) => task(`http://a.test/${n}`)));
      let inFlight = 0;
      let peak = 0;
      workers.push(
        crawl.work(
          async () => {
            inFlight += 1;
            peak = Math.max(peak, inFlight);
            await new Promise((resolve) => setTimeout(resolve, 40));
            inFlight -= 1;
            return { status: 'done' };
          },
          { concurrency: 6 },
        ),
      );
      await waitIdle(crawl);
      expect(peak).toBe(2);
    });

    it('raises a host delay when an outcome asks for it (Crawl-delay)', async () => {
      const { crawl } = await start({ hostDelayMs: 20 });
      await crawl.add([task('http://a.test/1')]);
      const log = new StartLog();
      workers.push(
        crawl.work(
          doneAfter((t) => log.record(t.url, t.attempt), { hostDelayMs: 300 }),
          { concurrency: 2 },
        ),
      );
      await waitIdle(crawl);
      await crawl.add([task('http://a.test/2'), task('http://a.test/3')]);
      await waitIdle(crawl);
      expect(log.on('a.test')).toHaveLength(3);
      expect(log.minGapOn('a.test')).toBeGreaterThanOrEqual(300 - JITTER_MS);
    });

    it.each([
      // The host's own Retry-After (0.4 s).
      ['a Retry-After', new RetryableError('429 Too Many Requests', 'http_429', { retryAfterSecs: 0.4 }), 400, {}],
      // A 503's rest (5 s) capped by maxRetryDelayMs, 500 ms here.
      [
        'a 503 without Retry-After',
        new RetryableError('503 Service Unavailable', 'http_503'),
        500,
        { maxRetryDelayMs: 500 },
      ],
    ] as const)('backs the whole host off after %s and retries the task', async (_, error, restMs, options) => {
      const { crawl } = await start({ hostDelayMs: 10, retryBaseDelayMs: 10, ...options });
      await crawl.add([task('http://a.test/1'), task('http://a.test/2'), task('http://b.test/1')]);
      const log = new StartLog();
      let throttledAt = 0;
      workers.push(
        crawl.work(
          async (t) => {
            log.record(t.url, t.attempt);
            if (t.url === 'http://a.test/1' && t.attempt === 1) {
              throttledAt = Date.now();
              throw error;
            }
            return { status: 'done' };
          },
          { concurrency: 3 },
        ),
      );
      await waitIdle(crawl);
      const later = log.starts.filter((s) => s.host === 'a.test' && s.at > throttledAt);
      expect(later).toHaveLength(2);
      for (const s of later) expect(s.at - throttledAt).toBeGreaterThanOrEqual(restMs - JITTER_MS);
      expect(log.starts.find((s) => s.url === 'http://a.test/1' && s.attempt === 2)).toBeDefined();
      expect((log.on('b.test')[0] ?? Infinity) - throttledAt).toBeLessThan(restMs);
      expect((await crawl.stats()).done).toBe(3);
    });
    it('queues a postponed task again without using a try, once its host has rested', async () => {
      const restMs = 300;
      const { crawl } = await start({ hostDelayMs: 10, maxAttempts: 1 });
      await crawl.add([task('http://a.test/1'), task('http://a.test/2'), task('http://b.test/1')]);
      const log = new StartLog();
      let postponedAt = 0;
      workers.push(
        crawl.work(
          async (t) => {
            log.record(t.url, t.attempt);
            if (t.url === 'http://a.test/1' && postponedAt === 0) {
              postponedAt = Date.now();
              return { status: 'postponed', restMs, hostDelayMs: 50 };
            }
            return { status: 'done' };
          },
          { concurrency: 3 },
        ),
      );
      await waitIdle(crawl);
      const later = log.starts.filter((s) => s.host === 'a.test' && s.at > postponedAt);
      expect(later.map((s) => s.url).sort()).toEqual(['http://a.test/1', 'http://a.test/2']);
      for (const s of later) expect(s.at - postponedAt).toBeGreaterThanOrEqual(restMs - JITTER_MS);
      // Not a try: with one attempt allowed, the task still ran again, as its first try.
      expect(log.starts.filter((s) => s.url === 'http://a.test/1').map((s) => s.attempt)).toEqual([1, 1]);
      // The delay the outcome raised holds after the rest.
      expect(log.minGapOn('a.test')).toBeGreaterThanOrEqual(50 - JITTER_MS);
      expect((log.on('b.test')[0] ?? Infinity) - postponedAt).toBeLessThan(restMs);
      const stats = await crawl.stats();
      expect([stats.done, stats.skipped, stats.failed]).toEqual([3, 0, 0]);
    });
  });

  describe('retries and outcomes', () => {
    it('retries retryable errors with backoff, then fails with their code', async () => {
      const { crawl } = await start({ hostDelayMs: 0, maxAttempts: 3, retryBaseDelayMs: 60 });
      await crawl.add([task('http://a.test/flaky')]);
      const log = new StartLog();
      workers.push(
        crawl.work(
          async (t) => {
            log.record(t.url, t.attempt);
            throw new RetryableError('timed out', 'fetch_timeout');
          },
          { concurrency: 1 },
        ),
      );
      await waitIdle(crawl);
      expect(log.starts.map((s) => s.attempt)).toEqual([1, 2, 3]);
      const [t1, t2, t3] = log.on('a.test');
      expect((t2 ?? 0) - (t1 ?? 0)).toBeGreaterThanOrEqual(60 - JITTER_MS);
      expect((t3 ?? 0) - (t2 ?? 0)).toBeGreaterThanOrEqual(120 - JITTER_MS);
      const stats = await crawl.stats();
      expect(stats).toMatchObject({ failed: 1, done: 0, queued: 0, inFlight: 0 });
      expect(stats.topFailures).toEqual([{ reason: 'fetch_timeout', count: 1 }]);
    });

    it('records non-retryable codes, internal errors, skips and failed outcomes', async () => {
      const { crawl } = await start({ hostDelayMs: 0, maxAttempts: 3 });
      const urls = ['robots1', 'robots2', 'bug', 'skip', 'gone', 'ok'].map((p) => `http://a.test/${p}`);
      await crawl.add(urls.map((u) => task(u)));
      let calls = 0;
      workers.push(
        crawl.work(
          async (t) => {
            calls += 1;
            if (t.url.includes('robots')) throw new NonRetryableError('disallowed', 'robots_disallowed');
            if (t.url.endsWith('bug')) throw new TypeError('x is undefined');
            if (t.url.endsWith('skip')) return { status: 'skipped', reason: 'not_html' };
            if (t.url.endsWith('gone')) return { status: 'failed', reason: 'http_404' };
            return { status: 'done' };
          },
          { concurrency: 3 },
        ),
      );
      await waitIdle(crawl);
      expect(calls).toBe(6);
      const stats = await crawl.stats();
      expect(stats).toMatchObject({ done: 1, skipped: 1, failed: 4, queued: 0, inFlight: 0 });
      expect(stats.topFailures[0]).toEqual({ reason: 'robots_disallowed', count: 2 });
      expect(stats.topFailures.slice(1).sort((a, b) => a.reason.localeCompare(b.reason))).toEqual([
        { reason: 'http_404', count: 1 },
        { reason: 'internal', count: 1 },
      ]);
    });
  });

  describe('recrawl', () => {
    it('queues finished URLs again with the meta they finished with, each once', async () => {
      const { crawl } = await start({ hostDelayMs: 0 });
      await crawl.add([
        task('http://a.test/1', { meta: { seedSetting: 'x', stale: 'y' } }),
        task('http://a.test/2'),
        task('http://a.test/skip'),
      ]);
      const got: CrawlTask[] = [];
      const worker = crawl.work(
        async (t) => {
          got.push(t);
          if (t.url.endsWith('skip')) return { status: 'skipped', reason: 'noindex' };
          return { status: 'done', meta: { etag: `"${t.url.slice(-1)}"`, stale: '' } };
        },
        { concurrency: 2 },
      );
      workers.push(worker);
      await waitFor('three finished', async () => {
        const s = await crawl.stats();
        return s.done === 2 && s.skipped === 1;
      });
      await waitIdle(crawl);
      await worker.close();

      expect(await crawl.recrawl({ olderThanMs: 60_000 })).toBe(0); // nothing is that old yet
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(await crawl.recrawl({ olderThanMs: 0 })).toBe(2); // done only, by default
      expect(await crawl.recrawl({ olderThanMs: 0 })).toBe(0); // each URL is taken once
      expect(await crawl.stats()).toMatchObject({ queued: 2, done: 0, skipped: 1 });
      expect(await crawl.isIdle()).toBe(false);

      got.length = 0;
      workers.push(
        crawl.work(
          doneAfter((t) => got.push(t)),
          { concurrency: 2 },
        ),
      );
      await waitIdle(crawl);
      const byUrl = new Map(got.map((t) => [t.url, t]));
      expect([...byUrl.keys()].sort()).toEqual(['http://a.test/1', 'http://a.test/2']);
      expect(byUrl.get('http://a.test/1')).toMatchObject({ attempt: 1, meta: { seedSetting: 'x', etag: '"1"' } });
      expect(byUrl.get('http://a.test/1')?.meta).not.toHaveProperty('stale');
      expect(byUrl.get('http://a.test/2')?.meta).toEqual({ etag: '"2"' });
      expect(await crawl.stats()).toMatchObject({ done: 2, skipped: 1, queued: 0 });
      // An added URL is still never added again after a recrawl.
      expect(await crawl.add([task('http://a.test/1')])).toBe(0);
    });

    it('takes the states asked for, oldest first, up to the limit', async () => {
      const { crawl } = await start({ hostDelayMs: 0 });
      const urls = ['ok1', 'bad1', 'ok2', 'bad2'].map((p) => `http://a.test/${p}`);
      const worker = crawl.work(
        async (t) => (t.url.includes('bad') ? { status: 'failed', reason: 'http_500' } : { status: 'done' }),
        { concurrency: 1 },
      );
      workers.push(worker);
      for (const url of urls) {
        await crawl.add([task(url)]);
        await waitIdle(crawl);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await worker.close();
      expect(await crawl.stats()).toMatchObject({ done: 2, failed: 2 });
      expect(await crawl.recrawl({ olderThanMs: 0, states: ['failed'], limit: 1 })).toBe(1);
      expect(await crawl.stats()).toMatchObject({ done: 2, failed: 1, queued: 1 });
      const seen: string[] = [];
      workers.push(
        crawl.work(
          doneAfter((t) => seen.push(t.url)),
          { concurrency: 1 },
        ),
      );
      await waitIdle(crawl);
      expect(seen).toEqual(['http://a.test/bad1']);
      expect(await crawl.stats()).toMatchObject({ done: 3, failed: 1 });
    });

    it('rejects nonsense options', async () => {
      const { crawl } = await start({ hostDelayMs: 0 });
      await expect(crawl.recrawl({ olderThanMs: -1 })).rejects.toThrow(RangeError);
      await expect(crawl.recrawl({ olderThanMs: 0, limit: 0 })).rejects.toThrow(RangeError);
      await expect(crawl.recrawl({ olderThanMs: 0, states: [] })).rejects.toThrow(RangeError);
      await expect(crawl.recrawl({ olderThanMs: 0, states: ['queued' as unknown as 'done'] })).rejects.toThrow(
        RangeError,
      );
    });
  });

  describe('idle and close', () => {
    it('is idle only when nothing is queued, delayed or in flight', async () => {
      const { crawl } = await start({ hostDelayMs: 0, retryBaseDelayMs: 200 });
      expect(await crawl.isIdle()).toBe(true);
      await crawl.add([task('http://a.test/1')]);
      expect(await crawl.isIdle()).toBe(false);
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let tries = 0;
      workers.push(
        crawl.work(
          async () => {
            tries += 1;
            if (tries === 1) throw new RetryableError('reset', 'conn_reset');
            await gate;
            return { status: 'done' };
          },
          { concurrency: 1 },
        ),
      );
      await waitFor('the first try', () => tries === 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await crawl.isIdle()).toBe(false); // delayed for retry
      await waitFor('the second try', async () => tries === 2 && (await crawl.stats()).inFlight === 1);
      expect(await crawl.isIdle()).toBe(false); // in flight
      release();
      await waitIdle(crawl);
      expect((await crawl.stats()).done).toBe(1);
    });

    it('close waits for in-flight tasks and takes no new ones', async () => {
      const { crawl } = await start({ hostDelayMs: 0 });
      await crawl.add([task('http://a.test/1'), task('http://a.test/2')]);
      let finished = 0;
      let started = 0;
      const worker = crawl.work(
        async () => {
          started += 1;
          await new Promise((resolve) => setTimeout(resolve, 150));
          finished += 1;
          return { status: 'done' };
        },
        { concurrency: 1 },
      );
      await waitFor('a start', () => started === 1);
      await worker.close();
      expect(finished).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(started).toBe(1);
      expect(await crawl.stats()).toMatchObject({ done: 1, queued: 1, inFlight: 0 });
    });

    it('close aborts handlers after its deadline and requeues their tasks without using a try', async () => {
      const { crawl } = await start({ hostDelayMs: 0, closeTimeoutMs: 100, maxAttempts: 1 });
      await crawl.add([task('http://a.test/slow')]);
      let aborted = false;
      const worker = crawl.work(
        (_t, signal) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener('abort', () => {
              aborted = true;
              reject(signal.reason);
            });
          }),
        { concurrency: 1 },
      );
      await waitFor('in flight', async () => (await crawl.stats()).inFlight === 1);
      await worker.close();
      expect(aborted).toBe(true);
      expect(await crawl.stats()).toMatchObject({ queued: 1, failed: 0, inFlight: 0 });
      const attempts: number[] = [];
      workers.push(
        crawl.work(
          doneAfter((t) => attempts.push(t.attempt)),
          { concurrency: 1 },
        ),
      );
      await waitIdle(crawl);
      expect(attempts).toEqual([1]);
    });
  });
}
