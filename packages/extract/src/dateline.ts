import { parsePageDate } from './dates.js';

const MONTHS =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const MONTH_INDEX = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** `December 19, 2025`, `Dec. 19th, 2025`, `Sep 4 2025`. */
const MONTH_DAY_YEAR = new RegExp(`\\b(${MONTHS})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+((?:19|20)\\d{2})\\b`, 'i');
/** `19 December 2025`, `18th Dec 2025`, `8 Oct. 2022`, `4 of May, 2021`. */
const DAY_MONTH_YEAR = new RegExp(
  `\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTHS})\\.?,?\\s+((?:19|20)\\d{2})\\b`,
  'i',
);
/** `2025-12-19` (ISO). */
const ISO_DAY = /\b((?:19|20)\d{2})-(\d{2})-(\d{2})\b/;
/**
 * `19.12.2025`: day, month and year with dots, as Europe writes them (American dates use slashes,
 * and are not read).
 */
const DOTTED_DAY = /(?<![\d.])(\d{1,2})\.(\d{1,2})\.((?:19|20)\d{2})(?![\d.]\d)/;

/**
 * The first date written near a page's headline in the forms English pages print a dateline
 * (`December 19, 2025`, `19 Dec 2025`, `2025-12-19`, `19.12.2025`), as midnight at `offsetMinutes`;
 * null when there is none. Dates with slashes (`12/01/2025`) are ambiguous and not read.
 */
export function findDatelineDate(text: string, offsetMinutes: number): string | null {
  const found: Array<{ index: number; y: string; mo: number; d: string }> = [];
  const mdy = MONTH_DAY_YEAR.exec(text);
  if (mdy?.[1] && mdy[2] && mdy[3]) found.push({ index: mdy.index, y: mdy[3], mo: monthOf(mdy[1]), d: mdy[2] });
  const dmy = DAY_MONTH_YEAR.exec(text);
  if (dmy?.[1] && dmy[2] && dmy[3]) found.push({ index: dmy.index, y: dmy[3], mo: monthOf(dmy[2]), d: dmy[1] });
  const dotted = DOTTED_DAY.exec(text);
  if (dotted?.[1] && dotted[2] && dotted[3] && Number(dotted[2]) <= 12) {
    found.push({ index: dotted.index, y: dotted[3], mo: Number(dotted[2]), d: dotted[1] });
  }
  const iso = ISO_DAY.exec(text);
  if (iso?.[1] && iso[2] && iso[3]) found.push({ index: iso.index, y: iso[1], mo: Number(iso[2]), d: iso[3] });
  for (const f of found.sort((a, b) => a.index - b.index)) {
    const date = parsePageDate(`${f.y}-${String(f.mo).padStart(2, '0')}-${f.d.padStart(2, '0')}`, offsetMinutes);
    if (date !== null) return date;
  }
  return null;
}

function monthOf(name: string): number {
  return MONTH_INDEX.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}
