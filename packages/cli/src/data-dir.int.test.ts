import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BIN, canSwitchUser, NOBODY, requireBuiltCli, runCli } from './testing/run-cli.js';

/** What must never reach the user: raw errno names and SQLite's own words. */
const RAW = /\bE[A-Z]{3,}\b|SQLITE|unable to open database|readonly database/;
const DOC = '{"url":"https://a.example/1","title":"One","body_text":"The one good page.","lang":"en"}\n';

describe('a data dir quarry cannot use is a usage error naming it and why (exit 2)', () => {
  let dir: string;
  let docs: string;
  const quarry = (args: string[], options: { asNobody?: boolean } = {}) =>
    runCli(args, { LOG_LEVEL: 'silent' }, options.asNobody ? { as: NOBODY } : {});
  /** A data dir root filled (pages, index, keys, queue) in `beforeAll`, made there by `quarry import`. */
  let filled: string;
  /**
   * A copy of {@link filled}, still root's, opened to others' reading (`mode`; the dir quarry makes is
   * its owner's alone): another user may read it but not write. Copied, not filled again by two runs
   * of the CLI for each test.
   */
  const filledByRoot = (name: string, mode = 0o755): string => {
    const data = join(dir, name);
    cpSync(filled, data, { recursive: true, preserveTimestamps: true });
    chmodSync(data, mode);
    return data;
  };

  beforeAll(async () => {
    requireBuiltCli();
    dir = mkdtempSync(join(tmpdir(), 'quarry-data-dir-'));
    // Searchable by the unprivileged user, writable only by its owner.
    chmodSync(dir, 0o755);
    docs = join(dir, 'docs.jsonl');
    writeFileSync(docs, DOC);
    if (!canSwitchUser()) {
      console.warn('skipping the permission cases: they run the CLI as another user, which needs root');
    }
    // A missing dir, under a missing one, made by the import (its mode is checked below).
    filled = join(dir, 'made', 'data');
    expect((await quarry(['import', docs, '--data', filled])).code).toBe(0);
    expect((await quarry(['status', '--data', filled])).code).toBe(0);
  }, 120_000);
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  // Root may write anywhere, so the permission cases run the CLI as nobody; others skip them. Each
  // case has its own dir, so they run at once.
  const asNobody = canSwitchUser() ? it.concurrent : it.concurrent.skip;

  asNobody.each(['status', 'keys list', 'import DOCS', 'mcp'])(
    'quarry %s in a dir another user owns',
    async (command) => {
      const data = filledByRoot(`owned-${command.replace(/ /g, '-')}`);
      const args = command.split(' ').map((a) => (a === 'DOCS' ? docs : a));
      const run = await quarry([...args, '--data', data], { asNobody: true });
      expect(run.stderr.trim()).toBe(
        `quarry: QUARRY_DATA_DIR (or --data) "${data}" cannot be written (permission denied); ` +
          'Quarry writes there even to read (SQLite keeps a journal beside each database)',
      );
      expect(run.code).toBe(2);
      // Its path left out: a temporary dir's random name can read as an error code (`…-EGQXDH`).
      expect(run.stderr.replaceAll(data, '<data>')).not.toMatch(RAW);
    },
    120_000,
  );

  it('makes a missing data dir for its owner alone (0700), whatever the umask', () => {
    // Made by `quarry import` in beforeAll, and copied, never changed, since.
    expect(statSync(filled).mode & 0o777).toBe(0o700);
  });

  asNobody(
    'another user cannot read a data dir quarry made',
    async () => {
      const data = filledByRoot('private', 0o700);
      const run = await quarry(['status', '--data', data], { asNobody: true });
      expect(run.stderr.trim()).toMatch(
        /^quarry: QUARRY_DATA_DIR \(or --data\) ".*" cannot be read \(permission denied\)/,
      );
      expect(run.code).toBe(2);
    },
    120_000,
  );

  asNobody(
    'a dir anyone may write, holding files another user left (a first run with sudo): names them',
    async () => {
      // import and status leave blobs, index and queue.db (keys.db is made by the commands on keys).
      const data = filledByRoot('left-by-root');
      chmodSync(data, 0o777);
      const run = await quarry(['keys', 'create', '--name', 'agent', '--data', data], { asNobody: true });
      expect(run.stderr.trim()).toBe(
        `quarry: QUARRY_DATA_DIR (or --data) "${data}": blobs, index, index.users, queue.db cannot be written (permission denied)`,
      );
      expect(run.code).toBe(2);
    },
    120_000,
  );

  asNobody(
    'a dir that cannot be created says so, with the reason',
    async () => {
      const locked = join(dir, 'locked');
      mkdirSync(locked, { mode: 0o755 });
      const data = join(locked, 'data');
      const run = await quarry(['import', docs, '--data', data], { asNobody: true });
      expect(run.stderr.trim()).toBe(
        `quarry: QUARRY_DATA_DIR (or --data) "${data}" cannot be created: ${locked} cannot be written (permission denied)`,
      );
      expect(run.code).toBe(2);
    },
    120_000,
  );

  // /proc answers ENOENT to mkdir under a directory that exists, where Node 20's recursive
  // mkdirSync loops for ever: each command must say so and stop.
  const onLinux = existsSync('/proc/self') ? it.concurrent : it.concurrent.skip;
  onLinux.each(['status', 'serve', 'mcp', 'import DOCS', 'keys list'])(
    'quarry %s with a data dir the file system will not make stops with the reason',
    async (command) => {
      const args = command.split(' ').map((a) => (a === 'DOCS' ? docs : a));
      const run = await runCli(
        [...args, '--data', '/proc/quarry-test/data'],
        { LOG_LEVEL: 'silent' },
        { timeoutMs: 20_000 },
      );
      expect(run.stderr.trim()).toBe(
        'quarry: QUARRY_DATA_DIR (or --data) "/proc/quarry-test/data" cannot be created: ' +
          'making /proc/quarry-test failed (no such file or directory)',
      );
      expect(run.code).toBe(2);
    },
    60_000,
  );

  it("a damaged index fails with the engine's reason, not only that it cannot be opened (exit 1)", async () => {
    const data = join(dir, 'damaged');
    const versions = join(data, 'index', 'pages.lance', '_versions');
    mkdirSync(versions, { recursive: true });
    writeFileSync(join(versions, '1.manifest'), 'garbage\n');
    const run = await quarry(['status', '--data', data]);
    expect(run.stderr).toMatch(new RegExp(`^quarry: cannot open the search index at ${join(data, 'index')}: \\S`));
    expect(run.stderr).toContain('garbage');
    expect(run.code).toBe(1);
  }, 60_000);

  // Served all the same (an agent's config may come before the first crawl), with the reason on
  // stderr, which MCP clients show in their logs; stdin closed at once ends the server.
  const mcpWith = (data: string) =>
    spawnSync(process.execPath, [BIN, 'mcp', '--data', data], {
      input: '',
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent' },
    });

  it('quarry mcp warns of a dir that does not exist, and serves it created empty', () => {
    const typo = join(dir, 'dat');
    const run = mcpWith(typo);
    expect(run.stderr).toContain(
      `quarry: warning: QUARRY_DATA_DIR (or --data) "${typo}" did not exist: it was created empty, and every search finds nothing`,
    );
    expect(run.status).toBe(0);
  }, 120_000);

  it('quarry mcp warns of a dir with no pages in it', () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const run = mcpWith(empty);
    expect(run.stderr).toContain(`quarry: warning: QUARRY_DATA_DIR (or --data) "${empty}" holds no pages yet`);
    expect(run.status).toBe(0);
  }, 120_000);
});
