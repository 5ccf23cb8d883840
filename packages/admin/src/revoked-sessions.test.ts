import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { FileRevokedSessions, MAX_REVOKED_SESSIONS, MemoryRevokedSessions } from './revoked-sessions.js';

const HOUR_MS = 3_600_000;

describe('FileRevokedSessions', () => {
  let dir: string;
  let file: string;
  let now: number;
  const clock = () => now;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-revoked-'));
    file = join(dir, 'admin-logouts.json');
    now = 1_800_000_000_000;
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a revocation across a restart, in a file for its owner alone holding ids and expiries only', () => {
    new FileRevokedSessions(file, { now: clock }).add('nonce-a', now + HOUR_MS);
    const restarted = new FileRevokedSessions(file, { now: clock });
    expect(restarted.has('nonce-a')).toBe(true);
    expect(restarted.has('nonce-b')).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      revoked: { 'nonce-a': (now + HOUR_MS) / 1000 },
    });
  });

  it('sees the revocations of another process sharing the file, and keeps both', () => {
    const one = new FileRevokedSessions(file, { now: clock });
    const other = new FileRevokedSessions(file, { now: clock });
    one.add('nonce-a', now + HOUR_MS);
    expect(other.has('nonce-a')).toBe(true);
    other.add('nonce-b', now + HOUR_MS);
    expect(one.has('nonce-b')).toBe(true);
    expect(new FileRevokedSessions(file, { now: clock }).has('nonce-a')).toBe(true);
  });

  it('drops the revocations of sessions expired since, at the next write', () => {
    const revoked = new FileRevokedSessions(file, { now: clock });
    revoked.add('short', now + 1000);
    revoked.add('long', now + HOUR_MS);
    now += 2000;
    revoked.add('later', now + HOUR_MS);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).revoked).sort()).toEqual(['later', 'long']);
  });

  it('starts afresh from a file that is not its own, and says so', () => {
    writeFileSync(file, 'not json');
    const errors: unknown[] = [];
    const revoked = new FileRevokedSessions(file, { now: clock, onError: (err) => errors.push(err) });
    expect(revoked.has('x')).toBe(false);
    expect(errors).toHaveLength(1);
    revoked.add('nonce-a', now + HOUR_MS);
    expect(new FileRevokedSessions(file, { now: clock }).has('nonce-a')).toBe(true);
  });

  it('holds a revocation in memory when the file cannot be written, and says why', () => {
    const errors: unknown[] = [];
    const unwritable = join(dir, 'no-such-dir', 'admin-logouts.json');
    const revoked = new FileRevokedSessions(unwritable, { now: clock, onError: (err) => errors.push(err) });
    revoked.add('nonce-a', now + HOUR_MS);
    expect(revoked.has('nonce-a')).toBe(true);
    expect(errors).toEqual([expect.objectContaining({ code: 'ENOENT' })]);
  });
});

describe('MemoryRevokedSessions', () => {
  it('forgets the oldest beyond its bound', () => {
    const now = 1_800_000_000_000;
    const revoked = new MemoryRevokedSessions(() => now);
    for (let i = 0; i <= MAX_REVOKED_SESSIONS; i++) revoked.add(`n${i}`, now + HOUR_MS + i);
    expect(revoked.has('n0')).toBe(false);
    expect(revoked.has(`n${MAX_REVOKED_SESSIONS}`)).toBe(true);
  });
});
