import { type CrawlStats, listsRead } from '@quarry/queue';

/** The crawl's finished URLs as a reader counts pages, with the sitemaps and feeds read apart. */
export interface FinishedCounts {
  readonly done: number;
  /** Pages skipped (duplicates, noindex, robots.txt...): not the sitemaps and feeds read. */
  readonly skipped: number;
  readonly failed: number;
  /** Sitemaps and feeds read (or a seed's sitemap tried and missing), shown apart: ` (and 1 sitemap or feed read)`. */
  readonly lists: string;
}

/**
 * Every seed's sitemaps are tasks of the crawl queue, skipped when read (`link_list`, `no_sitemap`):
 * counted among the skipped URLs, a one-page crawl read "1 done, 1 skipped". Told apart here, by the
 * reasons the stats carry (at most the skipped count, as the distributed queue counts reasons over
 * the crawl's life).
 */
export function finishedCounts(stats: CrawlStats): FinishedCounts {
  const lists = listsRead(stats);
  return {
    done: stats.done,
    skipped: stats.skipped - lists,
    failed: stats.failed,
    lists: lists === 0 ? '' : ` (and ${lists === 1 ? '1 sitemap or feed' : `${lists} sitemaps and feeds`} read)`,
  };
}
