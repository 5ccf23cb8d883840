import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LanceSearchIndex } from '@quarry/index-lance';
import { parseQuery } from '@quarry/query';

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
