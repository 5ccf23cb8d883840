import { describe, expect, it } from '@jest/globals';
import { safeNext } from './guard.js';

describe('safeNext', () => {
  it('keeps paths inside the admin area', () => {
    expect(safeNext('/admin', '/admin/queues')).toBe('/admin/queues');
    expect(safeNext('/admin', '/admin/queues/queue/crawl?status=failed')).toBe(
      '/admin/queues/queue/crawl?status=failed',
    );
    expect(safeNext('/admin', '/admin')).toBe('/admin');
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
    ]) {
      expect(safeNext('/admin', next)).toBe('/admin/');
    }
  });
});
