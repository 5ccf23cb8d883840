import { describe, expect, it } from '@jest/globals';
import { NonRetryableError, RetryableError } from '@quarry/core';
import { classifyError, THROTTLE_BACKOFF_MS, UNAVAILABLE_REST_MS } from './policy.js';

describe('classifyError', () => {
  const cap = 600_000;

  it('rests a host that limits requests, longer with each try, when it sends no Retry-After', () => {
    const busy = new RetryableError('HTTP 429', 'http_429');
    expect(classifyError(busy, cap, 1).hostBackoffMs).toBe(THROTTLE_BACKOFF_MS);
    expect(classifyError(busy, cap, 3).hostBackoffMs).toBe(THROTTLE_BACKOFF_MS * 4);
    // A 503: the host rests a little (one address may be broken for good), the page the doubled time.
    expect(classifyError(new RetryableError('HTTP 503', 'http_503'), cap, 2)).toEqual({
      retryable: true,
      code: 'http_503',
      hostBackoffMs: UNAVAILABLE_REST_MS,
      retryFloorMs: THROTTLE_BACKOFF_MS * 2,
    });
    // Within the queue's cap on any wait.
    expect(classifyError(busy, 1_000, 5).hostBackoffMs).toBe(1_000);
  });

  it("keeps the host's own Retry-After, and rests no host for another page's trouble", () => {
    const later = new RetryableError('HTTP 503', 'http_503', { retryAfterSecs: 120 });
    expect(classifyError(later, cap, 1).hostBackoffMs).toBe(120_000);
    expect(classifyError(new RetryableError('HTTP 429', 'http_429', { retryAfterSecs: 1 }), cap, 3).hostBackoffMs).toBe(
      1_000,
    );
    expect(classifyError(new RetryableError('HTTP 500', 'http_500'), cap, 1).hostBackoffMs).toBe(0);
    expect(classifyError(new RetryableError('timed out', 'total_timeout'), cap, 2).hostBackoffMs).toBe(0);
    expect(classifyError(new NonRetryableError('gone', 'http_404'), cap, 1)).toEqual({
      retryable: false,
      code: 'http_404',
      hostBackoffMs: 0,
    });
  });
});
