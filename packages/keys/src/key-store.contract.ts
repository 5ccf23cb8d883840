import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { KeyStore } from '@quarry/core';
import { ValidationError } from '@quarry/core';

/** Opens stores on one shared backing (file or Redis database), like separate API processes. */
export interface KeyStoreBackend {
  open(): Promise<KeyStore>;
  /** Every stored string value, to prove the plain key is never written. */
  dumpStored(): Promise<string>;
}

/** The behaviour every KeyStore must show; run by each backend's test file. */
export function keyStoreContract(label: string, makeBackend: () => Promise<KeyStoreBackend>): void {
  describe(`KeyStore contract: ${label}`, () => {
    let backend: KeyStoreBackend;
    let store: KeyStore;
    let other: KeyStore;

    beforeAll(async () => {
      backend = await makeBackend();
      store = await backend.open();
      other = await backend.open();
    });
    afterAll(async () => {
      await store?.close();
      await other?.close();
    });

    it('creates a prefixed high-entropy key, verifiable by both processes', async () => {
      const { record, key } = await store.create('  partner-a  ', 120);
      expect(key).toMatch(/^qk_[A-Za-z0-9_-]{43}$/);
      expect(record.name).toBe('partner-a');
      expect(record.limitPerMin).toBe(120);
      expect(key.startsWith(record.prefix)).toBe(true);
      expect(record.prefix.length).toBeGreaterThan(3);
      expect(record.prefix.length).toBeLessThan(16);
      expect(record.id).not.toBe('');
      expect(key).not.toContain(record.id);
      expect(record.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(record.revokedAt).toBeNull();
      expect(await store.verify(key)).toEqual(record);
      expect(await other.verify(key)).toEqual(record);
    });

    it('stores only a hash and the display prefix, never the key', async () => {
      const { key, record } = await store.create('secret-check', 10);
      const dump = await backend.dumpStored();
      expect(dump).toContain(record.prefix);
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(key.slice(record.prefix.length));
    });

    it('gives distinct ids and keys', async () => {
      const made = await Promise.all([1, 2, 3, 4, 5].map((i) => store.create(`k${i}`, i)));
      expect(new Set(made.map((m) => m.key)).size).toBe(5);
      expect(new Set(made.map((m) => m.record.id)).size).toBe(5);
    });

    it('rejects unknown, malformed and tampered keys', async () => {
      const { key } = await store.create('tamper', 5);
      const last = key.at(-1) === 'A' ? 'B' : 'A';
      for (const bad of ['', 'qk_', 'nonsense', `${key.slice(0, -1)}${last}`, `${key}x`, key.toUpperCase()]) {
        expect(await store.verify(bad)).toBeNull();
      }
    });

    it('revokes: the other process stops accepting the key at once; listings keep it', async () => {
      const { record, key } = await store.create('to-revoke', 30);
      expect(await other.verify(key)).not.toBeNull();
      expect(await store.revoke(record.id)).toBe(true);
      expect(await other.verify(key)).toBeNull();
      expect(await store.verify(key)).toBeNull();
      expect(await other.revoke(record.id)).toBe(true);
      expect(await store.revoke('000000000000')).toBe(false);
      const listed = (await other.list()).find((r) => r.id === record.id);
      expect(listed?.revokedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(listed?.name).toBe('to-revoke');
    });

    it('lists every key oldest first', async () => {
      const a = await store.create('list-a', 1);
      await new Promise((r) => setTimeout(r, 5));
      const b = await other.create('list-b', 2);
      const ids = (await store.list()).map((r) => r.id);
      expect(ids).toContain(a.record.id);
      expect(ids.indexOf(a.record.id)).toBeLessThan(ids.indexOf(b.record.id));
    });

    it('validates the limit and the name', async () => {
      for (const limit of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 10_000_000]) {
        await expect(store.create('bad-limit', limit)).rejects.toBeInstanceOf(ValidationError);
      }
      for (const name of ['', '   ', 'x'.repeat(101), 'tab\there']) {
        await expect(store.create(name, 10)).rejects.toBeInstanceOf(ValidationError);
      }
    });
  });
}
