/** A stored value and how long it stays valid. */
export interface TtlEntry<T> {
  readonly value: T;
  /** Milliseconds until it expires (always > 0). */
  readonly ttlMs: number;
}

/**
 * A key-value store whose entries expire, through which caches share what they fetched (one
 * process, or many through Redis). `get` resolves null for a missing or expired key. Neither
 * method should reject: a store that loses its backend reports that its own way and behaves as
 * empty; callers treat a rejection as a miss all the same, so a store never fails a crawl.
 */
export interface TtlStore<T> {
  get(key: string): Promise<TtlEntry<T> | null>;
  /** Stores `value` for `ttlMs` milliseconds, replacing any earlier value. */
  set(key: string, value: T, ttlMs: number): Promise<void>;
}

/** Options of {@link MemoryTtlStore}. */
export interface MemoryTtlStoreOptions {
  /** Entries kept; the least recently used is dropped beyond this. @defaultValue 10_000 */
  readonly maxEntries?: number;
  /** Clock in epoch milliseconds (tests pass a fake one). @defaultValue Date.now */
  readonly clock?: () => number;
}

/** A {@link TtlStore} in this process's memory: an LRU bounded by `maxEntries`. */
export class MemoryTtlStore<T> implements TtlStore<T> {
  readonly #maxEntries: number;
  readonly #clock: () => number;
  readonly #entries = new Map<string, { readonly value: T; readonly expiresAt: number }>();

  constructor(options: MemoryTtlStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#clock = options.clock ?? Date.now;
  }

  async get(key: string): Promise<TtlEntry<T> | null> {
    const entry = this.#entries.get(key);
    if (!entry) return null;
    const ttlMs = entry.expiresAt - this.#clock();
    this.#entries.delete(key);
    if (ttlMs <= 0) return null;
    // Re-inserted to mark it most recently used.
    this.#entries.set(key, entry);
    return { value: entry.value, ttlMs };
  }

  async set(key: string, value: T, ttlMs: number): Promise<void> {
    this.#entries.delete(key);
    if (!(ttlMs > 0)) return;
    this.#entries.set(key, { value, expiresAt: this.#clock() + ttlMs });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  /** Number of entries held, expired ones not yet dropped included. */
  get size(): number {
    return this.#entries.size;
  }
}
