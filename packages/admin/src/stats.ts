import { type SearchIndex, toIsoUtc } from '@quarry/core';
import { type CrawlQueue, type CrawlStats, type IndexQueue, type IndexStats, listsRead } from '@quarry/queue';

/** The body of `GET /admin/api/stats`. */
export interface AdminStats {
  readonly crawl: CrawlStats;
  /**
   * Sitemaps and feeds read (and a seed's sitemap tried and missing): skipped URLs of `crawl`, but
   * not pages, so the dashboard counts them apart, as `quarry status` does.
   */
  readonly listsRead: number;
  /** Pages skipped: `crawl.skipped` without {@link listsRead}. */
  readonly skippedPages: number;
  readonly index: IndexStats;
  /** Documents in the search index. */
  readonly documents: number;
  /** What the operator should act on (an index whose older pages need `quarry reindex`). */
  readonly notices: readonly string[];
  /** When these counts were read, ISO 8601 UTC. */
  readonly at: string;
}

/** Thrown when a backend does not answer within the stats timeout. */
export class StatsTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`stats did not arrive within ${timeoutMs} ms`);
    this.name = 'StatsTimeoutError';
  }
}

/**
 * Reads the crawl, index-queue and search-index counts at once. Rejects (a backend error, or a
 * {@link StatsTimeoutError}) instead of hanging when a backend stalls, e.g. Redis reconnecting.
 */
export async function collectStats(
  sources: { crawl: CrawlQueue; index: IndexQueue; searchIndex: SearchIndex },
  timeoutMs: number,
): Promise<AdminStats> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StatsTimeoutError(timeoutMs)), timeoutMs);
  });
  try {
    const [crawl, index, documents] = await Promise.race([
      Promise.all([sources.crawl.stats(), sources.index.stats(), sources.searchIndex.count()]),
      timeout,
    ]);
    const notices = sources.searchIndex.notices?.() ?? [];
    const lists = listsRead(crawl);
    return {
      crawl,
      listsRead: lists,
      skippedPages: crawl.skipped - lists,
      index,
      documents,
      notices,
      at: toIsoUtc(new Date()),
    };
  } finally {
    clearTimeout(timer);
  }
}
