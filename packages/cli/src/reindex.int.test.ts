import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { thisProcess } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import { parseQuery } from '@quarry/query';
import { spawnCli } from './testing/run-cli.js';

const ROOT = join(new URL('.', import.meta.url).pathname, '../../..');
const BIN = join(ROOT, 'packages/cli/bin/quarry.js');
const DOCS = 120;
/** Each test starts the CLI two or three times; a loaded CI machine takes seconds per start. */
const TIMEOUT_MS = 120_000;

describe('quarry import, and quarry reindex after an upgrade', () => {
  let dir: string;
  const quarry = (...args: string[]) =>
    spawnSync(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, QUARRY_DATA_DIR: dir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
  const search = async (q: string, match: 'all' | 'any' = 'all') => {
    const index = await LanceSearchIndex.open({ path: join(dir, 'index'), autoMaintain: false });
    try {
      return await index.search({ query: parseQuery(q), match, limit: 10, offset: 0 });
    } finally {
      await index.close();
    }
  };

  beforeAll(() => {
    if (!existsSync(join(ROOT, 'packages/cli/dist/main.js'))) throw new Error('run `npm run build` first');
    dir = mkdtempSync(join(tmpdir(), 'quarry-reindex-'));
    const lines = Array.from({ length: DOCS }, (_, i) =>
      JSON.stringify({
        url: `https://docs.example.org/guide/${i}`,
        title: `Guide chapter ${i}`,
        body_text: `Chapter ${i} explains how the crawler handles robots.txt files and sitemaps. Token t${i}x.`,
        lang: 'en',
      }),
    );
    writeFileSync(join(dir, 'docs.jsonl'), `${lines.join('\n')}\n`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'imports into a fully indexed LanceDB index, found by a stemmed plain-language question',
    async () => {
      const run = quarry('import', join(dir, 'docs.jsonl'));
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/imported 120 documents, 0 lines failed/);
      const result = await search('how does the crawler handle robots.txt', 'any');
      expect(result.total).toBe(DOCS);
      expect((await search('"handle robots.txt" t7x')).hits.map((h) => h.url)).toEqual([
        'https://docs.example.org/guide/7',
      ]);
    },
    TIMEOUT_MS,
  );

  it(
    'refuses to swap the index under a process that has it open, and is waited for by the others',
    async () => {
      const serve = spawnCli(['serve'], { QUARRY_DATA_DIR: dir, PORT: '0', QUARRY_HOST: '127.0.0.1' });
      try {
        const base = await serve.listening(60_000);
        const refused = quarry('reindex');
        expect(refused.status).toBe(2);
        expect(refused.stderr).toBe(
          `quarry reindex: quarry serve (pid ${serve.child.pid}) has the index in ${dir} open; stop it first\n`,
        );
        // The running API still finds the pages: the index was left where it was.
        const found = (await (await fetch(`${base}/api/v1/search?q=t7x`)).json()) as { total: number };
        expect(found.total).toBe(1);
      } finally {
        expect(await serve.stop()).toBe(0);
      }
      // A process killed without unregistering (its PID gone) holds nothing back.
      const users = join(dir, 'index.users');
      mkdirSync(users, { recursive: true });
      // Past Linux's largest PID (2^22), so no process has it.
      writeFileSync(join(users, 'stale'), JSON.stringify({ ...thisProcess(), pid: 2 ** 22 + 1, command: 'start' }));
      const rebuilt = quarry('reindex');
      expect(rebuilt.stderr).not.toContain('open');
      expect(rebuilt.status).toBe(0);
      expect(readdirSync(users)).toEqual([]);
      // While a reindex runs (this test's own process, registered as one), others wait for it.
      writeFileSync(join(users, 'running'), JSON.stringify({ ...thisProcess(), command: 'reindex' }));
      const waiting = quarry('status');
      expect(waiting.status).toBe(2);
      expect(waiting.stderr).toBe(
        `quarry: quarry reindex (pid ${process.pid}) is rebuilding the index in ${dir}; run this when it ends\n`,
      );
      rmSync(join(users, 'running'));
      expect(quarry('status').status).toBe(0);
    },
    TIMEOUT_MS,
  );

  it(
    'refuses a data dir of an earlier release with the command that fixes it, and the command rebuilds it',
    async () => {
      rmSync(join(dir, 'index'), { recursive: true, force: true });
      writeFileSync(join(dir, 'index.db'), 'an FTS5 index of an earlier release');
      const refused = quarry('import', join(dir, 'docs.jsonl'));
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(`quarry reindex --data ${dir}`);

      const rebuilt = quarry('reindex');
      expect(rebuilt.status).toBe(0);
      expect(rebuilt.stdout).toMatch(/reindexed 120 pages/);
      expect(existsSync(join(dir, 'index.db'))).toBe(false);
      expect((await search('t42x')).hits.map((h) => h.url)).toEqual(['https://docs.example.org/guide/42']);
    },
    TIMEOUT_MS,
  );

  it(
    'says when the index holds pages analysed by an earlier release, until quarry reindex reads them again',
    async () => {
      // A release before the analysis record leaves no record beside its pages.
      rmSync(join(dir, 'index', 'analysis.json'));
      const status = quarry('status');
      expect(status.status).toBe(0);
      expect(status.stdout).toMatch(
        /^notice: the search index at .* holds pages analysed by an earlier release.*quarry reindex$/m,
      );
      expect(JSON.parse(quarry('status', '--json').stdout).notices).toHaveLength(1);
      const imported = quarry('import', join(dir, 'docs.jsonl'));
      expect(imported.status).toBe(0);
      expect(imported.stderr).toMatch(/^quarry: the search index at .*quarry reindex$/m);

      expect(quarry('reindex').status).toBe(0);
      const after = quarry('status', '--json');
      expect(JSON.parse(after.stdout)).toMatchObject({ documents: DOCS, notices: [] });
      expect(quarry('status').stdout).not.toContain('notice:');
    },
    TIMEOUT_MS,
  );
});
