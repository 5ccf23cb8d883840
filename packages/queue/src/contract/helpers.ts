import type { PageDocument } from '@quarry/core';
import type { CommonQueueOptions } from '../options.js';
import type { CrawlHandler, CrawlOutcome, CrawlQueue, CrawlTask, NewCrawlTask, Queues } from '../types.js';

/** Opens fresh, empty queues of one backend with the given options. */
export type OpenQueues = (options: CommonQueueOptions) => Promise<Queues>;

/** Polls `check` until it holds; fails with `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits until the crawl queue has nothing queued, delayed or in flight. */
export function waitIdle(crawl: CrawlQueue, timeoutMs = 10_000): Promise<void> {
  return waitFor('an idle crawl queue', () => crawl.isIdle(), timeoutMs);
}

/** A task for `url` with the usual defaults (scope = host). */
export function task(url: string, extra: Partial<NewCrawlTask> = {}): NewCrawlTask {
  return { url, depth: 0, scope: new URL(url).hostname, seed: url, ...extra };
}

/** A minimal valid document for `url`. */
export function doc(url: string): PageDocument {
  const host = new URL(url).hostname;
  return {
    id: Buffer.from(url).toString('base64url').slice(-22).padStart(22, 'x'),
    url,
    title: `Title of ${url}`,
    body_text: `Body of ${url}`,
    lang: 'en',
    author: null,
    published_at: null,
    crawled_at: '2026-11-22T08:15:00Z',
    site_name: null,
    has_llms_txt: false,
    filetype: 'html',
    domain: host,
    word_count: 3,
  };
}

/** Records handler starts per host, for politeness assertions. */
export class StartLog {
  readonly starts: { url: string; host: string; at: number; attempt: number }[] = [];

  record(url: string, attempt: number): void {
    this.starts.push({ url, host: new URL(url).hostname, at: Date.now(), attempt });
  }

  /** Start times on one host, in order. */
  on(host: string): number[] {
    return this.starts.filter((s) => s.host === host).map((s) => s.at);
  }

  /** Smallest gap between consecutive starts on one host (Infinity with fewer than two). */
  minGapOn(host: string): number {
    const times = this.on(host);
    let min = Infinity;
    for (let i = 1; i < times.length; i += 1) min = Math.min(min, (times[i] ?? 0) - (times[i - 1] ?? 0));
    return min;
  }
}

/** A handler that hands each task to `record` and reports it done (with `extra` in the outcome). */
export function doneAfter(record: (task: CrawlTask) => void, extra: Partial<CrawlOutcome> = {}): CrawlHandler {
  return async (task) => {
    record(task);
    return { status: 'done', ...extra };
  };
}
