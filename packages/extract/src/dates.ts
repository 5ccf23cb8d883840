import { parseTimestamp } from '@quarry/core';

/**
 * The UTC offset (minutes) assumed for a date a page gives without a zone. Chinese pages are
 * almost always written in China Standard Time (UTC+8, no daylight saving; Taiwan, Hong Kong and
 * Singapore use the same offset); Japanese and Korean pages use UTC+9. Everything else: UTC.
 */
export function defaultOffsetMinutes(lang: string): number {
  if (lang === 'zh') return 8 * 60;
  if (lang === 'ja' || lang === 'ko') return 9 * 60;
  return 0;
}

const ISO_LOCAL =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?\s*(Z(?:[+-]00:?00)?|UTC|GMT|[+-]\d{2}:?\d{2})?$/i;

/**
 * Parses a date a page states (meta tag, JSON-LD, `<time datetime>`) to ISO UTC, or null.
 * ISO-like values without a zone are read in `offsetMinutes` (never in the server's local zone,
 * which would make the result depend on where Quarry runs); other forms (RFC 2822, epoch) go to
 * core's parseTimestamp.
 */
export function parsePageDate(value: string | null | undefined, offsetMinutes = 0): string | null {
  if (!value) return null;
  const text = value.trim().slice(0, 100);
  const m = ISO_LOCAL.exec(text);
  if (m) {
    const [, y, mo, d, h, mi, s, zone] = m;
    const offset = zone ? zoneOffsetMinutes(zone) : offsetMinutes;
    return fromParts(Number(y), Number(mo), Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0), offset);
  }
  if (/^\d{10,13}$/.test(text)) return parseTimestamp(Number(text.length === 10 ? `${text}000` : text));
  // Without an explicit zone, Date would read the string in the server's local zone.
  if (!/(Z|GMT|UTC|[+-]\d{2}:?\d{2})\s*$/i.test(text) && !/\b(GMT|UTC)\b/i.test(text)) {
    return parseTimestamp(`${text} GMT`) ?? parseTimestamp(text);
  }
  return parseTimestamp(text);
}

/**
 * The earliest of some ISO UTC dates (nulls skipped), or null: of the dates a page gives its
 * publication (`published-time` the page's build, `published-date` the article's), the first is
 * when it was published.
 */
export function earliestDate(dates: readonly (string | null)[]): string | null {
  let first: string | null = null;
  for (const date of dates) if (date !== null && (first === null || date < first)) first = date;
  return first;
}

function zoneOffsetMinutes(zone: string): number {
  if (/^(z|utc|gmt)$/i.test(zone)) return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.replace(/[^0-9]/g, '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
}

/** Builds the ISO UTC string for a wall-clock time at a fixed UTC offset, or null if invalid. */
function fromParts(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  offsetMinutes: number,
): string | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s) - offsetMinutes * 60_000;
  const date = new Date(ms);
  // Date.UTC rolls 31 February over into March; such a date was never on the page.
  if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return null;
  return parseTimestamp(date);
}

/** English month names and their abbreviations, as a regular expression's alternatives. */
export const MONTHS =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const MONTH_INDEX = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** The number (1–12) of an English month's name or abbreviation; 0 for anything else. */
export function monthOf(name: string): number {
  return MONTH_INDEX.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

/** Where a date in a URL's path ends: a separator, a `+` or an encoded space, or the path's end. */
const URL_DATE_END = '(?=[/_.+-]|%20|$)';
const URL_NUMERIC_DATE = new RegExp(`/((?:19|20)\\d{2})[/-](\\d{1,2})[/-](\\d{1,2})${URL_DATE_END}`);
const URL_COMPACT_DATE = new RegExp(`(?:^|/)((?:19|20)\\d{2})(\\d{2})(\\d{2})${URL_DATE_END}`);
/** `/2023/october/03/`: the month by its name. */
const URL_MONTH_NAME_DATE = new RegExp(`/((?:19|20)\\d{2})/(${MONTHS})/(\\d{1,2})${URL_DATE_END}`, 'i');

/**
 * A publication date encoded in a URL path: `/2024/05/17/`, `/2024-05-17/`, `/20240517/`,
 * `/20240517-slug` or `/2023/october/03/`. Returns midnight of that day at `offsetMinutes`, or null.
 */
export function dateFromUrl(url: string, offsetMinutes = 0): string | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const named = URL_MONTH_NAME_DATE.exec(path);
  if (named?.[1] && named[2] && named[3]) {
    return fromParts(Number(named[1]), monthOf(named[2]), Number(named[3]), 0, 0, 0, offsetMinutes);
  }
  const m = URL_NUMERIC_DATE.exec(path) ?? URL_COMPACT_DATE.exec(path);
  if (!m) return null;
  return fromParts(Number(m[1]), Number(m[2]), Number(m[3]), 0, 0, 0, offsetMinutes);
}

/** `2024年5月17日 08:30`, `2024年05月17日08时30分`, with an optional 上午/下午. */
const CJK_DATE =
  /((?:19|20)\d{2})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日\s*(?:(?:星期|周)[一二三四五六日天]\s*)?(?:(上午|下午)?\s*(\d{1,2})\s*[:：时點点]\s*(\d{1,2})(?:\s*[:：分]\s*(\d{1,2}))?)?/u;
/** `2024-05-17 08:30:15`, `2024/5/17`, `2024.05.17 08:30` as Chinese pages print them. */
const NUMERIC_DATE = /((?:19|20)\d{2})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)(?:\s*(\d{1,2}):(\d{2})(?::(\d{2}))?)?/u;
/** `9/17/2004 5:54:13 AM`: the US form that ASP-era Chinese sites print in their datelines. */
const US_DATE_TIME = /(?<!\d)(\d{1,2})\/(\d{1,2})\/((?:19|20)\d{2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AP]M)/i;
/** `1998年3月`: month precision, used only when no full date is near the title. */
const CJK_MONTH = /((?:19|20)\d{2})\s*年\s*(\d{1,2})\s*月(?!\s*\d)/u;

/**
 * Words right before a date that make it the date of something else than the page's publication:
 * `截止2006年8月10日` (as of), `建立于:2004年10月6日` (a blog's creation), a forum user card's
 * `注册时间：2004-5-1` or `最后登录`, a birthday, an expiry.
 */
const OTHER_EVENT_BEFORE =
  /(?:截止|截至|建立|成立|创建|創建|注册|註冊|登录|登錄|登陆|登陸|加入|出生|生日|生于|生於|到期|有效期)(?:时间|時間|日期|于|於|至)?[\s:：]*$/u;

/**
 * Words right after a date that make it a book's: a citation's edition or printing (`三联书店2000年4月
 * 第1版`, `2003年5月出版`, `1998年第2次印刷`).
 */
const CITATION_AFTER = /^\s*(?:第\s*[\d一二三四五六七八九十]+\s*(?:版|次印刷)|出版|初版|再版|印刷)/u;

/**
 * The first match of `pattern` in `text` that gives a date (see `read`) not introduced by
 * {@link OTHER_EVENT_BEFORE} nor followed by {@link CITATION_AFTER}.
 */
function firstDate(
  pattern: RegExp,
  text: string,
  read: (m: RegExpExecArray) => string | null,
): { index: number; iso: string } | null {
  const all = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`);
  for (let m = all.exec(text); m !== null; m = all.exec(text)) {
    if (OTHER_EVENT_BEFORE.test(text.slice(Math.max(0, m.index - 12), m.index))) continue;
    if (CITATION_AFTER.test(text.slice(m.index + m[0].length, m.index + m[0].length + 12))) continue;
    const iso = read(m);
    if (iso !== null) return { index: m.index, iso };
  }
  return null;
}

/**
 * The first date written in a text, in the formats Chinese and Japanese pages use
 * (`2024年5月17日 08:30`, and with `withNumeric` also `2024-05-17 08:30` and
 * `9/17/2004 5:54:13 AM`), read at `offsetMinutes` (see {@link defaultOffsetMinutes}). The
 * numeric forms are only safe on CJK pages; elsewhere a date in the text is as likely a reference
 * as a dateline. Dates of other events (`截止…`, `注册时间：…`, see {@link OTHER_EVENT_BEFORE}) are
 * skipped. When no full date is found, `1998年3月` gives the first of that month.
 */
export function findTextDate(text: string, offsetMinutes: number, withNumeric: boolean): string | null {
  const found: Array<{ index: number; iso: string } | null> = [
    firstDate(CJK_DATE, text, ([, y, mo, d, half, h, mi, s]) => {
      let hour = Number(h ?? 0);
      if (half === '下午' && hour < 12) hour += 12;
      return fromParts(Number(y), Number(mo), Number(d), hour, Number(mi ?? 0), Number(s ?? 0), offsetMinutes);
    }),
  ];
  if (withNumeric) {
    found.push(
      firstDate(NUMERIC_DATE, text, ([, y, mo, d, h, mi, s]) =>
        fromParts(Number(y), Number(mo), Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0), offsetMinutes),
      ),
      firstDate(US_DATE_TIME, text, ([, mo, d, y, h, mi, s, half]) => {
        const hour = (Number(h) % 12) + (half?.toUpperCase() === 'PM' ? 12 : 0);
        return fromParts(Number(y), Number(mo), Number(d), hour, Number(mi), Number(s ?? 0), offsetMinutes);
      }),
    );
  }
  const best = found.filter((f) => f !== null).sort((a, b) => a.index - b.index)[0];
  if (best) return best.iso;
  return (
    firstDate(CJK_MONTH, text, ([, y, mo]) => fromParts(Number(y), Number(mo), 1, 0, 0, 0, offsetMinutes))?.iso ?? null
  );
}
