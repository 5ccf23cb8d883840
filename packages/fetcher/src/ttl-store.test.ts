import { describe, expect, it } from '@jest/globals';
import { decodeRobotsRecord } from './robots-store.js';
import { MemoryTtlStore } from './ttl-store.js';

describe('MemoryTtlStore', () => {
  it('returns a value with its remaining time until it expires, then nothing', async () => {
    let now = 1_000;
    const store = new MemoryTtlStore<string>({ clock: () => now });
    await store.set('a', 'x', 500);
    expect(await store.get('a')).toEqual({ value: 'x', ttlMs: 500 });
    now += 200;
    expect(await store.get('a')).toEqual({ value: 'x', ttlMs: 300 });
    now += 300;
    expect(await store.get('a')).toBeNull();
    expect(store.size).toBe(0);
    expect(await store.get('never-set')).toBeNull();
  });

  it('replaces a value and its expiry, and stores nothing for a non-positive TTL', async () => {
    let now = 0;
    const store = new MemoryTtlStore<number>({ clock: () => now });
    await store.set('k', 1, 100);
    await store.set('k', 2, 1_000);
    now = 500;
    expect(await store.get('k')).toEqual({ value: 2, ttlMs: 500 });
    await store.set('k', 3, 0);
    expect(await store.get('k')).toBeNull();
    await store.set('n', 4, Number.NaN);
    expect(await store.get('n')).toBeNull();
  });

  it('drops the least recently used entry beyond maxEntries', async () => {
    const store = new MemoryTtlStore<string>({ maxEntries: 2 });
    await store.set('a', 'A', 60_000);
    await store.set('b', 'B', 60_000);
    await store.get('a');
    await store.set('c', 'C', 60_000);
    expect(store.size).toBe(2);
    expect(await store.get('b')).toBeNull();
    expect((await store.get('a'))?.value).toBe('A');
    expect((await store.get('c'))?.value).toBe('C');
  });
});

describe('decodeRobotsRecord', () => {
  it('accepts the three record kinds', () => {
    expect(decodeRobotsRecord({ kind: 'rules', body: 'User-agent: *' })).toEqual({
      kind: 'rules',
      body: 'User-agent: *',
    });
    expect(decodeRobotsRecord({ kind: 'allow_all', reason: 'robots_unavailable' })).toEqual({
      kind: 'allow_all',
      reason: 'robots_unavailable',
    });
    expect(decodeRobotsRecord({ kind: 'disallow_all', reason: 'robots_unreachable', extra: 1 })).toEqual({
      kind: 'disallow_all',
      reason: 'robots_unreachable',
    });
  });

  it.each([
    null,
    'rules',
    [],
    { kind: 'rules' },
    { kind: 'rules', body: 42 },
    { kind: 'allow_all' },
    { kind: 'disallow_all', reason: 'Not <a> reason' },
    { kind: 'allow_everything', reason: 'x' },
  ])('rejects %j', (raw) => {
    expect(decodeRobotsRecord(raw)).toBeNull();
  });
});
