import type { FallbackRequest, SearchResult } from '@quarry/core';

/**
 * One external search service, without any protection: `search` may throw (HTTP error, bad body,
 * abort). {@link ResilientFallbackSearcher} adds the timeout, circuit breaker, cache and
 * never-reject behaviour.
 */
export interface FallbackProvider {
  readonly name: string;
  /** What identifies the answer to a request (the translated query and parameters, no secrets);
   * null when the request can match nothing there, so it need not be sent. */
  cacheKey(request: FallbackRequest): string | null;
  search(request: FallbackRequest, signal: AbortSignal): Promise<SearchResult[]>;
}

/** Defaults of every fallback option, in one place. */
export const FALLBACK_DEFAULTS = {
  /** @defaultValue 2000 (as `QUARRY_FALLBACK_TIMEOUT_MS`) */
  timeoutMs: 2000,
  /** Consecutive failures that open the circuit. */
  failureThreshold: 5,
  /** How long an open circuit skips the provider before one trial call. */
  cooldownMs: 30_000,
  cacheMaxEntries: 500,
  cacheTtlMs: 10 * 60_000,
  /** Largest provider answer read. */
  maxBodyBytes: 2 * 1024 * 1024,
  /** Most results taken from one answer. */
  maxResults: 50,
  braveUrl: 'https://api.search.brave.com',
} as const;

/** The number of results to ask for: at least 1, at most `maxResults`. */
export function wantedCount(request: FallbackRequest, maxResults: number): number {
  const count = Number.isFinite(request.count) ? Math.trunc(request.count) : 1;
  return Math.min(Math.max(count, 1), maxResults);
}
