/**
 * Dates a page writes with its month's name in its own language (`19. März 2025`, `19 de marzo de
 * 2025`, `19 марта 2025 г.`, `2025. március 19.`, `2025년 3월 19일`), read with the month names and
 * the day, month and year order that ICU (through `Intl`) knows for that language, not a list of
 * our own. English is dateline.ts's; Chinese and Japanese are dates.ts's.
 */

/** A date found in a text: where it starts, and its year, month (1–12) and day as written. */
export interface LocalDate {
  readonly index: number;
  readonly y: string;
  readonly mo: number;
  readonly d: string;
}

/** Finds the dates a language writes with a month's name in a text. */
export interface LocalDatePattern {
  /** Every such date, in the order written. */
  findAll(text: string): LocalDate[];
}

/** Languages whose dates are read elsewhere. */
const READ_ELSEWHERE = new Set(['', 'en', 'zh', 'ja']);
const patterns = new Map<string, LocalDatePattern | null>();

/** The pattern of `lang` (an ISO 639-1 code), or null when ICU has no names for it. */
export function localDatePattern(lang: string): LocalDatePattern | null {
  let pattern = patterns.get(lang);
  if (pattern === undefined) {
    pattern = READ_ELSEWHERE.has(lang) ? null : buildPattern(lang);
    patterns.set(lang, pattern);
  }
  return pattern;
}

/** Where the month is in a long date of the language (`19 mars 2025`, `2025. március 19.`). */
type Order = 'dmy' | 'ymd' | 'mdy';

const DAY = '(\\d{1,2})';
const YEAR = '((?:19|20)\\d{2})';
/** What may follow a day: `19.` (German, Czech), `1er` (French), `1º` (Spanish, Portuguese). */
const DAY_MARK = '(?:\\.|er|º|ª)?';
/** Small words between the parts: `19 de marzo de 2025`, `19 del 2025`. */
const LINK_WORD = '(?:(?:de|del|di)\\s+)?';

function buildPattern(lang: string): LocalDatePattern | null {
  let names: Map<string, number>;
  let order: Order;
  try {
    if (Intl.DateTimeFormat.supportedLocalesOf([lang]).length === 0) return null;
    names = monthNames(lang);
    order = orderOf(lang);
  } catch {
    return null;
  }
  if (names.size < 12) return null;
  const alternatives = [...names.keys()]
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'));
  const month = `(${alternatives.join('|')})\\.?`;
  const source =
    order === 'dmy'
      ? `(?<![\\p{L}\\p{N}])${DAY}${DAY_MARK}\\s*${LINK_WORD}${month},?\\s*${LINK_WORD}${YEAR}(?!\\d)`
      : order === 'ymd'
        ? `(?<![\\p{L}\\p{N}])${YEAR}\\.?[\\p{L}]?\\s*${month}\\s*${DAY}(?!\\d)`
        : `(?<![\\p{L}\\p{N}])${month}\\s*${DAY},?\\s+${YEAR}(?!\\d)`;
  const re = new RegExp(source, 'giu');
  const groups =
    order === 'dmy' ? { d: 1, mo: 2, y: 3 } : order === 'ymd' ? { y: 1, mo: 2, d: 3 } : { mo: 1, d: 2, y: 3 };
  return {
    findAll(text) {
      const dates: LocalDate[] = [];
      for (const m of text.matchAll(re)) {
        const mo = names.get(normalName(m[groups.mo] ?? '', lang));
        const y = m[groups.y];
        const d = m[groups.d];
        if (mo !== undefined && y !== undefined && d !== undefined) dates.push({ index: m.index, y, mo, d });
      }
      return dates;
    },
  };
}

/**
 * Every name ICU gives a month in `lang`, full and short, as written in a date (Russian's genitive
 * `марта`) and on its own (`март`), lower-cased: name → month (1–12). Purely numeric short forms
 * (Czech `3.`) are left out; a name two months share is dropped.
 */
function monthNames(lang: string): Map<string, number> {
  const styles: Intl.DateTimeFormatOptions[] = [
    { day: 'numeric', month: 'long' },
    { day: 'numeric', month: 'short' },
    { month: 'long' },
    { month: 'short' },
  ];
  const names = new Map<string, number>();
  const shared = new Set<string>();
  for (const style of styles) {
    const format = new Intl.DateTimeFormat(lang, { ...style, timeZone: 'UTC' });
    for (let month = 1; month <= 12; month++) {
      const part = format.formatToParts(Date.UTC(2025, month - 1, 19)).find((p) => p.type === 'month');
      const name = normalName(part?.value ?? '', lang);
      if (!/\p{L}/u.test(name)) continue;
      const known = names.get(name);
      if (known !== undefined && known !== month) shared.add(name);
      else names.set(name, month);
    }
  }
  for (const name of shared) names.delete(name);
  return names;
}

function normalName(name: string, lang: string): string {
  return name.normalize('NFC').toLocaleLowerCase(lang).replace(/\.$/, '').replace(/\s+/g, ' ').trim();
}

function orderOf(lang: string): Order {
  const parts = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
    .formatToParts(Date.UTC(2025, 2, 19))
    .map((p) => p.type)
    .filter((type) => type === 'day' || type === 'month' || type === 'year');
  const key = parts.map((type) => type[0]).join('');
  return key === 'ymd' || key === 'mdy' ? key : 'dmy';
}
