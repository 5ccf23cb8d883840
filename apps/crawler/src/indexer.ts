import type { BlobStore, PageDocument, SearchIndex } from '@quarry/core';
import { type IndexItem, type IndexQueue, type IndexWorker, isRemoval, withinSites } from '@quarry/queue';
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
  /** Called with the ids of pages removed by a batch (gone, noindex, moved). */
  readonly onRemoved?: (ids: readonly string[]) => void;
  /**
   * The forgotten sites (`CrawlQueue.forgotten`), read for each batch: their documents are not
   * indexed, so a page fetched as its site was forgotten does not come back after `quarry forget`
   * removed the site's pages.
   */
  readonly forgotten?: () => Promise<readonly string[]>;
}

/**
 * The indexer: takes extracted documents (and removals) off the index queue. A document's blob is
 * written before its index entry and a removed page leaves the index before its blob goes, so a
 * search hit never points at a missing blob. Idempotent by id, so a redelivered batch does no harm.
 * Documents whose indexing failed for good before (the index down, its disk full) get one more
 * attempt when it starts.
 */
export function startIndexer(options: IndexerOptions): IndexWorker {
  const { queue, index, blobs, logger } = options;
  queue.retryFailed().then(
    (count) => {
      if (count > 0) logger.warn({ count }, 'documents whose indexing had failed get one more attempt');
    },
    (err: unknown) => logger.warn({ err }, 'could not requeue the documents whose indexing had failed'),
  );
  return queue.work(
    async (items) => {
      const { upserts: all, removals } = lastPerId(items);
      const forgotten = options.forgotten ? await options.forgotten() : [];
      const upserts = forgotten.length === 0 ? all : all.filter((doc) => !withinSites(doc.url, forgotten));
      if (upserts.length < all.length) {
        logger.info({ count: all.length - upserts.length }, 'documents of forgotten sites not indexed');
      }
      if (upserts.length > 0) {
        await blobs.putMany(upserts);
        await index.upsert(upserts);
      }
      if (removals.length > 0) {
        await index.delete(removals);
        await Promise.all(removals.map((id) => blobs.delete(id)));
      }
      logger.debug({ indexed: upserts.length, removed: removals.length }, 'indexed batch');
      if (upserts.length > 0) options.onIndexed?.(upserts);
      if (removals.length > 0) options.onRemoved?.(removals);
    },
    { batchSize: options.batchSize ?? 100, maxWaitMs: 200 },
  );
}

/** The last item of each id wins, as it would across batches. */
function lastPerId(items: readonly IndexItem[]): { upserts: PageDocument[]; removals: string[] } {
  const last = new Map<string, IndexItem>();
  for (const item of items) {
    last.delete(item.id);
    last.set(item.id, item);
  }
  const upserts: PageDocument[] = [];
  const removals: string[] = [];
  for (const item of last.values()) {
    if (isRemoval(item)) removals.push(item.id);
    else upserts.push(item);
  }
  return { upserts, removals };
}
