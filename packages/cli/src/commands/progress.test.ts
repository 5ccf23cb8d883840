import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { CrawlStats, Queues } from '@quarry/queue';
import { backoffNote, crawlRate, diskNote, reportProgress } from './progress.js';

const backoff = (host: string, reason: string) => ({ host, reason, untilMs: 0 });

describe('backoffNote', () => {
  it('says nothing when no host is backed off from', () => {
    expect(backoffNote([])).toBe('');
  });

  it('names the hosts with why, two at most, and counts the rest', () => {
    expect(backoffNote([backoff('a.example', 'http_429')])).toBe(' | backing off: a.example (http_429)');
    expect(backoffNote([backoff('a.example', 'http_429'), backoff('b.example', 'http_503')])).toBe(
      ' | backing off: a.example (http_429), b.example (http_503)',
    );
    const four = ['a', 'b', 'c', 'd'].map((h) => backoff(`${h}.example`, 'timeout'));
    expect(backoffNote(four)).toBe(' | backing off: a.example (timeout), b.example (timeout) +2 more');
  });
});

describe('diskNote', () => {
  it('says nothing while the data dir has room', () => {
    expect(diskNote(tmpdir(), 1)).toBe('');
  });

  it('says the disk is full, with what is free, under the threshold (read from the real disk)', () => {
    expect(diskNote(tmpdir(), Number.POSITIVE_INFINITY)).toMatch(
      new RegExp(`^ \\| disk full: \\d+\\.\\d MB free in ${tmpdir()}; the crawl waits for space$`),
    );
  });

  it('says nothing about a dir it cannot read', () => {
    expect(diskNote(join(tmpdir(), 'no-such-dir-for-quarry'), Number.POSITIVE_INFINITY)).toBe('');
  });
});

describe('crawlRate', () => {
  it('is the pages done a second since the last read, 0 without one', () => {
    expect(crawlRate(null, { done: 40, atMs: 10_000 })).toBe(0);
    expect(crawlRate({ done: 40, atMs: 10_000 }, { done: 50, atMs: 15_000 })).toBe(2);
    // A read that came late (a tick skipped) is divided by the time that really passed.
    expect(crawlRate({ done: 40, atMs: 10_000 }, { done: 60, atMs: 20_000 })).toBe(2);
  });

  it('never goes below 0 when done drops, as finished URLs are queued again (forget --undo, a recrawl)', () => {
    expect(crawlRate({ done: 50, atMs: 10_000 }, { done: 49, atMs: 15_000 })).toBe(0);
    expect(crawlRate({ done: 50, atMs: 10_000 }, { done: 0, atMs: 15_000 })).toBe(0);
    expect(crawlRate({ done: 50, atMs: 10_000 }, { done: 50, atMs: 10_000 })).toBe(0);
  });
});

describe('reportProgress', () => {
  /**
   * The first two lines written over queues whose crawl counts read `reads` in turn (the last one
   * from then on), on top of 3 queued, 1 in flight and nothing done, skipped or failed.
   */
  const twoLines = async (reads: readonly Partial<CrawlStats>[]): Promise<string[]> => {
    const left = [...reads];
    const base = { queued: 3, inFlight: 1, done: 0, skipped: 0, failed: 0, topFailures: [], reasons: [] };
    const queues = {
      crawl: { stats: async () => ({ ...base, ...(left.length > 1 ? left.shift() : left[0]) }) },
      index: { stats: async () => ({ waiting: 0, active: 0, failed: 0 }) },
    } as unknown as Queues;
    const lines: string[] = [];
    const progress = reportProgress(queues, (line) => lines.push(line), 10);
    while (lines.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    progress.stop();
    return lines;
  };

  it('shows no negative rate when done drops between two lines', async () => {
    const lines = await twoLines([{ done: 7 }, { done: 6 }]);
    expect(lines[1]).toMatch(/^crawl: 6 done, .* \| 0\.0 pages\/s \|/);
  });

  it('says how fast URLs end skipped or failed while no page is crawled (a crawl of dead links)', async () => {
    const lines = await twoLines([
      { queued: 300, done: 4, failed: 0 },
      { queued: 300, done: 4, failed: 50 },
    ]);
    expect(lines[0]).toMatch(/ \| 0\.0 pages\/s \| /);
    expect(lines[1]).toMatch(/ \| 0\.0 pages\/s \(\d+\.\d URLs\/s with those skipped or failed\) \| index: /);
  });

  it('names the hosts backed off from on the line of `quarry start`', async () => {
    const crawl = { queued: 3, inFlight: 1, done: 2, skipped: 0, failed: 0, topFailures: [], reasons: [] };
    const queues = {
      crawl: { stats: async () => crawl },
      index: { stats: async () => ({ waiting: 0, active: 0, failed: 0 }) },
    } as unknown as Queues;
    const lines: string[] = [];
    const progress = reportProgress(
      queues,
      (line) => lines.push(line),
      60_000,
      () => [backoff('a.example', 'http_429')],
    );
    while (lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    progress.stop();
    expect(lines[0]).toMatch(/^crawl: 2 done, 3 queued, .* \| backing off: a\.example \(http_429\)$/);
  });
});
