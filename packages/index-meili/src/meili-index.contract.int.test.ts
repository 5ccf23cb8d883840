import { randomBytes } from 'node:crypto';
import { describeSearchIndexContract, type OpenSearchIndex } from '@quarry/index-contract';
import { describeIfAvailable } from '@quarry/testkit';
import { Meilisearch } from 'meilisearch';
import { MeiliSearchIndex } from './meili-index.js';

// Meilisearch is the one server CI does not provide: the suite runs when MEILI_URL points at one
// (with MEILI_MASTER_KEY when it has a key), and is skipped with a message otherwise, unless
// QUARRY_REQUIRE_SERVERS names `meilisearch`.
const url = process.env.MEILI_URL ?? '';
const apiKey = process.env.MEILI_MASTER_KEY;
const auth = apiKey ? { apiKey } : {};

/** A fresh, uniquely named index per call, deleted by its cleanup. */
const open: OpenSearchIndex = async () => {
  const indexName = `quarry_contract_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const index = await MeiliSearchIndex.open({ url, indexName, ...auth });
  const cleanup = async (): Promise<void> => {
    await index.close();
    const client = new Meilisearch({ host: url, ...auth });
    await client.deleteIndex(indexName).waitTask({ timeout: 60_000 });
  };
  return { index, cleanup };
};

describeIfAvailable(
  {
    name: 'meilisearch',
    available: url !== '',
    missing: 'MEILI_URL is not set (set it, and MEILI_MASTER_KEY, to run against a server)',
  },
  'MeiliSearchIndex against a live Meilisearch',
  () => describeSearchIndexContract('meilisearch', open),
);
