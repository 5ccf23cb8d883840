import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { IndexQuery } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import { LanceSearchIndex } from './lance-index.js';

const ROOT = join(new URL('.', import.meta.url).pathname, '../../..');
const CHILD = join(new URL('.', import.meta.url).pathname, 'testing/page-writer-child.mjs');
/** Past the readers' read-consistency interval (1 s, as `quarry serve` opens the index). */
const PAST_INTERVAL_MS = 1100;
const ROUNDS = 4;

/** The writer's answer to the next message it sends. */
function answer(child: ChildProcess): Promise<unknown> {
  return new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the writer exited (${code})`)));
  });
}

describe('pages another process wrote', () => {
  let dir: string;
  let writer: ChildProcess;
  // Opened before anything is written, as `quarry serve` beside `quarry worker --role index`.
  let searched: LanceSearchIndex;
  let fresh: LanceSearchIndex;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'packages/index-lance/dist/index.js'))) throw new Error('run `npm run build` first');
    dir = mkdtempSync(join(tmpdir(), 'quarry-lance-other-writer-'));
    searched = await LanceSearchIndex.open({ path: dir });
    fresh = await LanceSearchIndex.open({ path: dir });
    writer = fork(CHILD, [dir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
    await answer(writer);
  }, 30_000);

  afterAll(async () => {
    if (writer?.connected) {
      const exited = new Promise((resolve) => writer.once('exit', resolve));
      writer.disconnect();
      await exited;
    }
    await Promise.all([searched?.close(), fresh?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const written: number[] = [];
  const write = async (pages: number[]) => {
    const done = answer(writer);
    writer.send({ pages });
    await done;
    written.push(...pages);
  };
  const found = async (index: LanceSearchIndex, query: Omit<IndexQuery, 'limit' | 'offset'>) =>
    (await index.search({ limit: 10, offset: 0, ...query })).hits.map((hit) => hit.id);

  it('are found by the first search a read-consistency interval after the write resolved', async () => {
    await write([0]);
    await new Promise((resolve) => setTimeout(resolve, PAST_INTERVAL_MS));
    expect(await found(searched, { query: parseQuery('marker0') })).toEqual(['doc0']);
    // Each later write moves the version of a reader whose fresh tier holds the earlier pages: it
    // answered from that tier until a search had brought it to the new version (a page missed by
    // the first search, however long after the write).
    for (let round = 1; round <= ROUNDS; round++) {
      const pages = [2 * round - 1, 2 * round];
      await write(pages);
      await new Promise((resolve) => setTimeout(resolve, PAST_INTERVAL_MS));
      const [word, phrase, preferred, all] = [
        await found(searched, { query: parseQuery(`marker${pages[0]}`) }),
        await found(searched, { query: parseQuery(`"report marker${pages[1]}"`) }),
        await found(searched, { query: parseQuery(`marker${pages[0]}`), langPriority: 'de' }),
        await searched.search({ query: parseQuery('surveyor'), limit: 10, offset: 0 }),
      ];
      expect({ round, word, phrase, preferred, total: all.total }).toEqual({
        round,
        word: [`doc${pages[0]}`],
        phrase: [`doc${pages[1]}`],
        preferred: [`doc${pages[0]}`],
        total: 2 * round + 1,
      });
    }
  }, 30_000);

  it('are found by a reader that searches for the first time', async () => {
    expect(written.length).toBeGreaterThan(0);
    for (const n of written) expect(await found(fresh, { query: parseQuery(`marker${n}`) })).toEqual([`doc${n}`]);
  });
});
