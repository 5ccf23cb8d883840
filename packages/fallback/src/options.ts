import type { FallbackSearcher, QuarryConfig } from '@quarry/core';
import { BraveProvider } from './brave.js';
import { type ResilienceOptions, ResilientFallbackSearcher } from './searcher.js';
import { SearxngProvider } from './searxng.js';

/** Everything {@link createFallbackSearcher} takes: the provider choice plus resilience settings. */
export interface FallbackOptions extends ResilienceOptions {
  /** Which provider; `none` turns the fallback off. */
  readonly provider: 'none' | 'searxng' | 'brave';
  /** Required for `searxng`. */
  readonly searxngUrl?: string | undefined;
  /** Required for `brave`. */
  readonly braveApiKey?: string | undefined;
  /** @defaultValue https://api.search.brave.com */
  readonly braveUrl?: string | undefined;
  /** Largest provider answer read. @defaultValue 2 MiB */
  readonly maxBodyBytes?: number;
  /** Most results taken from one answer. @defaultValue 50 */
  readonly maxResults?: number;
}

/** The fallback part of Quarry's configuration as {@link FallbackOptions}. */
export function fallbackOptionsFromConfig(config: Pick<QuarryConfig, 'fallback'>): FallbackOptions {
  const { provider, searxngUrl, braveApiKey, braveUrl, timeoutMs } = config.fallback;
  return { provider, searxngUrl, braveApiKey, braveUrl, timeoutMs };
}

/**
 * The configured fallback, wrapped with timeout, circuit breaker and cache; null when the
 * provider is `none`. Throws a TypeError (naming the missing option, never its value) when the
 * chosen provider lacks its URL or key.
 */
export function createFallbackSearcher(options: FallbackOptions): FallbackSearcher | null {
  const limits = {
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.maxResults === undefined ? {} : { maxResults: options.maxResults }),
  };
  switch (options.provider) {
    case 'none':
      return null;
    case 'searxng':
      if (!options.searxngUrl) throw new TypeError('fallback provider searxng needs searxngUrl');
      return new ResilientFallbackSearcher(new SearxngProvider({ baseUrl: options.searxngUrl, ...limits }), options);
    case 'brave':
      if (!options.braveApiKey) throw new TypeError('fallback provider brave needs braveApiKey');
      return new ResilientFallbackSearcher(
        new BraveProvider({
          apiKey: options.braveApiKey,
          ...(options.braveUrl ? { baseUrl: options.braveUrl } : {}),
          ...limits,
        }),
        options,
      );
    default:
      throw new TypeError(`unknown fallback provider "${String(options.provider)}"`);
  }
}
