import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { MemoryRevokedSessions, type RevokedSessions } from './revoked-sessions.js';

/** Compares two secrets in time independent of where they differ (and of their lengths). */
export function secretsEqual(given: string, expected: string): boolean {
  // Hashing first gives equal-length buffers, so timingSafeEqual never throws or leaks the length.
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

const VERSION = 'v1';
const NONCE_BYTES = 16;

/**
 * Login sessions as self-contained cookie values: `v1.<expires secs>.<nonce>.<mac>`, where the MAC is
 * an HMAC keyed by a key derived from the admin token. The cookie never holds the token, every API
 * replica with the same token accepts it, a restart keeps it valid, and changing the token ends
 * every session. A logout revokes the session's nonce in `revoked` until the session would have
 * expired: kept in a file of the data dir, it outlasts a restart and reaches the other processes
 * sharing that dir; in memory (the default), it holds in this process until it stops.
 */
export class SessionSigner {
  readonly #key: Buffer;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #revoked: RevokedSessions;

  constructor(token: string, ttlMs: number, now: () => number = Date.now, revoked?: RevokedSessions) {
    this.#key = createHmac('sha256', token).update('quarry-admin-session-key').digest();
    this.#ttlMs = ttlMs;
    this.#now = now;
    this.#revoked = revoked ?? new MemoryRevokedSessions(now);
  }

  /** A fresh session value, valid for the TTL. */
  issue(): string {
    const expiresSecs = Math.floor((this.#now() + this.#ttlMs) / 1000);
    const payload = `${VERSION}.${expiresSecs}.${randomBytes(NONCE_BYTES).toString('base64url')}`;
    return `${payload}.${this.#mac(payload)}`;
  }

  /** Whether a value is one this signer issued, not expired and not revoked. */
  verify(value: string | undefined): boolean {
    const parsed = this.#parse(value);
    return parsed !== null && !this.#revoked.has(parsed.nonce);
  }

  /** Ends a session (see the class); unknown, expired or malformed values are ignored. */
  revoke(value: string | undefined): void {
    const parsed = this.#parse(value);
    if (parsed) this.#revoked.add(parsed.nonce, parsed.expiresMs);
  }

  /** Seconds until a fresh session expires, for the cookie's Max-Age. */
  get ttlSecs(): number {
    return Math.floor(this.#ttlMs / 1000);
  }

  #parse(value: string | undefined): { nonce: string; expiresMs: number } | null {
    if (!value || value.length > 200) return null;
    const parts = value.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION) return null;
    const [, expires = '', nonce = '', mac = ''] = parts;
    if (!/^\d{1,12}$/.test(expires)) return null;
    const expected = Buffer.from(this.#mac(`${VERSION}.${expires}.${nonce}`), 'base64url');
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const expiresMs = Number(expires) * 1000;
    return expiresMs > this.#now() ? { nonce, expiresMs } : null;
  }

  #mac(payload: string): string {
    return createHmac('sha256', this.#key).update(payload).digest('base64url');
  }
}
