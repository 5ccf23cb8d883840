import { afterAll, describe, expect, it } from '@jest/globals';
import { NonRetryableError } from '@quarry/core';
import { FETCH_ERROR_CODES } from './errors.js';
import { createFetcher } from './fetcher.js';

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<NonRetryableError> {
  try {
    await promise;
  } catch (error) {
    return error as NonRetryableError;
  }
  throw new Error('expected a rejection');
}

describe('createFetcher without allowHosts', () => {
  // Nothing here reaches a socket: every request is refused before connecting.
  const fetcher = createFetcher({ connectTimeoutMs: 500, totalTimeoutMs: 2000 });
  afterAll(() => fetcher.close());

  it.each([
    'http://localhost/',
    'http://LOCALHOST:8080/x',
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://10.0.0.1/',
    'http://192.168.1.1/admin',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[fd00::1]/',
  ])('refuses %s as blocked_address', async (url) => {
    const error = await rejection(fetcher.fetch(url));
    expect(error).toBeInstanceOf(NonRetryableError);
    expect(error.code).toBe('blocked_address');
  });

  it.each([
    ['ftp://example.com/file', 'unsupported_scheme'],
    ['file:///etc/passwd', 'unsupported_scheme'],
    ['javascript:alert(1)', 'unsupported_scheme'],
    ['not a url', 'bad_url'],
    ['http://example.com:25/', 'bad_url'],
    [`http://example.com/${'a'.repeat(2100)}`, 'url_too_long'],
  ])('refuses %s as %s', async (url, code) => {
    const error = await rejection(fetcher.fetch(url));
    expect(error).toBeInstanceOf(NonRetryableError);
    expect(error.code).toBe(code);
    expect(FETCH_ERROR_CODES).toContain(code);
  });

  it('exposes its user agent with a product token', () => {
    expect(fetcher.userAgent).toMatch(/^QuarryBot\/\S+ \(\+https?:\/\//);
  });
});
