import { afterEach, describe, expect, it } from '@jest/globals';
import type { Queues } from '../types.js';
import type { OpenQueues } from './helpers.js';

const FP = 'k3Zb9x0sQmI1tqR2n8m0HwZ4cYl8g6v2N5eA7uQpD1s';

/** The fingerprint-store half of the contract: one holder per text, preferred URL wins, release. */
export function describeFingerprintContract(open: OpenQueues): void {
  let queues: Queues | undefined;
  const start = async () => {
    queues = await open({});
    return queues.fingerprints;
  };
  afterEach(async () => {
    await queues?.close();
    queues = undefined;
  });

  describe('fingerprints', () => {
    it('gives a text to its first URL and keeps it there against longer ones', async () => {
      const store = await start();
      expect(await store.holder(FP)).toBeNull();
      expect(await store.claim(FP, { url: 'http://a.test/', canonical: false })).toEqual({
        owner: 'http://a.test/',
        replaced: null,
      });
      expect(await store.claim(FP, { url: 'http://a.test/index.html', canonical: false })).toEqual({
        owner: 'http://a.test/',
        replaced: null,
      });
      expect(await store.claim(FP, { url: 'http://a.test/', canonical: false })).toEqual({
        owner: 'http://a.test/',
        replaced: null,
      });
      expect(await store.holder(FP)).toBe('http://a.test/');
    });

    it('moves a text to a shorter URL, then to a self-canonical one, saying whom it displaced', async () => {
      const store = await start();
      await store.claim(FP, { url: 'http://a.test/?edition=usa', canonical: false });
      expect(await store.claim(FP, { url: 'http://a.test/', canonical: false })).toEqual({
        owner: 'http://a.test/',
        replaced: 'http://a.test/?edition=usa',
      });
      expect(await store.claim(FP, { url: 'http://a.test/home', canonical: true })).toEqual({
        owner: 'http://a.test/home',
        replaced: 'http://a.test/',
      });
      // Same length: the smaller string, so every process decides alike.
      await store.claim('other', { url: 'http://a.test/b', canonical: false });
      expect(await store.claim('other', { url: 'http://a.test/a', canonical: false })).toEqual({
        owner: 'http://a.test/a',
        replaced: 'http://a.test/b',
      });
    });

    it('releases a text only for the URL that holds it', async () => {
      const store = await start();
      await store.claim(FP, { url: 'http://a.test/', canonical: false });
      await store.release(FP, 'http://a.test/index.html');
      expect(await store.holder(FP)).toBe('http://a.test/');
      await store.release(FP, 'http://a.test/');
      expect(await store.holder(FP)).toBeNull();
      expect((await store.claim(FP, { url: 'http://a.test/index.html', canonical: false })).owner).toBe(
        'http://a.test/index.html',
      );
    });

    it('ends with the preferred URL whatever the order of concurrent claims', async () => {
      const store = await start();
      const urls = Array.from({ length: 12 }, (_, i) => `http://a.test/${'x'.repeat((i * 5) % 12)}${i}`);
      const claims = await Promise.all(urls.map((url) => store.claim(FP, { url, canonical: false })));
      const best = [...urls].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0];
      expect(await store.holder(FP)).toBe(best);
      // Every URL that held the text on the way is displaced exactly once, except the last holder.
      const displaced = claims.map((c) => c.replaced).filter((r): r is string => r !== null);
      expect(new Set(displaced).size).toBe(displaced.length);
      expect(displaced).not.toContain(best);
    });
  });
}
