import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makePage } from '@quarry/index-contract';
import { parseQuery } from '@quarry/query';
import { CJK_PAIRS_FILE, CjkPairs } from './cjk-pairs.js';
import { LanceSearchIndex } from './lance-index.js';

describe('CjkPairs', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-cjk-pairs-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the pairs written, by first character, to instances opened before and after', () => {
    const writer = CjkPairs.open(dir, true);
    const before = CjkPairs.open(dir, false);
    expect(before.complete).toBe(true);
    expect(before.pairsOf('记')).toEqual(['记']);
    writer.record(['记者 记录 ¶ report 者说', 'plain english text only']);
    expect(before.pairsOf('记')!.sort()).toEqual(['记', '记者', '记录'].sort());
    expect(before.pairsOf('者')).toEqual(['者', '者说']);
    const after = CjkPairs.open(dir, false);
    expect(after.pairsOf('记')!.sort()).toEqual(['记', '记者', '记录'].sort());
    // A pair known already is not appended again.
    const size = readFileSync(join(dir, CJK_PAIRS_FILE), 'utf8').length;
    after.record(['记者 记录']);
    expect(readFileSync(join(dir, CJK_PAIRS_FILE), 'utf8').length).toBe(size);
  });

  it('reads a line being appended once it is whole, and loses no token of a line left unended', () => {
    const writer = CjkPairs.open(dir, true);
    const reader = CjkPairs.open(dir, false);
    // A writer stopped halfway through its append.
    appendFileSync(join(dir, CJK_PAIRS_FILE), '\n记忆 记号');
    expect(reader.pairsOf('记')).toEqual(['记']);
    writer.record(['记者']);
    expect(reader.pairsOf('记')!.sort()).toEqual(['记', '记号', '记忆', '记者'].sort());
  });

  it('knows nothing of an index that held pages before the file, and does not start one there', () => {
    const pairs = CjkPairs.open(dir, false);
    expect(pairs.complete).toBe(false);
    expect(pairs.pairsOf('记')).toBeNull();
    expect(pairs.notice()).toMatch(/before the list existed.*quarry reindex/);
    pairs.record(['记者']);
    expect(existsSync(join(dir, CJK_PAIRS_FILE))).toBe(false);
  });

  it('stops using a list deleted, emptied or replaced, and never makes it anew for a writer', () => {
    const file = join(dir, CJK_PAIRS_FILE);
    for (const change of ['deleted', 'emptied', 'replaced'] as const) {
      rmSync(file, { force: true });
      const writer = CjkPairs.open(dir, true);
      const reader = CjkPairs.open(dir, false);
      writer.record(['记者']);
      expect(reader.pairsOf('记')).toEqual(['记', '记者']);
      expect(reader.notice()).toBeNull();
      if (change === 'deleted') rmSync(file);
      else if (change === 'emptied') writeFileSync(file, '');
      // Another list (another index's, or one made for an empty table) in its place.
      else {
        rmSync(file);
        CjkPairs.open(dir, true);
      }
      // The writer's next pairs: appended to no new file, and what is at the path is taken away,
      // so that no process opening the index later reads it as the list.
      writer.record(['记录']);
      expect([change, existsSync(file)]).toEqual([change, false]);
      for (const pairs of [reader, writer, CjkPairs.open(dir, false)]) {
        expect([change, pairs.pairsOf('记')]).toEqual([change, null]);
        expect(pairs.notice()).toMatch(/quarry reindex/);
      }
    }
  });

  it('lists pairs only, not a lone character beyond the first plane', () => {
    const pairs = CjkPairs.open(dir, true);
    pairs.record(['𠀀 𠀀𠀂 记𠀀']);
    expect(pairs.pairsOf('𠀀')).toEqual(['𠀀', '𠀀𠀂']);
    expect(pairs.pairsOf('记')).toEqual(['记', '记𠀀']);
  });
});

describe('one-character searches with the listed pairs', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-cjk-pairs-index-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const ids = async (index: LanceSearchIndex, q: string) =>
    (await index.search({ query: parseQuery(q), limit: 10, offset: 0 })).hits.map((hit) => hit.id).sort();
  const page = (id: string, body: string) =>
    makePage(id, `https://zh.example.cn/${id}`, `标题${id}`, body, { lang: 'zh' });

  it('finds pages another instance wrote after this one had searched, folded or not', async () => {
    const reader = await LanceSearchIndex.open({ path: dir, autoMaintain: false, readConsistencySecs: 0 });
    const writer = await LanceSearchIndex.open({ path: dir, autoMaintain: false, readConsistencySecs: 0 });
    try {
      await writer.upsert([page('a', '记者今天报道了新闻。')]);
      await writer.flush();
      expect(await ids(reader, '记')).toEqual(['a']);
      // Pairs the reader has not seen: `记录`, `记忆`, the second page's not folded yet.
      await writer.upsert([page('b', '这是一份会议记录。')]);
      await writer.flush();
      await writer.upsert([page('c', '美好的记忆留在心里。')]);
      expect(await ids(reader, '记')).toEqual(['a', 'b', 'c']);
      expect(await ids(reader, 'intitle:题')).toEqual(['a', 'b', 'c']);
      expect(await ids(reader, '记 -者')).toEqual(['b', 'c']);
    } finally {
      await Promise.all([reader.close(), writer.close()]);
    }
  });

  it('asks every pair of an index written before the list, which it does not start', async () => {
    const first = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    await first.upsert([page('a', '记者今天报道了新闻。'), page('b', '这是一份会议记录。')]);
    await first.flush();
    await first.close();
    // As an earlier release left it: pages, no list.
    rmSync(join(dir, CJK_PAIRS_FILE));
    const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    try {
      await index.upsert([page('c', '美好的记忆留在心里。')]);
      expect(await ids(index, '记')).toEqual(['a', 'b', 'c']);
      expect(existsSync(join(dir, CJK_PAIRS_FILE))).toBe(false);
      expect(index.notices()).toEqual([expect.stringMatching(/character pairs.*quarry reindex/)]);
    } finally {
      await index.close();
    }
  });

  it('excludes with a filter alone every page a character finds', async () => {
    // `记㐀`: a pair with an ideograph of Extension A, which the pairs a character may begin leave out.
    const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
    try {
      await index.upsert([
        page('a', '记者今天报道了新闻。'),
        page('b', '古籍里写着记㐀二字。'),
        page('c', '其他的新闻。'),
      ]);
      for (const fold of [false, true]) {
        if (fold) await index.flush();
        expect(await ids(index, '记')).toEqual(['a', 'b']);
        expect(await ids(index, 'site:zh.example.cn -记')).toEqual(['c']);
      }
    } finally {
      await index.close();
    }
  });
});
