import { describe, expect, it } from '@jest/globals';
import { parseRetryAfter } from './retry-after.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T08:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date relative to now', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 08:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Sunday, 22-Nov-26 08:00:10 GMT', now)).toBe(10_000);
  });

  it('gives 0 for a date in the past', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 08:00:00 GMT', now)).toBe(0);
  });

  it('returns null for missing or malformed values', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter('1.5', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('2026-11-22', now)).toBeNull();
  });
});
