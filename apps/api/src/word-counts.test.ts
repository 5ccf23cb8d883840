import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IndexQuery, SearchIndex } from '@quarry/core';
import { createFixture, type Fixture, recording } from './test-support/fixture.js';
import { pagesHolding } from './word-counts.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await createFixture();
});
afterAll(async () => {
  await fx.cleanup();
});

describe('word counts', () => {
  it('are asked of the index once however many requests want one at once, then remembered', async () => {
    const asked: IndexQuery[] = [];
    const index = recording(fx.index, asked);
    const counts = await Promise.all(Array.from({ length: 20 }, () => pagesHolding(index, 'widget')));
    expect(new Set(counts)).toEqual(new Set([15]));
    expect(asked).toHaveLength(1);
    expect(await pagesHolding(index, 'Widget')).toBe(15);
    expect(asked).toHaveLength(1);
    // Another word is asked apart.
    expect(await pagesHolding(index, 'quarry')).toBeGreaterThan(0);
    expect(asked).toHaveLength(2);
  });

  it('are asked again after a failure, which every request waiting for it sees', async () => {
    let fail = true;
    let calls = 0;
    const index: SearchIndex = {
      ...fx.index,
      search: async (query) => {
        calls++;
        if (fail) throw new Error('index unavailable');
        return fx.index.search(query);
      },
    };
    const failed = await Promise.allSettled(Array.from({ length: 5 }, () => pagesHolding(index, 'catalogue')));
    expect(failed.map((result) => result.status)).toEqual(Array.from({ length: 5 }, () => 'rejected'));
    expect(calls).toBe(1);
    fail = false;
    expect(await pagesHolding(index, 'catalogue')).toBe(15);
    expect(calls).toBe(2);
  });
});
