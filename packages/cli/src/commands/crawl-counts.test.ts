import { describe, expect, it } from '@jest/globals';
import type { CrawlStats } from '@quarry/queue';
import { finishedCounts } from './crawl-counts.js';

const stats = (skipped: number, reasons: CrawlStats['reasons']): CrawlStats => ({
  queued: 0,
  inFlight: 0,
  done: 5,
  skipped,
  failed: 1,
  topFailures: [],
  reasons,
});
const reason = (name: string, count: number, state: 'skipped' | 'failed' = 'skipped') => ({
  state,
  reason: name,
  count,
  examples: [],
});

describe('finishedCounts', () => {
  it('tells the sitemaps and feeds apart from the pages skipped, a missing sitemap not as one read', () => {
    expect(finishedCounts(stats(4, [reason('duplicate', 2), reason('link_list', 1), reason('no_sitemap', 1)]))).toEqual(
      {
        done: 5,
        skipped: 2,
        failed: 1,
        listsSkipped: 2,
        lists: ' (and 1 sitemap or feed read, 1 sitemap missing or empty)',
      },
    );
    expect(finishedCounts(stats(1, [reason('no_sitemap', 1)])).lists).toBe(' (and 1 sitemap missing or empty)');
    expect(finishedCounts(stats(6, [reason('duplicate', 5), reason('no_sitemap', 1)]))).toMatchObject({
      skipped: 5,
      listsSkipped: 1,
      lists: ' (and 1 sitemap missing or empty)',
    });
    expect(finishedCounts(stats(5, [reason('link_list', 3), reason('no_sitemap', 2)])).lists).toBe(
      ' (and 3 sitemaps and feeds read, 2 sitemaps missing or empty)',
    );
    expect(finishedCounts(stats(1, [reason('link_list', 1)])).lists).toBe(' (and 1 sitemap or feed read)');
  });

  it('counts skipped pages as before when no sitemap or feed was read, and never below zero', () => {
    expect(finishedCounts(stats(3, [reason('duplicate', 3), reason('link_list', 2, 'failed')]))).toEqual({
      done: 5,
      skipped: 3,
      failed: 1,
      listsSkipped: 0,
      lists: '',
    });
    // A distributed queue's reasons from before 2026-12-06 counted the crawl's life: more than the URLs skipped now.
    expect(finishedCounts(stats(1, [reason('link_list', 4)]))).toMatchObject({
      skipped: 0,
      listsSkipped: 1,
      lists: ' (and 1 sitemap or feed read)',
    });
    expect(finishedCounts(stats(2, [reason('link_list', 1), reason('no_sitemap', 4)]))).toMatchObject({
      skipped: 0,
      listsSkipped: 2,
      lists: ' (and 1 sitemap or feed read, 1 sitemap missing or empty)',
    });
  });
});
