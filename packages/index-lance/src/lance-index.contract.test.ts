import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PageDocument } from '@quarry/core';
import { describeRankingQuality, describeSearchIndexContract } from '@quarry/index-contract';
import { LanceSearchIndex } from './lance-index.js';

/** A fresh index; `fold` makes every write fold at once (pages otherwise stay unindexed: no background maintenance). */
const opener = (fold: boolean) => async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-lance-'));
  const index = await LanceSearchIndex.open({ path: dir, autoMaintain: false });
  if (fold) {
    const upsert = index.upsert.bind(index);
    index.upsert = async (docs: readonly PageDocument[]) => {
      await upsert(docs);
      await index.flush();
    };
  }
  return {
    index,
    cleanup: async () => {
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

// Every behaviour holds both for pages still waiting for a fold (found by flat scan, phrases checked
// by Quarry) and for folded ones (the engine's indexes).
describeSearchIndexContract('lance, unindexed pages', opener(false));
describeSearchIndexContract('lance, folded pages', opener(true));

describeRankingQuality('lance cranfield', opener(true), {
  dir: new URL('../../../../shared/testdata/ir/cranfield', import.meta.url).pathname,
  minNdcgAt10: 0.3,
});
