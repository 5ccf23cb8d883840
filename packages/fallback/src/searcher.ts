import type { FallbackRequest, FallbackSearcher, SearchResult } from '@quarry/core';
import { RetryableError } from '@quarry/core';
import { LRUCache } from 'lru-cache';
import { CircuitBreaker } from './circuit-breaker.js';
import { FALLBACK_DEFAULTS, type FallbackProvider } from './provider.js';

/** Options of {@link ResilientFallbackSearcher}. */
export interface ResilienceOptions {
  /** After this long a call resolves to `[]` and its request is aborted. @defaultValue 2000 */
  readonly timeoutMs?: number;
  /** Consecutive failures that open the circuit. @defaultValue 5 */
  readonly failureThreshold?: number;
  /** How long an open circuit skips the provider before one trial call. @defaultValue 30000 */
  readonly cooldownMs?: number;
  /** Answers kept (LRU). @defaultValue 500 */
  readonly cacheMaxEntries?: number;
  /** How long an answer is reused. @defaultValue 600000 (10 min) */
  readonly cacheTtlMs?: number;
  /** Told why a call gave `[]` (timeout, HTTP status, bad body...); the reason never holds a secret. */
  readonly onError?: (reason: string) => void;
}

/** Why a call was cut short by our own timer, told apart from the caller's abort. */
class TimeoutSignal extends Error {}

/**
 * Wraps a {@link FallbackProvider} into a {@link FallbackSearcher} that never rejects: a timeout
 * (the request is aborted and `[]` returned), a circuit breaker (after repeated failures or a 429
 * the provider is skipped for a while), and a bounded TTL cache of answers keyed by the translated
 * request. Cached answers are copied out, so callers may change what they get.
 */
export class ResilientFallbackSearcher implements FallbackSearcher {
  readonly name: string;
  readonly #provider: FallbackProvider;
  readonly #timeoutMs: number;
  readonly #cooldownMs: number;
  readonly #breaker: CircuitBreaker;
  readonly #cache: LRUCache<string, SearchResult[]>;
  readonly #onError: (reason: string) => void;

  constructor(provider: FallbackProvider, options: ResilienceOptions = {}) {
    this.name = provider.name;
    this.#provider = provider;
    this.#timeoutMs = options.timeoutMs ?? FALLBACK_DEFAULTS.timeoutMs;
    this.#cooldownMs = options.cooldownMs ?? FALLBACK_DEFAULTS.cooldownMs;
    this.#breaker = new CircuitBreaker({
      failureThreshold: options.failureThreshold ?? FALLBACK_DEFAULTS.failureThreshold,
      cooldownMs: this.#cooldownMs,
    });
    this.#cache = new LRUCache({
      max: Math.max(1, options.cacheMaxEntries ?? FALLBACK_DEFAULTS.cacheMaxEntries),
      ttl: Math.max(1, options.cacheTtlMs ?? FALLBACK_DEFAULTS.cacheTtlMs),
    });
    this.#onError = options.onError ?? (() => {});
  }

  /** `closed`, `open` or `half-open`: whether the provider is currently being skipped. */
  get circuitState(): 'closed' | 'open' | 'half-open' {
    return this.#breaker.state;
  }

  /** External results for a request, or `[]`; never rejects. */
  async search(request: FallbackRequest, signal?: AbortSignal): Promise<SearchResult[]> {
    try {
      if (signal?.aborted) return [];
      const key = this.#provider.cacheKey(request);
      if (key === null) return [];
      const cached = this.#cache.get(key);
      if (cached) return copy(cached);
      if (!this.#breaker.tryAcquire()) return [];
      const results = await this.#call(request, signal);
      if (results === null) return [];
      this.#cache.set(key, results);
      return copy(results);
    } catch (err) {
      this.#report(`unexpected error: ${err instanceof Error ? err.message : String(err)}`);
      return [];
    }
  }

  /** One guarded provider call; null when it failed or was cancelled (already accounted for). */
  async #call(request: FallbackRequest, signal: AbortSignal | undefined): Promise<SearchResult[] | null> {
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    const timer = setTimeout(() => controller.abort(new TimeoutSignal()), this.#timeoutMs);
    // Settles as soon as the signal fires, even if the provider ignores it.
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    aborted.catch(() => undefined);
    try {
      const results = await Promise.race([this.#provider.search(request, controller.signal), aborted]);
      this.#breaker.onSuccess();
      return results;
    } catch (err) {
      if (signal?.aborted && !(controller.signal.reason instanceof TimeoutSignal)) {
        this.#breaker.onCancel();
        return null;
      }
      const retryAfterSecs = err instanceof RetryableError ? err.retryAfterSecs : undefined;
      const rateLimited = err instanceof RetryableError && err.code === 'fallback_rate_limited';
      // A 429 opens the circuit at once: for as long as the provider asked, else for the cool-down.
      this.#breaker.onFailure(
        retryAfterSecs !== undefined ? retryAfterSecs * 1000 : rateLimited ? this.#cooldownMs : undefined,
      );
      this.#report(
        controller.signal.reason instanceof TimeoutSignal
          ? `timed out after ${this.#timeoutMs} ms`
          : err instanceof Error
            ? err.message
            : String(err),
      );
      return null;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
      if (!controller.signal.aborted) controller.abort();
    }
  }

  #report(reason: string): void {
    try {
      this.#onError(`${this.name}: ${reason.slice(0, 300)}`);
    } catch {
      // A failing logger must not turn into a failed search.
    }
  }
}

function copy(results: readonly SearchResult[]): SearchResult[] {
  return results.map((r) => ({ ...r }));
}
