import { createHash, randomBytes } from 'node:crypto';
import { ValidationError } from '@quarry/core';

/** What every Quarry API key starts with, so a leaked key is recognizable (e.g. by secret scanners). */
export const KEY_PREFIX = 'qk_';

/** Random bytes in a key: 256 bits, far above the 128-bit floor. */
const KEY_RANDOM_BYTES = 32;
/** Characters of the key kept for display: the prefix plus 7 random characters (42 of 256 bits). */
const DISPLAY_PREFIX_CHARS = KEY_PREFIX.length + 7;
const KEY_SHAPE = /^qk_[A-Za-z0-9_-]{43}$/;
/** Upper bound of a key's per-minute limit; matches the configuration's bound for limits. */
export const MAX_LIMIT_PER_MIN = 1_000_000;
const MAX_NAME_CHARS = 100;

/** A fresh plain key: `qk_` + 43 base64url characters (256 random bits). */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(KEY_RANDOM_BYTES).toString('base64url');
}

/**
 * The stored form of a key: SHA-256, hex. A fast unsalted hash is enough here, unlike for
 * passwords: the key carries 256 random bits, so guessing a preimage is infeasible however fast the
 * hash is; a slow or salted hash would only cost CPU on every request and would make the hash
 * unusable as a lookup key.
 */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The part of a key shown in listings, for telling keys apart. */
export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_CHARS);
}

/** A short random id for revoke/list; hex so that it never starts with `-` on a command line. */
export function newKeyId(): string {
  return randomBytes(6).toString('hex');
}

/** Whether a presented string has the shape of a Quarry key (cheap check before a lookup). */
export function isWellFormedKey(key: string): boolean {
  return KEY_SHAPE.test(key);
}

/** Returns the trimmed key name, or throws a {@link ValidationError} for an empty or odd one. */
export function validateKeyName(name: string): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed === '' || trimmed.length > MAX_NAME_CHARS || /\p{Cc}/u.test(trimmed)) {
    throw new ValidationError(`key name must be 1 to ${MAX_NAME_CHARS} printable characters`, 'name');
  }
  return trimmed;
}

/** Returns the limit, or throws a {@link ValidationError} unless it is a positive integer within bounds. */
export function validateLimitPerMin(limitPerMin: number): number {
  if (!Number.isSafeInteger(limitPerMin) || limitPerMin < 1 || limitPerMin > MAX_LIMIT_PER_MIN) {
    throw new ValidationError(`limit must be an integer from 1 to ${MAX_LIMIT_PER_MIN} per minute`, 'limit');
  }
  return limitPerMin;
}

/**
 * Parses a per-minute rate limit as the CLI's `--limit` takes it: `N/min`, `N/minute` or plain `N`.
 * Throws a {@link ValidationError} for anything else.
 *
 * @example parseRateLimit('100/min') // 100
 */
export function parseRateLimit(input: string): number {
  const match = /^\s*(\d+)\s*(?:\/\s*(?:min|minute))?\s*$/i.exec(String(input));
  if (!match?.[1]) {
    throw new ValidationError(
      `invalid rate limit "${String(input).slice(0, 40)}": expected N/min, N/minute or N`,
      'limit',
    );
  }
  return validateLimitPerMin(Number(match[1]));
}
