import { afterEach, describe, expect, it } from '@jest/globals';
import { isServerRequired, verdictFor } from './servers.js';

const saved = process.env.QUARRY_REQUIRE_SERVERS;
afterEach(() => {
  if (saved === undefined) delete process.env.QUARRY_REQUIRE_SERVERS;
  else process.env.QUARRY_REQUIRE_SERVERS = saved;
});

describe('the skip-or-require rule', () => {
  it('reads QUARRY_REQUIRE_SERVERS as a comma list, ignoring spaces and case', () => {
    process.env.QUARRY_REQUIRE_SERVERS = ' Redis , chromium';
    expect(isServerRequired('redis')).toBe(true);
    expect(isServerRequired('chromium')).toBe(true);
    expect(isServerRequired('meilisearch')).toBe(false);
    expect(isServerRequired('redi')).toBe(false);
    delete process.env.QUARRY_REQUIRE_SERVERS;
    expect(isServerRequired('redis')).toBe(false);
  });

  it('runs when available, fails when missing and required, and skips otherwise', () => {
    process.env.QUARRY_REQUIRE_SERVERS = 'meilisearch';
    expect(verdictFor({ name: 'meilisearch', available: true, missing: '' })).toBe('run');
    expect(verdictFor({ name: 'meilisearch', available: false, missing: '' })).toBe('fail');
    expect(verdictFor({ name: 'redis', available: false, missing: '' })).toBe('skip');
  });
});
