/** Formats a date as ISO 8601 UTC with second precision: `2026-11-22T08:15:00Z`. */
export function toIsoUtc(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/**
 * Parses a timestamp a user or a page gave (ISO 8601, RFC 2822, epoch milliseconds) and returns
 * the ISO UTC form, or null when it is not a plausible date (before 1990 or more than a day ahead).
 */
export function parseTimestamp(value: unknown, now: Date = new Date()): string | null {
  let date: Date;
  if (value instanceof Date) date = value;
  else if (typeof value === 'number') date = new Date(value);
  else if (typeof value === 'string' && value.trim() !== '') date = new Date(value.trim());
  else return null;
  const ms = date.getTime();
  if (Number.isNaN(ms)) return null;
  if (ms < Date.UTC(1990, 0, 1) || ms > now.getTime() + 86_400_000) return null;
  return toIsoUtc(date);
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
