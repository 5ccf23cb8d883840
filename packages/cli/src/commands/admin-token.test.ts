import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '@quarry/core';
import { adminTokenFor, withStoredAdminToken } from './admin-token.js';

describe('the admin token stored in the data dir', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-admin-token-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const config = () => loadConfig({ QUARRY_DATA_DIR: dir });

  it('is read without the whitespace around it', () => {
    writeFileSync(join(dir, 'admin-token'), '  0f3a9c17e2b4d685a1\n');
    expect(withStoredAdminToken(config()).adminToken).toBe('0f3a9c17e2b4d685a1');
    expect(adminTokenFor(config()).value).toBe('0f3a9c17e2b4d685a1');
  });

  // A file edited by hand: the token it holds could open the login form and never be a bearer.
  it('is checked as QUARRY_ADMIN_TOKEN is, the error naming the file', () => {
    const file = join(dir, 'admin-token');
    for (const [content, expected] of [
      ['0f3a9c17 e2b4d685a1\n', 'expected no space or other whitespace inside'],
      ['0f3a9c17\n', 'expected at least 16 characters'],
    ] as const) {
      writeFileSync(file, content);
      for (const read of [() => withStoredAdminToken(config()), () => adminTokenFor(config())]) {
        expect(read).toThrow(ConfigError);
        expect(read).toThrow(`${file} (the admin token): ${expected}`);
      }
    }
    // QUARRY_ADMIN_TOKEN, when set, is the token: the file is not read.
    const given = loadConfig({ QUARRY_DATA_DIR: dir, QUARRY_ADMIN_TOKEN: 'a-given-token-0123456789' });
    expect(withStoredAdminToken(given).adminToken).toBe('a-given-token-0123456789');
  });
});
