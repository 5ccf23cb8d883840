import { type HostBackoff, type SearchIndex, toIsoUtc } from '@quarry/core';
import { type CrawlQueue, type CrawlStats, type IndexQueue, type IndexStats, listsRead } from '@quarry/queue';

/** Hosts {@link AdminStats.backingOff} lists, the most recent first; the rest are counted. */
export const MAX_BACKOFFS_LISTED = 20;

/** A host the crawler is backing off from, in `GET /admin/api/stats`. */
export interface HostBackingOff {
  /** The host name, as crawled: data, to show as text. */
  readonly host: string;
  /** Why: the retryable failure's code (`http_429`, `http_503`, `timeout`, `robots_unreachable`...). */
  readonly reason: string;
  /**
   * Until when the back-off lasts at the latest, ISO 8601 UTC: the host's Retry-After (at least
   * 30 s) from its last failure. The crawler tries the host again by then; a page of the host
   * crawled otherwise ends the back-off sooner.
   */
  readonly until: string;
}

/** The hosts this process's crawler is backing off from. */
export interface BackoffStats {
  /** How many hosts, listed or not. */
  readonly total: number;
  /** The most recent {@link MAX_BACKOFFS_LISTED}. */
  readonly hosts: readonly HostBackingOff[];
}

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
  /**
   * The hosts the crawler of this process is backing off from (`quarry start`); null where the
   * process runs no crawler (`quarry serve` in distributed mode: each worker backs off on its own,
   * in its memory).
   */
  readonly backingOff: BackoffStats | null;
  /**
   * What the operator should act on: the queue backend's (a Redis that lost the crawl state) and
   * the search index's (older pages that need `quarry reindex`).
   */
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
  sources: {
    crawl: CrawlQueue;
    index: IndexQueue;
    searchIndex: SearchIndex;
    backingOff?: (() => readonly HostBackoff[] | Promise<readonly HostBackoff[]>) | undefined;
    queueNotices?: (() => Promise<readonly string[]>) | undefined;
  },
  timeoutMs: number,
): Promise<AdminStats> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StatsTimeoutError(timeoutMs)), timeoutMs);
  });
  try {
    const [crawl, index, documents, backoffs, queueNotices] = await Promise.race([
      Promise.all([
        sources.crawl.stats(),
        sources.index.stats(),
        sources.searchIndex.count(),
        sources.backingOff ? sources.backingOff() : null,
        sources.queueNotices ? sources.queueNotices() : [],
      ]),
      timeout,
    ]);
    const notices = [...queueNotices, ...(sources.searchIndex.notices?.() ?? [])];
    const lists = listsRead(crawl);
    return {
      crawl,
      listsRead: lists,
      skippedPages: crawl.skipped - lists,
      index,
      documents,
      backingOff: backoffs ? backoffStats(backoffs) : null,
      notices,
      at: toIsoUtc(new Date()),
    };
  } finally {
    clearTimeout(timer);
  }
}

function backoffStats(backoffs: readonly HostBackoff[]): BackoffStats {
  return {
    total: backoffs.length,
    hosts: backoffs.slice(0, MAX_BACKOFFS_LISTED).map((b) => ({
      host: b.host,
      reason: b.reason,
      until: toIsoUtc(new Date(b.untilMs)),
    })),
  };
}
