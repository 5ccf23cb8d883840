import { describe, expect, it } from '@jest/globals';
import { robotsTagOf } from './robots-tag.js';

describe('robotsTagOf', () => {
  const agents = ['quarrybot', 'googlebot'];
  const now = Date.parse('2026-11-26T12:00:00Z');
  const read = (value: string | undefined) => robotsTagOf(value, agents, now);

  it('reads rules for every crawler, in any case', () => {
    expect(read('noindex')).toEqual({ noindex: true, nofollow: false });
    expect(read('NoFollow')).toEqual({ noindex: false, nofollow: true });
    expect(read('none')).toEqual({ noindex: true, nofollow: true });
    expect(read('noarchive, nosnippet, max-snippet: 50, noindex')).toEqual({ noindex: true, nofollow: false });
    expect(read('all')).toEqual({ noindex: false, nofollow: false });
    expect(read(undefined)).toEqual({ noindex: false, nofollow: false });
    expect(read('')).toEqual({ noindex: false, nofollow: false });
  });

  it('applies rules after a bot name to that bot only', () => {
    expect(read('otherbot: noindex, nofollow')).toEqual({ noindex: false, nofollow: false });
    expect(read('QuarryBot: noindex')).toEqual({ noindex: true, nofollow: false });
    expect(read('googlebot: nofollow, otherbot: noindex')).toEqual({ noindex: false, nofollow: true });
    expect(read('noindex, otherbot: nofollow')).toEqual({ noindex: true, nofollow: false });
    expect(robotsTagOf('googlebot: noindex', ['quarrybot'], now)).toEqual({ noindex: false, nofollow: false });
  });

  it('reads each header alone: a bot named in one does not take the next', () => {
    expect(read('otherbot: nofollow\nnoindex')).toEqual({ noindex: true, nofollow: false });
    expect(read('otherbot: noindex\nquarrybot: nofollow')).toEqual({ noindex: false, nofollow: true });
    expect(read('otherbot: noindex, nofollow\nall')).toEqual({ noindex: false, nofollow: false });
  });

  it('is noindex once an unavailable_after date has passed', () => {
    expect(read('unavailable_after: 25 Jun 2010 15:00:00 PST')).toEqual({ noindex: true, nofollow: false });
    expect(read('unavailable_after: 2030-01-01T00:00:00Z')).toEqual({ noindex: false, nofollow: false });
    expect(read('googlebot: unavailable_after: 2026-11-25')).toEqual({ noindex: true, nofollow: false });
    expect(read('otherbot: unavailable_after: 2026-11-25')).toEqual({ noindex: false, nofollow: false });
    // An RFC 850 date, with the comma after its weekday, then another rule.
    expect(read('unavailable_after: Friday, 25-Jun-10 15:00:00 PST, nofollow')).toEqual({
      noindex: true,
      nofollow: true,
    });
    expect(read('unavailable_after: Friday, 25-Jun-30 15:00:00 PST')).toEqual({ noindex: false, nofollow: false });
    expect(read('unavailable_after: soon')).toEqual({ noindex: false, nofollow: false });
  });
});
