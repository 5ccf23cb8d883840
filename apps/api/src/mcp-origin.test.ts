import { describe, expect, it } from '@jest/globals';
import { originAllowed } from './mcp-origin.js';

describe('originAllowed', () => {
  it.each([undefined, '', 'http://localhost:3000', 'http://127.0.0.1', 'https://127.4.5.6:8443', 'http://[::1]:8080'])(
    'allows %s',
    (origin) => {
      expect(originAllowed(origin, '0.0.0.0')).toBe(true);
    },
  );

  it.each(['http://attacker.example', 'null', 'file://', 'not a url', 'http://localhost.attacker.example'])(
    'refuses %s',
    (origin) => {
      expect(originAllowed(origin, '0.0.0.0')).toBe(false);
    },
  );

  it('allows the configured listen host, never a wildcard address', () => {
    expect(originAllowed('https://search.internal:8080', 'search.internal')).toBe(true);
    expect(originAllowed('http://0.0.0.0:8080', '0.0.0.0')).toBe(false);
    expect(originAllowed('http://[::]:8080', '::')).toBe(false);
  });
});
