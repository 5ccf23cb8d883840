/**
 * Chinese news pages (../shared/testdata/chinese-pages): GBK/GB2312 bytes decoded here by their
 * declared charset (as the fetcher would), extracted, and scored against the hand-made ground
 * truth in cleaned/, author/ and date/. Floors are the measured figures minus a margin.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { extractHtml } from './extract-html.js';
import { tokenF1 } from './quality.js';

const DIR = join(import.meta.dirname, '../../../../shared/testdata/chinese-pages');
const present = existsSync(DIR);
if (!present) console.warn(`Chinese page tests skipped: ${DIR} is absent`);
const d = present ? describe : describe.skip;

/** The dataset wraps each page in `<text encoding="gb2312">`; pages also declare `<meta charset>`. */
function decode(bytes: Buffer): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  const label = (/encoding="([^"]+)"/i.exec(head) ?? /charset=["']?([\w-]+)/i.exec(head))?.[1]?.toLowerCase();
  if (label && label !== 'unset') {
    try {
      return new TextDecoder(label === 'utf8' ? 'utf-8' : label).decode(bytes);
    } catch {
      // Unknown label: sniff below.
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('gbk').decode(bytes);
  }
}

/** `2005-03-21T03:21:00Z` → the numbers of its China Standard Time wall clock. */
function cstParts(iso: string): number[] {
  const t = new Date(Date.parse(iso) + 8 * 3_600_000);
  return [
    t.getUTCFullYear(),
    t.getUTCMonth() + 1,
    t.getUTCDate(),
    t.getUTCHours(),
    t.getUTCMinutes(),
    t.getUTCSeconds(),
  ];
}

/** Ground truth is CST wall-clock time at varying precision (`2018`, `1998-3`, `2005-5-7 21:23:57`). */
function sameDate(got: string | null, want: string): boolean {
  if (!got) return false;
  const parts = (want.match(/\d+/g) ?? []).map(Number);
  const mine = cstParts(got);
  return parts.every((n, i) => mine[i] === n);
}

const names = (s: string | null): string =>
  (s ?? '')
    .split(/[\s、,，]+/)
    .filter(Boolean)
    .sort()
    .join(' ');

d('Chinese news pages', () => {
  const stems = present ? readdirSync(join(DIR, 'original')).map((f) => f.replace(/\.html$/, '')) : [];
  const results = stems.map((stem) => {
    const html = decode(readFileSync(join(DIR, 'original', `${stem}.html`)));
    const url = /<text id="([^"]+)"/.exec(html)?.[1] ?? 'http://example.cn/page.html';
    const read = (sub: string): string => readFileSync(join(DIR, sub, `${stem}.txt`), 'utf8').trim();
    return { page: extractHtml(html, { url }), cleaned: read('cleaned'), author: read('author'), date: read('date') };
  });

  it('body text overlaps the cleaned text (measured mean F1 0.90; ≥ 0.8 on 29 of 35 pages)', () => {
    const f1 = results.map((r) => tokenF1(r.page.body_text, r.cleaned));
    expect(f1.length).toBeGreaterThanOrEqual(30);
    expect(f1.reduce((a, b) => a + b, 0) / f1.length).toBeGreaterThanOrEqual(0.87);
    expect(f1.filter((x) => x >= 0.8).length / f1.length).toBeGreaterThanOrEqual(0.75);
  });

  it("leaves out a table-built blog's sidebar column (its archive, its profile) and keeps its posts", () => {
    const blog = results[stems.indexOf('59562291-5657-476d-9902-ad76b53ef82b')];
    expect(blog?.page.body_text).toContain('湘菜粤菜兵分两路');
    expect(blog?.page.body_text).not.toContain('归档备份');
    expect(blog?.page.body_text).not.toContain('12/01/2004 - 01/01/2005');
  });

  it("leaves out a news page's box of related headlines that Readability keeps as a data table", () => {
    const news = results[stems.indexOf('2bac7fb2-efbd-4444-99c8-51c72acf5c7d')];
    expect(news?.page.body_text).toContain('妻子变成替代母亲');
    expect(news?.page.body_text).not.toContain('内蒙一弱智少女惨遭强奸');
  });

  it('detects every page as Chinese', () => {
    expect(results.filter((r) => r.page.lang === 'zh').length).toBe(results.length);
  });

  it('finds the publication date (measured 24 of 31 with a known date)', () => {
    const known = results.filter((r) => /\d{4}/.test(r.date));
    const hits = known.filter((r) => sameDate(r.page.published_at, r.date)).length;
    expect(hits / known.length).toBeGreaterThanOrEqual(0.7);
  });

  it('finds the author (measured 20 of 27 with a known author)', () => {
    const known = results.filter((r) => r.author !== '' && r.author !== 'UNKNOWN');
    const hits = known.filter((r) => names(r.page.author) === names(r.author)).length;
    expect(hits / known.length).toBeGreaterThanOrEqual(0.62);
  });
});
