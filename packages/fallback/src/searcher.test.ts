import { describe, expect, it } from '@jest/globals';
import type { FallbackRequest, SearchResult } from '@quarry/core';
import type { FallbackProvider } from './provider.js';
import { ResilientFallbackSearcher } from './searcher.js';
import { request, term } from './test-server.fixture.js';

/** A provider stand-in whose behaviour each test scripts (an external service, not our code). */
function scripted(
  search: (request: FallbackRequest, signal: AbortSignal) => Promise<SearchResult[]>,
): FallbackProvider {
  return { name: 'scripted', cacheKey: (r) => JSON.stringify(r.query), search };
}

describe('ResilientFallbackSearcher', () => {
  it('resolves [] at the timeout even when the provider ignores the abort signal', async () => {
    let sawAbort = false;
    const provider = scripted(
      (_r, signal) =>
        new Promise(() => {
          signal.addEventListener('abort', () => {
            sawAbort = true;
          });
        }),
    );
    const searcher = new ResilientFallbackSearcher(provider, { timeoutMs: 150 });
    const started = performance.now();
    expect(await searcher.search(request(term('a')))).toEqual([]);
    expect(performance.now() - started).toBeLessThan(400);
    expect(sawAbort).toBe(true);
  });

  it('never rejects: a throwing provider, a throwing cacheKey and a throwing logger all give []', async () => {
    const reasons: string[] = [];
    const throwing = new ResilientFallbackSearcher(
      scripted(() => {
        throw new Error('sync boom');
      }),
      { onError: (r) => reasons.push(r) },
    );
    expect(await throwing.search(request(term('a')))).toEqual([]);
    expect(reasons).toEqual(['scripted: sync boom']);
    const badKey: FallbackProvider = {
      name: 'bad',
      cacheKey: () => {
        throw new Error('no key');
      },
      search: async () => [],
    };
    expect(await new ResilientFallbackSearcher(badKey).search(request(term('a')))).toEqual([]);
    const badLogger = new ResilientFallbackSearcher(
      scripted(async () => Promise.reject(new Error('x'))),
      {
        onError: () => {
          throw new Error('logger down');
        },
      },
    );
    expect(await badLogger.search(request(term('a')))).toEqual([]);
  });
});
