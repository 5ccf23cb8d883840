import { describe, expect, it } from '@jest/globals';
import { parseDurationMs } from './time.js';

describe('parseDurationMs', () => {
  it('reads whole numbers with a unit', () => {
    expect(parseDurationMs('30s')).toBe(30_000);
    expect(parseDurationMs('15m')).toBe(900_000);
    expect(parseDurationMs('12h')).toBe(43_200_000);
    expect(parseDurationMs(' 7D ')).toBe(604_800_000);
    expect(parseDurationMs('2w')).toBe(1_209_600_000);
    expect(parseDurationMs('0')).toBe(0);
    expect(parseDurationMs('0d')).toBe(0);
  });

  it('refuses anything else', () => {
    for (const bad of ['', '7', '-1d', '1.5h', 'd', '7 days', '1y', '10000000000s', 'off']) {
      expect(parseDurationMs(bad)).toBeNull();
    }
  });
});
