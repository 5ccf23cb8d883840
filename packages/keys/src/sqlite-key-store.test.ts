import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from '@jest/globals';
import { keyStoreContract } from './key-store.contract.js';
import { SqliteKeyStore } from './sqlite-key-store.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

keyStoreContract('SQLite', async () => {
  const path = join(dir, 'sub', 'keys.db');
  return {
    open: async () => new SqliteKeyStore({ path }),
    // The main file plus the WAL, where fresh writes live before a checkpoint.
    dumpStored: async () =>
      readdirSync(join(dir, 'sub'))
        .map((f) => readFileSync(join(dir, 'sub', f)).toString('latin1'))
        .join('\n'),
  };
});
