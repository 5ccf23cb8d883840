import { describe, expect, it } from '@jest/globals';
import type { Queues } from '@quarry/queue';
import { backoffNote, reportProgress } from './progress.js';

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

describe('reportProgress', () => {
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
