import { describeRankingQuality, describeSearchIndexContract } from '@quarry/index-contract';
import { SqliteSearchIndex } from './sqlite-index.js';

const open = async () => {
  const index = SqliteSearchIndex.open({ path: ':memory:' });
  return { index, cleanup: () => index.close() };
};

describeSearchIndexContract('sqlite', open);

describeRankingQuality('sqlite cranfield', open, {
  dir: new URL('../../../../shared/testdata/ir/cranfield', import.meta.url).pathname,
  minNdcgAt10: 0.27,
});
