import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';

/** Sessions ended by a logout, each remembered until it would have expired anyway. */
export interface RevokedSessions {
  /** Whether the session `id` was revoked (an expired one may be forgotten: it verifies no more). */
  has(id: string): boolean;
  /** Revokes the session `id`, which expires at `expiresMs`. */
  add(id: string, expiresMs: number): void;
}

/** Revoked sessions remembered at once; beyond it those expiring first are dropped (they expire anyway). */
export const MAX_REVOKED_SESSIONS = 10_000;

/** Revoked id → expiry (ms): without the expired ones, and at most {@link MAX_REVOKED_SESSIONS}, those expiring last. */
function pruned(entries: Iterable<[string, number]>, nowMs: number): Map<string, number> {
  const live = [...entries].filter(([, expiresMs]) => expiresMs > nowMs);
  if (live.length > MAX_REVOKED_SESSIONS) {
    live.sort((a, b) => b[1] - a[1]);
    live.length = MAX_REVOKED_SESSIONS;
  }
  return new Map(live);
}

/** Revoked sessions in this process's memory: a restart forgets them. */
export class MemoryRevokedSessions implements RevokedSessions {
  readonly #revoked = new Map<string, number>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  has(id: string): boolean {
    return this.#revoked.has(id);
  }

  add(id: string, expiresMs: number): void {
    // Insertion order is expiry order (every session lives as long), so the first are dropped first.
    const now = this.#now();
    for (const [key, keyExpiresMs] of this.#revoked) {
      if (keyExpiresMs <= now || this.#revoked.size >= MAX_REVOKED_SESSIONS) this.#revoked.delete(key);
      else break;
    }
    this.#revoked.set(id, expiresMs);
  }
}

/** The stamp of a file whose status could not be read (its folder cannot be searched). */
const UNREADABLE = 'unreadable';

/** The file's content: each revoked session's id with its expiry, in seconds since 1970. */
interface RevokedFile {
  readonly version: 1;
  readonly revoked: Record<string, number>;
}

/**
 * Revoked sessions kept in a file (`admin-logouts.json` in the data dir), so that a logout outlasts
 * a restart of the process, and reaches every process serving the dashboard from that data dir
 * (API replicas sharing a volume, `quarry serve` beside `quarry start`): each reads the file again
 * when it changed, and a logout is added to what the file holds then, written to a temporary file
 * and renamed over it. Only session ids and their expiry are kept (the ids are random and sign
 * nothing), the expired ones dropped at each write. A file that cannot be read or written is
 * reported to `onError` and the revocation kept in memory: the logout holds until a restart.
 */
export class FileRevokedSessions implements RevokedSessions {
  readonly #path: string;
  readonly #now: () => number;
  readonly #onError: (err: unknown) => void;
  /** What the file held when last read, and the stamp (see #currentStamp) it was read at. */
  #fromFile = new Map<string, number>();
  #stamp = '';
  /** Those added here: held even when the file could not be written. */
  #own = new Map<string, number>();

  constructor(path: string, options: { now?: () => number; onError?: (err: unknown) => void } = {}) {
    this.#path = path;
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError ?? (() => {});
    this.#reload();
  }

  has(id: string): boolean {
    this.#reload();
    return this.#own.has(id) || this.#fromFile.has(id);
  }

  add(id: string, expiresMs: number): void {
    const now = this.#now();
    this.#own = pruned([...this.#own, [id, expiresMs]], now);
    this.#reload();
    const all = pruned([...this.#fromFile, ...this.#own], now);
    const content: RevokedFile = {
      version: 1,
      revoked: Object.fromEntries([...all].map(([key, ms]) => [key, Math.ceil(ms / 1000)])),
    };
    const temp = `${this.#path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      writeFileSync(temp, `${JSON.stringify(content)}\n`, { mode: 0o600 });
      renameSync(temp, this.#path);
      this.#fromFile = all;
      this.#stamp = this.#currentStamp();
    } catch (err) {
      rmSync(temp, { force: true });
      this.#onError(err);
    }
  }

  /** The file's mtime, size and inode, or '' when there is none. */
  #currentStamp(): string {
    const stat = statSync(this.#path, { throwIfNoEntry: false });
    return stat ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : '';
  }

  /** Reads the file again if it changed since it was last read; a problem is reported once, not at every request. */
  #reload(): void {
    let stamp: string;
    try {
      stamp = this.#currentStamp();
    } catch (err) {
      if (this.#stamp !== UNREADABLE) this.#onError(err);
      this.#stamp = UNREADABLE;
      return;
    }
    if (stamp === this.#stamp) return;
    this.#stamp = stamp;
    if (stamp === '') {
      this.#fromFile = new Map();
      return;
    }
    try {
      const parsed = JSON.parse(readFileSync(this.#path, 'utf8')) as Partial<RevokedFile> | null;
      const revoked = parsed && typeof parsed.revoked === 'object' && parsed.revoked !== null ? parsed.revoked : {};
      const entries = Object.entries(revoked)
        .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
        .map(([key, secs]): [string, number] => [key, secs * 1000]);
      this.#fromFile = pruned(entries, this.#now());
    } catch (err) {
      // Unreadable or not ours: what it held is lost, and the next logout writes it anew.
      this.#onError(err);
    }
  }
}
