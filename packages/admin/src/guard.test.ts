import { describe, expect, it } from '@jest/globals';
import { safeNext } from './guard.js';

describe('safeNext', () => {
  it('keeps paths inside the admin area', () => {
    expect(safeNext('/admin', '/admin/queues')).toBe('/admin/queues');
    expect(safeNext('/admin', '/admin/queues/queue/crawl?status=failed')).toBe(
      '/admin/queues/queue/crawl?status=failed',
    );
    expect(safeNext('/admin', '/admin')).toBe('/admin');
    // Dots that are no whole segment are names, and a dot segment in the query is no path.
    expect(safeNext('/admin', '/admin/queues/...x/.hidden')).toBe('/admin/queues/...x/.hidden');
    expect(safeNext('/admin', '/admin/hosts?q=../x')).toBe('/admin/hosts?q=../x');
  });

  it('sends everything else to the dashboard', () => {
    for (const next of [
      '//evil.example/admin/',
      'https://evil.example/',
      '/administrator',
      '/',
      '/admin/\\evil',
      '/admin//evil.example',
      'javascript:alert(1)',
      42,
      undefined,
      `/admin/${'a'.repeat(600)}`,
      // Dot segments, which a browser resolves out of the admin area, as the URL parser reads them.
      '/admin/../../api/v1/search?q=x',
      '/admin/..',
      '/admin/./../api',
      '/admin/%2e%2e/%2E%2e/api/v1/search',
      '/admin/.%2e/api',
      '/admin/%2e./api',
      '/admin/queues/%2e/../../x',
      '/admin/..\\api',
    ]) {
      expect(safeNext('/admin', next)).toBe('/admin/');
    }
  });
});
