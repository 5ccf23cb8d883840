import type { BlobStore, PageDocument, SearchIndex } from '@quarry/core';
import type { IndexQueue, IndexWorker } from '@quarry/queue';
import type { Logger } from 'pino';

export interface IndexerOptions {
  readonly queue: IndexQueue;
  readonly index: SearchIndex;
  readonly blobs: BlobStore;
  readonly logger: Logger;
  /** Documents per index transaction. @defaultValue 100 */
  readonly batchSize?: number;
  /** Called after each batch is searchable. */
  readonly onIndexed?: (docs: readonly PageDocument[]) => void;
}

/**
 * The indexer: takes extracted documents off the index queue and makes them searchable, blobs first
 * and the index entry after, so a search hit never points at a missing blob. Idempotent by id, so a
 * redelivered batch does no harm.
 */
export function startIndexer(options: IndexerOptions): IndexWorker {
  const { queue, index, blobs, logger } = options;
  return queue.work(
    async (docs) => {
      // Last version of an id in the batch wins, as it would across batches.
      const unique = [...new Map(docs.map((d) => [d.id, d])).values()];
      await blobs.putMany(unique);
      await index.upsert(unique);
      logger.debug({ count: unique.length }, 'indexed batch');
      options.onIndexed?.(unique);
    },
    { batchSize: options.batchSize ?? 100, maxWaitMs: 200 },
  );
}
