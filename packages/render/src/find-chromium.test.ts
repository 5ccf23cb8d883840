import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { findChromium } from './find-chromium.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-find-chromium-'));
const empty = mkdtempSync(join(tmpdir(), 'quarry-find-chromium-empty-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

function fakeBinary(name: string, mode: number): string {
  const path = join(dir, name);
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, mode);
  return path;
}

describe('findChromium', () => {
  it('returns an explicit executable path, and null when it is not executable', () => {
    const good = fakeBinary('my-chrome', 0o755);
    const bad = fakeBinary('not-executable', 0o644);
    expect(findChromium(good)).toBe(good);
    expect(findChromium(bad)).toBeNull();
    expect(findChromium(join(dir, 'missing'))).toBeNull();
  });

  it('searches the given directories by name, chromium first', () => {
    const chrome = fakeBinary('google-chrome', 0o755);
    expect(findChromium(undefined, [empty, dir])).toBe(chrome);
    const chromium = fakeBinary('chromium', 0o755);
    expect(findChromium(undefined, [empty, dir])).toBe(chromium);
    expect(findChromium(undefined, [empty])).toBeNull();
  });
});
