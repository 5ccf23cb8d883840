import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '@quarry/core';
import { displayPrefix, generateKey, hashKey, isWellFormedKey, parseRateLimit } from './key-format.js';

describe('parseRateLimit', () => {
  it('accepts N/min, N/minute and plain N', () => {
    expect(parseRateLimit('100/min')).toBe(100);
    expect(parseRateLimit('250/minute')).toBe(250);
    expect(parseRateLimit(' 7 / MIN ')).toBe(7);
    expect(parseRateLimit('42')).toBe(42);
  });

  it('rejects other units, zero, fractions and junk with a clear error', () => {
    for (const bad of [
      '',
      '0',
      '0/min',
      '-5/min',
      '1.5/min',
      '100/hour',
      '100/s',
      'ten/min',
      '100/min/min',
      '99999999999',
    ]) {
      expect(() => parseRateLimit(bad)).toThrow(ValidationError);
    }
    expect(() => parseRateLimit('100/hour')).toThrow(/N\/min/);
    // A number too large is told the bounds, not that it is no rate limit.
    for (const large of ['99999999999/min', '9'.repeat(400)]) {
      expect(() => parseRateLimit(large)).toThrow('limit must be an integer from 1 to 1000000 per minute');
    }
  });
});

describe('key format', () => {
  it('makes URL-safe keys with 256 random bits and a stable hash', () => {
    const key = generateKey();
    expect(isWellFormedKey(key)).toBe(true);
    expect(Buffer.from(key.slice(3), 'base64url')).toHaveLength(32);
    expect(encodeURIComponent(key)).toBe(key);
    expect(hashKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(key)).toBe(hashKey(key));
    expect(hashKey(key)).not.toBe(hashKey(generateKey()));
    expect(key.startsWith(displayPrefix(key))).toBe(true);
  });
});
