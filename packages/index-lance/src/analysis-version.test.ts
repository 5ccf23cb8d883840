import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { ANALYSIS_CHANGES, ANALYSIS_FILE, ANALYSIS_VERSION } from './analysis-version.js';
import { LanceSearchIndex } from './lance-index.js';

const PAGE = makePage('p1', 'https://a.example/1', 'Robots', 'How a crawler reads robots.txt.');

describe('the analysis version an index records', () => {
  let dir: string;
  const open = () => LanceSearchIndex.open({ path: dir, autoMaintain: false });
  const writePage = async () => {
    const index = await open();
    await index.upsert([PAGE]);
    await index.close();
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-analysis-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is this release’s in a new index, which has nothing to report', async () => {
    await writePage();
    expect(JSON.parse(readFileSync(join(dir, ANALYSIS_FILE), 'utf8'))).toEqual({ version: ANALYSIS_VERSION });
    const index = await open();
    expect(index.notices()).toEqual([]);
    await index.close();
  });

  it('makes an index of pages analysed by an earlier release say what they miss and how to fix it, and still serve them', async () => {
    await writePage();
    // What a release before the record leaves: pages and no record.
    rmSync(join(dir, ANALYSIS_FILE));
    const index = await open();
    try {
      const [notice, ...rest] = index.notices();
      expect(rest).toEqual([]);
      expect(notice).toContain(dir);
      expect(notice).toContain(ANALYSIS_CHANGES[0]?.change);
      expect(notice).toMatch(/run: quarry reindex$/);
      const found = await index.search({ query: parseQuery('robots'), match: 'all', limit: 10, offset: 0 });
      expect(found.hits.map((hit) => hit.id)).toEqual(['p1']);
      // Writing new pages does not make the old ones current.
      await index.upsert([{ ...PAGE, id: 'p2', url: 'https://a.example/2' }]);
    } finally {
      await index.close();
    }
    expect(existsSync(join(dir, ANALYSIS_FILE))).toBe(false);
    const again = await open();
    expect(again.notices()).toHaveLength(1);
    await again.close();
  });

  it('reports only the changes after the recorded version, and treats an unreadable record as the oldest', async () => {
    await writePage();
    writeFileSync(join(dir, ANALYSIS_FILE), JSON.stringify({ version: ANALYSIS_VERSION }));
    let index = await open();
    expect(index.notices()).toEqual([]);
    await index.close();
    writeFileSync(join(dir, ANALYSIS_FILE), '{"version": "two"');
    index = await open();
    expect(index.notices()).toHaveLength(1);
    await index.close();
  });

  it('is recorded as current for an existing index that holds no page', async () => {
    await (await open()).close();
    rmSync(join(dir, ANALYSIS_FILE));
    const index = await open();
    expect(index.notices()).toEqual([]);
    await index.close();
    expect(existsSync(join(dir, ANALYSIS_FILE))).toBe(true);
  });
});
