import { describe, expect, it } from '@jest/globals';
import { parseDate, parseDurationMs, parseTimestamp } from './time.js';

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

describe('parseTimestamp', () => {
  const now = new Date('2026-11-28T12:00:00Z');

  it('reads ISO 8601, RFC 2822 and epoch milliseconds', () => {
    expect(parseTimestamp('2024-05-17T08:30:00+02:00', now)).toBe('2024-05-17T06:30:00Z');
    expect(parseTimestamp('Fri, 17 May 2024 08:30:00 GMT', now)).toBe('2024-05-17T08:30:00Z');
    expect(parseTimestamp(1_715_934_600_000, now)).toBe('2024-05-17T08:30:00Z');
  });

  it('refuses what a page cannot mean: no such day, before 1990, more than a day ahead', () => {
    expect(parseTimestamp('2020-02-30', now)).toBeNull();
    expect(parseTimestamp('2021-13-01', now)).toBeNull();
    expect(parseTimestamp('1970-01-01T00:00:00Z', now)).toBeNull();
    expect(parseTimestamp('2026-12-01', now)).toBeNull();
    expect(parseTimestamp('soon', now)).toBeNull();
  });
});

describe('parseDate', () => {
  it('takes any real date a user gives, old or ahead', () => {
    expect(parseDate('1969-07-20T20:17:00Z')).toBe('1969-07-20T20:17:00Z');
    expect(parseDate('1985-06-01')).toBe('1985-06-01T00:00:00Z');
    expect(parseDate('2030-01-01T00:00:00Z')).toBe('2030-01-01T00:00:00Z');
    expect(parseDate('2024-02-29')).toBe('2024-02-29T00:00:00Z');
  });

  it('reads epoch numbers as seconds, and as milliseconds once they could not be seconds', () => {
    expect(parseDate(1_700_000_000)).toBe('2023-11-14T22:13:20Z');
    expect(parseDate(1_700_000_000_000)).toBe('2023-11-14T22:13:20Z');
    expect(parseDate(-14_182_940)).toBe('1969-07-20T20:17:40Z');
  });

  it('refuses days that do not exist and what is no date', () => {
    expect(parseDate('2020-02-30')).toBeNull();
    expect(parseDate('2023-02-29')).toBeNull();
    expect(parseDate('2021-00-10')).toBeNull();
    expect(parseDate('next tuesday')).toBeNull();
    expect(parseDate('')).toBeNull();
    expect(parseDate(Number.NaN)).toBeNull();
    expect(parseDate(1e20)).toBeNull();
  });
});
