/**
 * Parses a `Retry-After` header (delta-seconds or an HTTP date) into a wait in milliseconds from
 * `nowMs`; a date in the past gives 0. Returns null for a missing or malformed value.
 *
 * @example parseRetryAfter('120', Date.now()) // 120000
 * @example parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT')) // 60000
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number = Date.now()): number | null {
  if (header === null || header === undefined) return null;
  const value = header.trim();
  if (value === '') return null;
  if (/^\d+$/.test(value)) {
    const secs = Number(value);
    return Number.isSafeInteger(secs * 1000) ? secs * 1000 : null;
  }
  // Only the IMF-fixdate and the two obsolete formats HTTP allows; Date.parse accepts all three,
  // but also much more, so require a weekday-led or RFC 850 shape first.
  if (!/^[A-Za-z]{3,9},?\s/.test(value)) return null;
  const atMs = Date.parse(value);
  if (Number.isNaN(atMs)) return null;
  return Math.max(0, atMs - nowMs);
}
