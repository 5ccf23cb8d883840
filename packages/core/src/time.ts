/** Formats a date as ISO 8601 UTC with second precision: `2026-11-22T08:15:00Z`. */
export function toIsoUtc(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/**
 * Parses a timestamp a page or a provider gave (ISO 8601, RFC 2822, epoch milliseconds) and returns
 * the ISO UTC form, or null when it is no real date (`2020-02-30`) or not a plausible one for a web
 * page (before 1990 or more than a day ahead: a template's `1970-01-01`, a wrong year).
 */
export function parseTimestamp(value: unknown, now: Date = new Date()): string | null {
  const date = toDate(value, 'ms');
  if (date === null) return null;
  const ms = date.getTime();
  if (ms < Date.UTC(1990, 0, 1) || ms > now.getTime() + 86_400_000) return null;
  return toIsoUtc(date);
}

/**
 * Parses a date a user gave (`quarry import`): ISO 8601 (a date or a date-time), RFC 2822, or a
 * number of seconds since 1970 (milliseconds from 100,000,000,000 on, which as seconds would be
 * past the year 5000). Any real date of the years 1 to 9999 is one, old or ahead (an archive's 1969
 * paper, a page dated for an event); `2020-02-30` is none. Returns the ISO UTC form, or null.
 */
export function parseDate(value: unknown): string | null {
  const date = toDate(value, 'auto');
  return date === null ? null : toIsoUtc(date);
}

/** Epoch numbers from this on are milliseconds when read `auto` (as seconds: the year 5138). */
const EPOCH_MS_FROM = 100_000_000_000;
/** `2020-02-30`, `2020-2-30T…`: the calendar day an ISO date names, to check it exists. */
const ISO_DAY = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T\s])/;

function toDate(value: unknown, numbers: 'ms' | 'auto'): Date | null {
  let date: Date;
  if (value instanceof Date) date = value;
  else if (typeof value === 'number' && Number.isFinite(value)) {
    date = new Date(numbers === 'auto' && Math.abs(value) < EPOCH_MS_FROM ? value * 1000 : value);
  } else if (typeof value === 'string' && value.trim() !== '') {
    const text = value.trim();
    const day = ISO_DAY.exec(text);
    // Date rolls 30 February over into March; such a date was never written.
    if (day && !isCalendarDay(Number(day[1]), Number(day[2]), Number(day[3]))) return null;
    date = new Date(text);
  } else return null;
  const year = date.getUTCFullYear();
  return Number.isNaN(date.getTime()) || year < 1 || year > 9999 ? null : date;
}

function isCalendarDay(y: number, mo: number, d: number): boolean {
  const date = new Date(Date.UTC(y, mo - 1, d));
  return mo >= 1 && mo <= 12 && date.getUTCDate() === d && date.getUTCMonth() === mo - 1;
}

/** The `time_range` values of the spec and their length in milliseconds (`all` has none). */
export const TIME_RANGES_MS: Readonly<Record<string, number | null>> = {
  '1d': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
  '1y': 365 * 86_400_000,
  all: null,
};

const DURATION_UNITS_MS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/**
 * Parses an operator's duration: a whole number with a unit, `30s`, `15m`, `12h`, `7d` or `2w`, or
 * `0` for none. Returns milliseconds, or null when the text is not such a duration.
 */
export function parseDurationMs(text: string): number | null {
  const match = /^\s*(\d{1,9})\s*([smhdw]?)\s*$/i.exec(text);
  if (!match) return null;
  const amount = Number(match[1]);
  const unit = (match[2] ?? '').toLowerCase();
  if (unit === '') return amount === 0 ? 0 : null;
  return amount * (DURATION_UNITS_MS[unit] ?? 0);
}
