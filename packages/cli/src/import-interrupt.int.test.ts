import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BIN, requireBuiltCli, runCli } from './testing/run-cli.js';

/** Documents written at a time (`--batch-size`; 5,000 by default, which only makes the file bigger). */
const BATCH = 1000;
/**
 * Five batches, the last one short: an interruption while the first is written stops the import at
 * one or two batches (the batch started behind it is finished too), both fewer than the file holds.
 * The terminal case's Ctrl-C comes once the first is written: the import must still be reading then,
 * not writing its last batch (which it finishes as a whole import). Three full batches more are
 * written before that (each batch waits for the one before it), room for a loaded machine; with only
 * one, a Ctrl-C on a loaded machine came during the last batch.
 */
const DOCS = 4.5 * BATCH;
/** Words of a document's body: enough for a batch to take a moment to write. */
const BODY_WORDS = 100;
/** What a shell reports for a command stopped by SIGINT (128 + 2). */
const SIGINT_EXIT = 130;
const INTERRUPTED =
  /^interrupted: (\d+) documents? imported, 0 lines failed; run the same command again to finish \(a URL imported again replaces its document\)$/m;
const WORDS = 'river stone garden lamp winter paper bridge cloud orange violin harbour meadow'.split(' ');

/** The child's exit code once it exits, and a wait for `check` that also ends then. */
function watch(child: ChildProcess): { code: Promise<number | null>; until(check: () => boolean): Promise<void> } {
  let running = true;
  const code = new Promise<number | null>((resolve) =>
    child.once('exit', (exitCode) => {
      running = false;
      resolve(exitCode);
    }),
  );
  return {
    code,
    async until(check) {
      while (running && !check()) await new Promise((resolve) => setTimeout(resolve, 20));
    },
  };
}

describe('quarry import, interrupted with Ctrl-C, then run again', () => {
  let dir: string;
  let file: string;
  const env = (data: string): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    QUARRY_DATA_DIR: data,
    LOG_LEVEL: 'silent',
  });
  const documents = async (data: string): Promise<number> =>
    JSON.parse((await runCli(['status', '--json'], env(data))).stdout).documents;

  beforeAll(() => {
    requireBuiltCli();
    dir = mkdtempSync(join(tmpdir(), 'quarry-import-interrupt-'));
    file = join(dir, 'docs.jsonl');
    const lines = Array.from({ length: DOCS }, (_, i) => {
      const body = Array.from({ length: BODY_WORDS }, (_, w) => WORDS[(i * 7 + w * w) % WORDS.length]).join(' ');
      return JSON.stringify({ url: `https://docs.example/${i}`, title: `Doc ${i}`, body_text: `${body} doc${i}` });
    });
    writeFileSync(file, `${lines.join('\n')}\n`);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** `quarry import` into `data`, sent `signal` once its first batch is being written. */
  const interruptedImport = async (data: string, signal: NodeJS.Signals) => {
    const child = spawn(process.execPath, [BIN, 'import', file, '--batch-size', String(BATCH)], { env: env(data) });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.resume();
    const { code, until } = watch(child);
    // The first batch is being written once the blob store exists.
    await until(() => existsSync(join(data, 'blobs')));
    child.kill(signal);
    return { code: await code, imported: Number(INTERRUPTED.exec(stdout)?.[1]) };
  };

  it('exits 130 saying how many documents it imported and that running it again finishes', async () => {
    const data = join(dir, 'plain');
    const { code, imported } = await interruptedImport(data, 'SIGINT');
    expect(code).toBe(SIGINT_EXIT);
    expect(imported).toBeLessThan(DOCS);
    // Whole batches: the one being written when the signal came (and one started behind it).
    expect([BATCH, 2 * BATCH]).toContain(imported);
    expect(await documents(data)).toBe(imported);

    const again = await runCli(['import', file, '--batch-size', String(BATCH)], env(data));
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^imported ${DOCS} documents, 0 lines failed`, 'm'));
    expect(await documents(data)).toBe(DOCS);
  }, 180_000);

  it('stops the same way on SIGTERM (Docker, systemd, timeout), exiting 143', async () => {
    const data = join(dir, 'terminated');
    const { code, imported } = await interruptedImport(data, 'SIGTERM');
    expect(code).toBe(128 + 15);
    expect(imported).toBeLessThan(DOCS);
    // Whole batches: the one being written when the signal came (and one started behind it).
    expect([BATCH, 2 * BATCH]).toContain(imported);
    expect(await documents(data)).toBe(imported);
  }, 180_000);

  // On a terminal the progress bar hides the cursor and turns line wrapping off; `script` gives
  // the command a terminal, and Ctrl-C typed into it reaches the command as on a desktop.
  const onTerminal = spawnSync('script', ['--version']).status === 0 ? it : it.skip;
  onTerminal(
    'on a terminal, gives the cursor and line wrapping back',
    async () => {
      const data = join(dir, 'terminal');
      const command = `'${process.execPath}' '${BIN}' import '${file}' --batch-size ${BATCH}`;
      const child = spawn('script', ['-qfec', command, '/dev/null'], { env: env(data) });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.resume();
      const { code, until } = watch(child);
      await until(() => /[1-9]\d* docs\b/.test(output));
      child.stdin.write('\x03');
      expect(await code).toBe(SIGINT_EXIT);
      expect(output).toMatch(INTERRUPTED);
      // Each escape that hides the cursor or stops wrapping is followed by the one undoing it.
      expect(output.lastIndexOf('\x1b[?25h')).toBeGreaterThan(output.lastIndexOf('\x1b[?25l'));
      expect(output.lastIndexOf('\x1b[?7h')).toBeGreaterThan(output.lastIndexOf('\x1b[?7l'));
    },
    180_000,
  );
});
