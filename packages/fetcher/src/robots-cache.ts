import { QuarryError } from '@quarry/core';
import type { Fetcher } from './fetcher.js';
import { type ParsedRobots, parseRobotsTxt } from './robots.js';

/** Options of {@link RobotsCache}. */
export interface RobotsCacheOptions {
  /** Fetches robots.txt (its SSRF guard, timeouts and redirect limit apply). */
  readonly fetcher: Pick<Fetcher, 'fetch' | 'userAgent'>;
  /** Whose rules apply; its product token picks the group. @defaultValue the fetcher's userAgent */
  readonly userAgent?: string;
  /** How long a fetched robots.txt (or a 4xx answer) is trusted. @defaultValue 86_400_000 (24 h) */
  readonly ttlMs?: number;
  /** How long an unreachable robots.txt (5xx, 429, network error) disallows the whole site. @defaultValue 3_600_000 (1 h) */
  readonly errorTtlMs?: number;
  /** Bytes of robots.txt read; the rest is ignored (RFC 9309 requires at least 500 KiB). @defaultValue 512_000 */
  readonly maxBytes?: number;
  /** Origins kept; the least recently used is dropped beyond this. @defaultValue 10_000 */
  readonly maxOrigins?: number;
  /** Clock in epoch milliseconds (tests pass a fake one). @defaultValue Date.now */
  readonly clock?: () => number;
}

/** The answer of {@link RobotsCache.check}. */
export interface RobotsVerdict {
  readonly allowed: boolean;
  /** Crawl-delay of our group, in seconds, when robots.txt sets one. */
  readonly crawlDelaySecs: number | null;
  /** Why, when the answer did not come from robots.txt rules (e.g. `robots_unreachable`). */
  readonly reason?: string;
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
 * bounded by `maxOrigins`.
 */
export class RobotsCache {
  readonly #fetcher: Pick<Fetcher, 'fetch' | 'userAgent'>;
  readonly #userAgent: string;
  readonly #ttlMs: number;
  readonly #errorTtlMs: number;
  readonly #maxBytes: number;
  readonly #maxOrigins: number;
  readonly #clock: () => number;
  readonly #entries = new Map<string, Entry>();
  readonly #inFlight = new Map<string, Promise<Entry>>();

  constructor(options: RobotsCacheOptions) {
    this.#fetcher = options.fetcher;
    this.#userAgent = options.userAgent ?? options.fetcher.userAgent;
    this.#ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
    this.#errorTtlMs = options.errorTtlMs ?? 60 * 60 * 1000;
    this.#maxBytes = options.maxBytes ?? 500 * 1024;
    this.#maxOrigins = options.maxOrigins ?? 10_000;
    this.#clock = options.clock ?? Date.now;
  }

  /** Whether our user agent may fetch `url`, and the Crawl-delay to honour for its site. */
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
      return { allowed: entry.allowAll, crawlDelaySecs, ...(entry.reason ? { reason: entry.reason } : {}) };
    }
    return { allowed: entry.robots.isAllowed(target.href, this.#userAgent), crawlDelaySecs };
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
    const robotsUrl = `${origin}/robots.txt`;
    const now = this.#clock();
    const allow = (reason: string): Entry => ({ robots: null, allowAll: true, reason, expiresAt: now + this.#ttlMs });
    const disallow = (reason: string): Entry => ({
      robots: null,
      allowAll: false,
      reason,
      expiresAt: now + this.#errorTtlMs,
    });
    try {
      const response = await this.#fetcher.fetch(robotsUrl, {
        throwOnHttpError: false,
        maxBodyBytes: this.#maxBytes,
        truncateBody: true,
        rejectBinaryText: false,
        accept: 'text/plain, */*;q=0.5',
      });
      if (response.status >= 200 && response.status < 300) {
        const text = new TextDecoder('utf-8').decode(response.body);
        // Rules govern the origin that was asked for, even when robots.txt was redirected.
        const robots = parseRobotsTxt(robotsUrl, text);
        return { robots, allowAll: true, reason: undefined, expiresAt: now + this.#ttlMs };
      }
      if (response.status === 429 || response.status >= 500) return disallow('robots_unreachable');
      // 4xx and anything else that is not content (a 3xx without Location) means "no robots.txt".
      return allow('robots_unavailable');
    } catch (error) {
      // RFC 9309 2.3.1.2: a redirect chain too long to follow counts as "unavailable".
      if (error instanceof QuarryError && (error.code === 'too_many_redirects' || error.code === 'redirect_loop')) {
        return allow('robots_unavailable');
      }
      return disallow('robots_unreachable');
    }
  }
}
