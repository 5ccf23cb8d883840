import { MONTHS, monthOf, parsePageDate } from './dates.js';
import { localDatePattern } from './local-months.js';

/** `December 19, 2025`, `Dec. 19th, 2025`, `Sep 4 2025`. */
const MONTH_DAY_YEAR = new RegExp(`\\b(${MONTHS})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+((?:19|20)\\d{2})\\b`, 'gi');
/** `19 December 2025`, `18th Dec 2025`, `8 Oct. 2022`, `4 of May, 2021`. */
const DAY_MONTH_YEAR = new RegExp(
  `\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTHS})\\.?,?\\s+((?:19|20)\\d{2})\\b`,
  'gi',
);
/** `2025-12-19` (ISO); not a version named by its day (Stripe's API version `2026-02-25.clover`). */
const ISO_DAY = /\b((?:19|20)\d{2})-(\d{2})-(\d{2})\b(?!\.[A-Za-z])/g;
/**
 * `19.12.2025`: day, month and year with dots, as Europe writes them (American dates use slashes,
 * and are not read).
 */
const DOTTED_DAY = /(?<![\d.])(\d{1,2})\.(\d{1,2})\.((?:19|20)\d{2})(?![\d.]\d)/g;

/**
 * `2/24/2026`, `24/2/2026`: slashes with the day or the month first, read only when one of the two
 * cannot be a month (past 12), which tells them apart; not either end of a range of days
 * (`1/27/2026 - 3/24/2026`, a course's or an offer's dates).
 */
const SLASHED_DAY = /(?<![\d/.])(?<![-–—]\s*)(\d{1,2})\/(\d{1,2})\/((?:19|20)\d{2})(?![\d/])(?!\s*[-–—]\s*\d)/g;

/** `2025/12/19`, `2025.12.19`: the year first, as East Asian pages write it; never ambiguous. */
const YEAR_FIRST_DAY = /(?<![\d./])((?:19|20)\d{2})[./](\d{1,2})[./](\d{1,2})(?![\d/]|\.\d)/g;

/**
 * The first date written near a page's headline in the forms English pages print a dateline
 * (`December 19, 2025`, `19 Dec 2025`, `2025-12-19`, `19.12.2025`, `2025/12/19`), or the page's
 * language writes one with its month's name (`19. Dezember 2025`, `19 de diciembre de 2025`,
 * `19 декабря 2025 г.`, `2025. december 19.`, `2025년 12월 19일`; each of `langs`: a page's
 * text and its site's chrome may speak two), as midnight at
 * `offsetMinutes`; null when there is none. Dates with slashes and the day or month first are
 * read only when one number is past 12 (`2/24/2026`); `12/01/2025` is ambiguous and not read.
 */
export function findDatelineDate(
  text: string,
  offsetMinutes: number,
  langs: string | readonly string[] = 'en',
): string | null {
  const found: Array<{ index: number; y: string; mo: number; d: string }> = [];
  for (const lang of typeof langs === 'string' ? [langs] : new Set(langs)) {
    found.push(...(localDatePattern(lang)?.findAll(text) ?? []));
  }
  for (const [, month, d, y, at] of matches(MONTH_DAY_YEAR, text)) found.push({ index: at, y, mo: monthOf(month), d });
  for (const [, d, month, y, at] of matches(DAY_MONTH_YEAR, text)) found.push({ index: at, y, mo: monthOf(month), d });
  for (const [, d, mo, y, at] of matches(DOTTED_DAY, text)) {
    if (Number(mo) <= 12) found.push({ index: at, y, mo: Number(mo), d });
  }
  for (const [, first, second, y, at] of matches(SLASHED_DAY, text)) {
    const [a, b] = [Number(first), Number(second)];
    if (a <= 12 && b > 12) found.push({ index: at, y, mo: a, d: second });
    else if (a > 12 && b <= 12) found.push({ index: at, y, mo: b, d: first });
  }
  for (const pattern of [ISO_DAY, YEAR_FIRST_DAY]) {
    for (const [, y, mo, d, at] of matches(pattern, text)) found.push({ index: at, y, mo: Number(mo), d });
  }
  // A line whose first date is another event's is skipped whole (`February 28, 1998 (1998-02-28)`).
  const otherEventLines = new Set<number>();
  for (const f of found.sort((a, b) => a.index - b.index)) {
    const line = text.lastIndexOf('\n', f.index - 1);
    if (otherEventLines.has(line)) continue;
    if (OTHER_EVENT.test(lineBefore(text, f.index))) {
      otherEventLines.add(line);
      continue;
    }
    const date = parsePageDate(`${f.y}-${String(f.mo).padStart(2, '0')}-${f.d.padStart(2, '0')}`, offsetMinutes);
    if (date !== null) return date;
  }
  return null;
}

/** Each match of `pattern` (global, three groups) in `text`: the whole match, its groups and where it is. */
function* matches(pattern: RegExp, text: string): Generator<[string, string, string, string, number]> {
  for (const m of text.matchAll(pattern)) {
    if (m[1] && m[2] && m[3]) yield [m[0], m[1], m[2], m[3], m.index];
  }
}

/**
 * A date after one of these words on its line is when something else happened (an infobox's
 * `Founded February 28, 1998`, `Released: 4 May 2021`, an offer's `Travel through December 31`, a
 * profile's `Last active`, a forum poster's `Joined: Mon Jul 24, 2017`, its weekday between), not
 * when the page was written.
 */
const OTHER_EVENT =
  /\b(?:founded|born|died|established|released|releases|launched|opened|incorporated|formed|since|expires?|valid|starts?|ends?|deadline|due|through|until|till|thru|last active|joined|join date|registered)\b[\s:,.-]*(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s*)?$/i;

/**
 * The text of `text`'s line up to `index`, or the line before when that is empty: a label in its
 * own element (an infobox's `<th>Founded</th>`) is a line of its own.
 */
function lineBefore(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const before = text.slice(start, index);
  if (before.trim() !== '' || start === 0) return before;
  return text.slice(text.lastIndexOf('\n', start - 2) + 1, start - 1);
}
