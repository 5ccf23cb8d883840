import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { FileBlobStore } from '@quarry/blobstore';
import { type PageDocument, pageIdForUrl } from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import { openSqliteQueues } from '@quarry/queue';
import { pino } from 'pino';
import { startIndexer } from './indexer.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-indexer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const page = (url: string): PageDocument => ({
  id: pageIdForUrl(url),
  url,
  title: 'Ptarmigan counts',
  body_text: 'Observers counted the ptarmigan at dawn and compared the tallies with last season.',
  lang: 'en',
  author: null,
  published_at: null,
  crawled_at: '2026-11-28T08:00:00Z',
  site_name: null,
  has_llms_txt: false,
  filetype: 'html',
  domain: new URL(url).hostname,
  word_count: 13,
});

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('indexer', () => {
  it('indexes, when it starts, the documents whose indexing had failed for good', async () => {
    const queues = openSqliteQueues({ path: join(dir, 'queue.db'), pollIntervalMs: 20, indexMaxAttempts: 1 });
    const index = await LanceSearchIndex.open({ path: join(dir, 'index') });
    const blobs = new FileBlobStore({ dir: join(dir, 'blobs') });
    const doc = page('http://birds.test/ptarmigan');
    try {
      await queues.index.push([doc]);
      // An earlier run whose index was down: the document's one attempt fails.
      const down = queues.index.work(
        async () => {
          throw new Error('the index is down');
        },
        { batchSize: 10, maxWaitMs: 10 },
      );
      await until('a failed document', async () => (await queues.index.stats()).failed === 1);
      await down.close();

      const indexer = startIndexer({ queue: queues.index, index, blobs, logger: pino({ level: 'silent' }) });
      await until('the document indexed', () => index.has(doc.id));
      await indexer.close();
      expect(await queues.index.stats()).toEqual({ waiting: 0, active: 0, failed: 0 });
      expect((await blobs.get(doc.id))?.url).toBe(doc.url);
    } finally {
      await index.close();
      await queues.close();
    }
  });

  it('does not index the documents of a site forgotten while they waited', async () => {
    const queues = openSqliteQueues({ path: join(dir, 'queue-forget.db'), pollIntervalMs: 20 });
    const index = await LanceSearchIndex.open({ path: join(dir, 'index-forget') });
    const blobs = new FileBlobStore({ dir: join(dir, 'blobs-forget') });
    const kept = page('http://birds.test/ptarmigan');
    const dropped = page('http://birds.test/private/grouse');
    try {
      // Fetched before the forget, waiting on the index queue when it happens.
      await queues.index.push([dropped, kept]);
      await queues.crawl.forget(['birds.test/private']);
      const indexer = startIndexer({
        queue: queues.index,
        index,
        blobs,
        logger: pino({ level: 'silent' }),
        forgotten: () => queues.crawl.forgotten(),
      });
      await until(
        'the queue drained',
        async () => (await queues.index.stats()).waiting === 0 && (await index.has(kept.id)),
      );
      await indexer.close();
      expect(await index.has(dropped.id)).toBe(false);
      expect(await blobs.get(dropped.id)).toBeNull();
      expect((await blobs.get(kept.id))?.url).toBe(kept.url);
    } finally {
      await index.close();
      await queues.close();
    }
  });
});
