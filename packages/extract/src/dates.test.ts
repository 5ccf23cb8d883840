import { describe, expect, it } from '@jest/globals';
import { dateFromUrl, defaultOffsetMinutes, findTextDate, parsePageDate } from './dates.js';

describe('parsePageDate', () => {
  it('converts zoned values to UTC', () => {
    expect(parsePageDate('2021-11-01T10:52:50+0100')).toBe('2021-11-01T09:52:50Z');
    expect(parsePageDate('2021-11-01T10:52:50.123Z')).toBe('2021-11-01T10:52:50Z');
    // Z with a redundant zero offset, as some sites' microdata writes it.
    expect(parsePageDate('2018-06-08T11:11:36.763Z+00:00')).toBe('2018-06-08T11:11:36Z');
    expect(parsePageDate('Mon, 01 Nov 2021 10:52:50 GMT')).toBe('2021-11-01T10:52:50Z');
  });

  it('reads zoneless values at the given offset, never in the server zone', () => {
    expect(parsePageDate('2024-05-17 08:30')).toBe('2024-05-17T08:30:00Z');
    expect(parsePageDate('2024-05-17 08:30', 8 * 60)).toBe('2024-05-17T00:30:00Z');
    expect(parsePageDate('2024-05-17', 8 * 60)).toBe('2024-05-16T16:00:00Z');
  });

  it('rejects impossible and implausible dates', () => {
    expect(parsePageDate('2024-02-31')).toBeNull();
    expect(parsePageDate('1970-01-01T00:00:00Z')).toBeNull();
    expect(parsePageDate('yesterday')).toBeNull();
    expect(parsePageDate('')).toBeNull();
  });
});

describe('dateFromUrl', () => {
  it('finds /yyyy/mm/dd/, /yyyy-mm-dd/ and /yyyymmdd/ paths', () => {
    expect(dateFromUrl('https://a.com/2024/05/17/story')).toBe('2024-05-17T00:00:00Z');
    expect(dateFromUrl('https://a.com/news/2024-05-17/story.html')).toBe('2024-05-17T00:00:00Z');
    expect(dateFromUrl('https://a.com/news/20240517/123.html', 480)).toBe('2024-05-16T16:00:00Z');
    expect(dateFromUrl('https://blog.example.fr/articles/2025-12-15+Rust+GCC+backend')).toBe('2025-12-15T00:00:00Z');
    expect(dateFromUrl('https://a.com/posts/2024-05-17%20notes')).toBe('2024-05-17T00:00:00Z');
    expect(dateFromUrl('https://www.example.org/blog/2023/october/03/wine-types/')).toBe('2023-10-03T00:00:00Z');
    expect(dateFromUrl('https://www.example.org/archive/2023/Sep/9')).toBe('2023-09-09T00:00:00Z');
  });

  it('ignores numbers that are not dates', () => {
    expect(dateFromUrl('https://a.com/item/20241399')).toBeNull();
    expect(dateFromUrl('https://a.com/p/123456789')).toBeNull();
  });
});

describe('findTextDate', () => {
  const cst = defaultOffsetMinutes('zh');

  it('reads Chinese dates with times as UTC+8', () => {
    expect(findTextDate('新华社 2024年5月17日 08:30 电', cst, true)).toBe('2024-05-17T00:30:00Z');
    expect(findTextDate('2024年05月17日下午3时05分', cst, true)).toBe('2024-05-17T07:05:00Z');
  });

  it('reads numeric datelines only when allowed, the earliest first', () => {
    expect(findTextDate('2005-04-05 06:40更新 来源 2001年1月1日', cst, true)).toBe('2005-04-04T22:40:00Z');
    expect(findTextDate('see 2005-04-05 06:40', 0, false)).toBeNull();
    expect(findTextDate('发布日期： 9/17/2004 5:54:13 PM', cst, true)).toBe('2004-09-17T09:54:13Z');
  });

  it('skips the dates of other events: as-of dates, a blog created, a user registered', () => {
    expect(
      findTextDate('建立于:2004年10月6日\n\n[湖湘文化]陈天华\nggjjzhzz 发表于 2005-9-15 11:46:00', cst, true),
    ).toBe('2005-09-15T03:46:00Z');
    expect(findTextDate('精选文章一(截止2006年8月10日)\n\n湘菜粤菜 兵分两路 (图) 2005-06-14 03:25:55', cst, true)).toBe(
      '2005-06-13T19:25:55Z',
    );
    expect(findTextDate('注册时间：2004-5-1\n发表于 2005-06-14', cst, true)).toBe('2005-06-13T16:00:00Z');
    expect(findTextDate('截至2021年12月', cst, true)).toBeNull();
    expect(findTextDate('註冊時間：2004-5-1\n發表於 2005-06-14', cst, true)).toBe('2005-06-13T16:00:00Z');
    expect(findTextDate('来源：新华社 2024年5月17日', cst, true)).toBe('2024-05-16T16:00:00Z');
  });

  it("skips a cited book's edition or printing date", () => {
    expect(findTextDate('见《色彩集》，第104页，三联书店2000年4月第1版。', cst, true)).toBeNull();
    expect(findTextDate('群言出版社 2000年5月 第一版', cst, true)).toBeNull();
    expect(findTextDate('人民出版社1998年3月出版', cst, true)).toBeNull();
    expect(findTextDate('人民出版社1998年3月出版\n发表于 2005-06-14', cst, true)).toBe('2005-06-13T16:00:00Z');
    // The closing issue of a magazine stays a date.
    expect(findTextDate('——《北京之春》1998年3月号', cst, true)).toBe('1998-02-28T16:00:00Z');
  });

  it('falls back to month precision', () => {
    expect(findTextDate('胡平 1998年3月', cst, true)).toBe('1998-02-28T16:00:00Z');
    expect(findTextDate('no date here', cst, true)).toBeNull();
  });
});
