import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LanceSearchIndex } from './lance-index.js';

const CHILD = join(new URL('.', import.meta.url).pathname, 'testing/opener-child.mjs');
const PROCESSES = 8;
const run = promisify(execFile);

describe('a new index opened by several processes at once (a worker and the API started together)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-open-race-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('opens in every one of them', async () => {
    const path = join(dir, 'index');
    // Every process opens at the same moment, once all have started.
    const at = String(Date.now() + 3000);
    const outcomes = await Promise.all(
      Array.from({ length: PROCESSES }, () =>
        run(process.execPath, [CHILD, path, at]).then(
          ({ stdout }) => stdout.trim(),
          (error: { stdout?: string }) => error.stdout?.trim() ?? String(error),
        ),
      ),
    );
    expect(outcomes).toEqual(Array(PROCESSES).fill('opened'));
    const index = await LanceSearchIndex.open({ path, autoMaintain: false });
    try {
      await expect(index.count()).resolves.toBe(0);
    } finally {
      await index.close();
    }
  }, 120_000);

  it('waits out a table that another process has begun to create (its folder there, no version yet)', async () => {
    const path = join(dir, 'half-created');
    // What a process creating the table leaves for a moment: the table's folder, listed as a table.
    mkdirSync(join(path, 'pages.lance'), { recursive: true });
    const opening = LanceSearchIndex.open({ path, autoMaintain: false });
    // The other process "gives up" (or finishes) a little later: the folder goes.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    rmSync(join(path, 'pages.lance'), { recursive: true, force: true });
    const index = await opening;
    try {
      await expect(index.count()).resolves.toBe(0);
    } finally {
      await index.close();
    }
  }, 60_000);
});
