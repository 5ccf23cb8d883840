import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

const ROOT = join(new URL('.', import.meta.url).pathname, '../../..');
const CHILD = join(new URL('.', import.meta.url).pathname, 'testing/writer-child.mjs');

describe('a writer killed with SIGKILL', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(join(ROOT, 'packages/index-lance/dist/index.js'))) throw new Error('run `npm run build` first');
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-crash-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loses nothing it acknowledged, while a reader in another process keeps answering', async () => {
    // The writer creates the index; the reader opens it once it exists.
    const child = spawn(process.execPath, [CHILD, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let acked = 0;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      for (const match of chunk.matchAll(/ack (\d+)/g)) acked = Math.max(acked, Number(match[1]));
    });
    while (acked < 100) await new Promise((r) => setTimeout(r, 20));
    const reader = await LanceSearchIndex.open({ path: dir, autoMaintain: false, readConsistencySecs: 0 });
    try {
      // Search while the writer writes and folds (it folds every 200 pages here), then kill it mid-stream.
      let searches = 0;
      while (acked < 1000) {
        const result = await reader.search({ query: parseQuery('acknowledged'), limit: 10, offset: 0 });
        expect(result.hits.length).toBe(10);
        searches++;
      }
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      expect(searches).toBeGreaterThan(0);

      const survivor = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
      try {
        expect(await survivor.count()).toBeGreaterThanOrEqual(acked);
        for (const n of [0, Math.floor(acked / 2), acked - 1]) {
          expect(await survivor.has(`doc${n}`)).toBe(true);
          const found = await survivor.search({ query: parseQuery(`crashmark${n}`), limit: 10, offset: 0 });
          expect(found.hits.map((h) => h.id)).toEqual([`doc${n}`]);
        }
        // And the index still takes writes and folds after the crash.
        await survivor.upsert([
          {
            id: 'doc0',
            url: 'https://crash.example.org/0',
            title: 'Page 0',
            body_text: 'Rewritten after the crash.',
            lang: 'en',
            author: null,
            published_at: null,
            crawled_at: '2026-11-02T00:00:00Z',
            site_name: null,
            has_llms_txt: false,
            filetype: 'html',
            domain: 'crash.example.org',
            word_count: 4,
          },
        ]);
        await survivor.flush();
        const after = await survivor.search({ query: parseQuery('"after the crash"'), limit: 10, offset: 0 });
        expect(after.hits.map((h) => h.id)).toEqual(['doc0']);
      } finally {
        await survivor.close();
      }
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await reader.close();
    }
  }, 120_000);
});
