import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

const ROOT = join(new URL('.', import.meta.url).pathname, '../../..');
const CHILD = join(new URL('.', import.meta.url).pathname, 'testing/quiet-child.mjs');

describe("the engine's log", () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(join(ROOT, 'packages/index-lance/dist/index.js'))) throw new Error('run `npm run build` first');
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-quiet-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stays quiet on searches whose totals are estimated, a lone Chinese character among them', async () => {
    // Lance logs a deprecation warning on stderr for each full-text search that selects columns
    // without `_score`: a server's log, once per search of a lone Chinese character.
    const child = spawn(process.execPath, [CHILD, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    const totals = new Map(
      out
        .trim()
        .split('\n')
        .map((line) => [line.split('\t')[0], line.split('\t').slice(1)]),
    );
    expect(totals.size).toBe(6);
    // The estimated path ran: past five matches, counted in the sample.
    expect(totals.get('记')?.[1]).toBe('true');
    expect(err).not.toMatch(/WARN|Deprecation/);
  }, 60_000);
});
