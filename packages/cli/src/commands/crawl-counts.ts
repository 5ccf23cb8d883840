import { type CrawlStats, listsRead } from '@quarry/queue';

/**
 * The skip reason of a sitemap or feed read for the pages it lists; the other reason of a sitemap
 * or feed (`isListReason` of @quarry/queue) is a seed's sitemap tried that was missing or empty.
 */
const LIST_READ = 'link_list';

/** The crawl's finished URLs as a reader counts pages, with the sitemaps and feeds apart. */
export interface FinishedCounts {
  readonly done: number;
  /** Pages skipped (duplicates, noindex, robots.txt...): not the sitemaps and feeds. */
  readonly skipped: number;
  readonly failed: number;
  /**
   * The skipped URLs that are sitemaps and feeds (read, or a seed's sitemap missing or empty), as
   * `listsRead` and the dashboard count them: `skipped` plus this is the queue's skipped count.
   */
  readonly listsSkipped: number;
  /** Those sitemaps and feeds, shown apart: ` (and 1 sitemap or feed read, 1 sitemap missing or empty)`. */
  readonly lists: string;
}

/**
 * Every seed's sitemaps are tasks of the crawl queue, skipped when read (`link_list`, `no_sitemap`):
 * counted among the skipped URLs, a one-page crawl read "1 done, 1 skipped". Told apart here, by the
 * reasons the stats carry (at most the skipped count: a distributed queue's counts written before
 * 2026-12-06 counted reasons over the crawl's life). A sitemap missing is said so, not counted as one read.
 */
export function finishedCounts(stats: CrawlStats): FinishedCounts {
  const lists = listsRead(stats);
  const read = Math.min(
    lists,
    stats.reasons
      .filter((r) => r.state === 'skipped' && r.reason === LIST_READ)
      .reduce((total, r) => total + r.count, 0),
  );
  const missing = lists - read;
  const parts: string[] = [];
  if (read > 0) parts.push(read === 1 ? '1 sitemap or feed read' : `${read} sitemaps and feeds read`);
  if (missing > 0) parts.push(`${missing} ${missing === 1 ? 'sitemap' : 'sitemaps'} missing or empty`);
  return {
    done: stats.done,
    skipped: stats.skipped - lists,
    failed: stats.failed,
    listsSkipped: lists,
    lists: parts.length === 0 ? '' : ` (and ${parts.join(', ')})`,
  };
}
