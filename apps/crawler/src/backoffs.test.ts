import { describe, expect, it } from '@jest/globals';
import { NonRetryableError, RetryableError } from '@quarry/core';
import { BACKOFF_SHOWN_MS, BackoffWatch } from './backoffs.js';

describe('BackoffWatch', () => {
  let now = 1_000_000;
  const watch = () => new BackoffWatch(() => now);

  it('lists a host whose task failed with a retryable error, the most recent first', () => {
    const backoffs = watch();
    backoffs.note('https://a.example/1', new RetryableError('429', 'http_429', { retryAfterSecs: 120 }));
    backoffs.note('https://b.example/1', new RetryableError('503', 'http_503'));
    backoffs.note('https://c.example/1', new NonRetryableError('404', 'http_404'));
    expect(backoffs.current()).toEqual([
      { host: 'b.example', reason: 'http_503', untilMs: now + BACKOFF_SHOWN_MS },
      { host: 'a.example', reason: 'http_429', untilMs: now + 120_000 },
    ]);
  });

  it('drops a host when one of its tasks ends otherwise, or once its back-off has passed', () => {
    const backoffs = watch();
    backoffs.note('https://a.example/1', new RetryableError('429', 'http_429', { retryAfterSecs: 120 }));
    backoffs.note('https://b.example/1', new RetryableError('timed out', 'timeout'));
    backoffs.note('https://a.example/2', undefined);
    expect(backoffs.current().map((b) => b.host)).toEqual(['b.example']);
    now += BACKOFF_SHOWN_MS;
    expect(backoffs.current()).toEqual([]);
  });

  it('keeps at most 10,000 hosts, the most recent, without being asked for them', () => {
    const backoffs = watch();
    for (let i = 0; i <= 10_000; i++) backoffs.note(`https://h${i}.example/`, new RetryableError('t', 'timeout'));
    const hosts = backoffs.current().map((b) => b.host);
    expect(hosts).toHaveLength(10_000);
    expect(hosts[0]).toBe('h10000.example');
    expect(hosts).not.toContain('h0.example');
  });
});
