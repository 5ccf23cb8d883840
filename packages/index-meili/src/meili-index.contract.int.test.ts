import { randomBytes } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { describeSearchIndexContract, type OpenSearchIndex } from '@quarry/index-contract';
import { Meilisearch } from 'meilisearch';
import { MeiliSearchIndex } from './meili-index.js';

// Meilisearch is the one server CI does not provide: the suite runs when MEILI_URL points at one
// (with MEILI_MASTER_KEY when it has a key), and is skipped with a message otherwise, unless
// QUARRY_REQUIRE_SERVERS names `meilisearch`.
const url = process.env.MEILI_URL;
const apiKey = process.env.MEILI_MASTER_KEY;
const required = (process.env.QUARRY_REQUIRE_SERVERS ?? '')
  .split(',')
  .map((name) => name.trim())
  .includes('meilisearch');

/** A fresh, uniquely named index per call, deleted by its cleanup. */
const open: OpenSearchIndex = async () => {
  const indexName = `quarry_contract_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const options = { url: url!, indexName, ...(apiKey ? { apiKey } : {}) };
  const index = await MeiliSearchIndex.open(options);
  const cleanup = async (): Promise<void> => {
    await index.close();
    const client = new Meilisearch({ host: url!, ...(apiKey ? { apiKey } : {}) });
    await client.deleteIndex(indexName).waitTask({ timeout: 60_000 });
  };
  return { index, cleanup };
};

if (url) {
  describeSearchIndexContract('meilisearch', open);
} else if (required) {
  describe('SearchIndex contract: meilisearch', () => {
    it('needs MEILI_URL', () => {
      throw new Error('QUARRY_REQUIRE_SERVERS names meilisearch but MEILI_URL is not set.');
    });
  });
} else {
  console.warn(
    'SearchIndex contract: meilisearch skipped: set MEILI_URL (and MEILI_MASTER_KEY) to run it against a server.',
  );
  describe.skip('SearchIndex contract: meilisearch (MEILI_URL not set)', () => {
    it('runs only against a live Meilisearch', () => {});
  });
}
