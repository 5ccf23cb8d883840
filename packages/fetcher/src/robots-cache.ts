import { QuarryError } from '@quarry/core';
import type { Fetcher } from './fetcher.js';
import { type ParsedRobots, parseRobotsTxt } from './robots.js';
import type { RobotsRecord, RobotsStore } from './robots-store.js';
import type { TtlEntry } from './ttl-store.js';

/** Options of {@link RobotsCache}. */
export interface RobotsCacheOptions {
  /** Fetches robots.txt (its SSRF guard, timeouts and redirect limit apply). */
  readonly fetcher: Pick<Fetcher, 'fetch' | 'userAgent'>;
  /** Whose rules apply; its product token picks the group. @defaultValue the fetcher's userAgent */
  readonly userAgent?: string;
  /** How long a fetched robots.txt (or a 4xx answer) is trusted. @defaultValue 86_400_000 (24 h) */
  readonly ttlMs?: number;
  /**
   * How long an unreachable robots.txt (5xx, 429, network error) disallows the whole site before
   * it is asked again. @defaultValue 60_000 (1 min)
   */
  readonly errorTtlMs?: number;
  /** Bytes of robots.txt read; the rest is ignored (RFC 9309 requires at least 500 KiB). @defaultValue 512_000 */
  readonly maxBytes?: number;
  /** Origins kept; the least recently used is dropped beyond this. @defaultValue 10_000 */
  readonly maxOrigins?: number;
  /** Clock in epoch milliseconds (tests pass a fake one). @defaultValue Date.now */
  readonly clock?: () => number;
  /**
   * Where fetched results are shared with other caches (Redis in distributed mode): read before
   * fetching, written after, with the same TTLs. A failing store only means fetching.
   * @defaultValue none: this cache's own memory alone
   */
  readonly store?: RobotsStore;
}

/** How long a cached robots.txt must still be held for `disallowsNow` to answer from it. */
const CACHED_MARGIN_MS = 60_000;

/** The answer of {@link RobotsCache.check}. */
export interface RobotsVerdict {
  readonly allowed: boolean;
  /** Crawl-delay of our group, in seconds, when robots.txt sets one. */
  readonly crawlDelaySecs: number | null;
  /** Why, when the answer did not come from robots.txt rules (e.g. `robots_unreachable`). */
  readonly reason?: string;
  /** For `robots_unreachable`: ms until robots.txt is asked again (the answer held till then). */
  readonly retryInMs?: number;
}

interface Entry {
  readonly robots: ParsedRobots | null;
  /** Used when there are no rules: true for "allow all", false for "disallow all". */
  readonly allowAll: boolean;
  readonly reason: string | undefined;
  readonly expiresAt: number;
}

/**
 * robots.txt per origin, fetched once and cached (RFC 9309): 2xx is parsed; 4xx (401 and 403
 * included) allows everything; 5xx, 429 or an unreachable server disallows everything for
 * `errorTtlMs`. Concurrent checks for one origin share a single fetch. The cache is an LRU
 * bounded by `maxOrigins`. With a `store`, an origin missing here is looked up there first, so
 * caches of other processes sharing the store fetch it once per TTL between them (two processes
 * missing at the same moment may both fetch: no lock, by choice, as it costs one request each).
 */
export class RobotsCache {
  readonly #fetcher: Pick<Fetcher, 'fetch' | 'userAgent'>;
  readonly #userAgent: string;
  readonly #ttlMs: number;
  readonly #errorTtlMs: number;
  readonly #maxBytes: number;
  readonly #maxOrigins: number;
  readonly #clock: () => number;
  readonly #store: RobotsStore | undefined;
  readonly #entries = new Map<string, Entry>();
  readonly #inFlight = new Map<string, Promise<Entry>>();

  constructor(options: RobotsCacheOptions) {
    this.#fetcher = options.fetcher;
    this.#userAgent = options.userAgent ?? options.fetcher.userAgent;
    this.#ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
    this.#errorTtlMs = options.errorTtlMs ?? 60_000;
    this.#maxBytes = options.maxBytes ?? 500 * 1024;
    this.#maxOrigins = options.maxOrigins ?? 10_000;
    this.#clock = options.clock ?? Date.now;
    this.#store = options.store;
  }

  /**
   * Whether our user agent may fetch `url`, and the Crawl-delay to honour for its site. Rejects
   * with the fetcher's `blocked_address` error when the address policy refuses the site itself.
   */
  async check(url: string): Promise<RobotsVerdict> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return { allowed: false, crawlDelaySecs: null, reason: 'bad_url' };
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      return { allowed: false, crawlDelaySecs: null, reason: 'unsupported_scheme' };
    }
    const entry = await this.#entry(target.origin);
    const crawlDelaySecs = entry.robots?.crawlDelaySecs(this.#userAgent) ?? null;
    // RFC 9309 2.5: /robots.txt itself is always allowed.
    if (target.pathname === '/robots.txt') return { allowed: true, crawlDelaySecs };
    if (!entry.robots) {
      const retryInMs = entry.allowAll ? undefined : Math.max(0, entry.expiresAt - this.#clock());
      return {
        allowed: entry.allowAll,
        crawlDelaySecs,
        ...(entry.reason ? { reason: entry.reason } : {}),
        ...(retryInMs === undefined ? {} : { retryInMs }),
      };
    }
    return { allowed: entry.robots.isAllowed(target.href, this.#userAgent), crawlDelaySecs };
  }

  /**
   * True when the robots.txt of `url`'s site, as this cache holds it now (no request, no store
   * lookup), disallows `url` by its rules, and will still hold it for a minute: the crawl queue
   * asks this to start such a URL without a politeness slot, knowing its `check` sends nothing.
   * False when the site's robots.txt is not cached, could not be read, or allows the URL.
   */
  disallowsNow(url: string): boolean {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return false;
    }
    const entry = this.#entries.get(target.origin);
    if (!entry?.robots || entry.expiresAt <= this.#clock() + CACHED_MARGIN_MS) return false;
    return target.pathname !== '/robots.txt' && !entry.robots.isAllowed(target.href, this.#userAgent);
  }

  /** The Sitemap URLs listed in the robots.txt of `origin` (any URL on that site works too). */
  async sitemaps(origin: string): Promise<string[]> {
    const entry = await this.#entry(new URL(origin).origin);
    return [...(entry.robots?.sitemaps ?? [])];
  }

  /** Number of origins cached. */
  get size(): number {
    return this.#entries.size;
  }

  async #entry(origin: string): Promise<Entry> {
    const cached = this.#entries.get(origin);
    if (cached && cached.expiresAt > this.#clock()) {
      // Re-insert to mark it most recently used.
      this.#entries.delete(origin);
      this.#entries.set(origin, cached);
      return cached;
    }
    const pending = this.#inFlight.get(origin);
    if (pending) return pending;
    const loading = this.#load(origin).finally(() => this.#inFlight.delete(origin));
    this.#inFlight.set(origin, loading);
    const entry = await loading;
    this.#entries.delete(origin);
    this.#entries.set(origin, entry);
    while (this.#entries.size > this.#maxOrigins) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    return entry;
  }

  async #load(origin: string): Promise<Entry> {
    const shared = await this.#readStore(origin);
    if (shared) {
      // Never trust a shared answer longer than this cache would (another process may be configured otherwise).
      const ttlMs = Math.min(shared.ttlMs, this.#ttlFor(shared.value));
      return this.#toEntry(origin, shared.value, this.#clock() + ttlMs);
    }
    const record = await this.#fetchRecord(origin);
    const ttlMs = this.#ttlFor(record);
    // Awaited, so that once this check is answered every process sharing the store sees the result.
    await this.#writeStore(origin, record, ttlMs);
    return this.#toEntry(origin, record, this.#clock() + ttlMs);
  }

  #ttlFor(record: RobotsRecord): number {
    return record.kind === 'disallow_all' ? this.#errorTtlMs : this.#ttlMs;
  }

  // A store is an optimisation: whatever it does wrong, the answer comes from fetching.
  async #readStore(origin: string): Promise<TtlEntry<RobotsRecord> | null> {
    try {
      return (await this.#store?.get(origin)) ?? null;
    } catch {
      return null;
    }
  }

  async #writeStore(origin: string, record: RobotsRecord, ttlMs: number): Promise<void> {
    try {
      await this.#store?.set(origin, record, ttlMs);
    } catch {
      // Ignored for the reason above; the next process fetches for itself.
    }
  }

  #toEntry(origin: string, record: RobotsRecord, expiresAt: number): Entry {
    if (record.kind !== 'rules') {
      return { robots: null, allowAll: record.kind === 'allow_all', reason: record.reason, expiresAt };
    }
    // A shared body may come from a process reading more than this one: parse only what ours would.
    const body = record.body.length > this.#maxBytes ? wholeLines(record.body.slice(0, this.#maxBytes)) : record.body;
    // Rules govern the origin that was asked for, even when robots.txt was redirected.
    return { robots: parseRobotsTxt(`${origin}/robots.txt`, body), allowAll: true, reason: undefined, expiresAt };
  }

  async #fetchRecord(origin: string): Promise<RobotsRecord> {
    try {
      const response = await this.#fetcher.fetch(`${origin}/robots.txt`, {
        throwOnHttpError: false,
        maxBodyBytes: this.#maxBytes,
        truncateBody: true,
        rejectBinaryText: false,
        accept: 'text/plain, */*;q=0.5',
      });
      if (response.status >= 200 && response.status < 300) {
        const text = new TextDecoder('utf-8').decode(response.body);
        return { kind: 'rules', body: response.truncated ? wholeLines(text) : text };
      }
      if (response.status === 429 || response.status >= 500)
        return { kind: 'disallow_all', reason: 'robots_unreachable' };
      // 4xx and anything else that is not content (a 3xx without Location) means "no robots.txt".
      return { kind: 'allow_all', reason: 'robots_unavailable' };
    } catch (error) {
      // A refused address is the crawler's policy, not the site's robots.txt: the caller reports it
      // as such, and nothing is cached, so allowing the host takes effect at once.
      if (error instanceof QuarryError && error.code === 'blocked_address') throw error;
      // So is a host name that does not resolve: its pages fail for that, not for robots.txt (a
      // mistyped seed said "robots.txt unreachable" after three tries).
      if (error instanceof QuarryError && error.code === 'dns_not_found') throw error;
      // RFC 9309 2.3.1.2: a redirect chain too long to follow counts as "unavailable".
      if (error instanceof QuarryError && (error.code === 'too_many_redirects' || error.code === 'redirect_loop')) {
        return { kind: 'allow_all', reason: 'robots_unavailable' };
      }
      return { kind: 'disallow_all', reason: 'robots_unreachable' };
    }
  }
}

/**
 * A robots.txt cut at the size limit, without its last, cut line: `Disallow: /private-archive/` cut
 * to `Disallow: /` would shut the whole site.
 */
function wholeLines(text: string): string {
  const end = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  return end < 0 ? '' : text.slice(0, end + 1);
}
