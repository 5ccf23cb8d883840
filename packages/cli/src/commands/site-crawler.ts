import type { QuarryConfig } from '@quarry/core';
import type { Crawler, SeedStanding } from '@quarry/crawler';
import type { CrawlSiteOutcome, SiteCrawler } from '@quarry/mcp';
import type { Queues } from '@quarry/queue';
import type { Logger } from 'pino';

/** The part of a {@link Crawler} that queues explicitly given seeds, as `quarry crawl` does. */
type Seeder = Pick<Crawler, 'refusedSeeds' | 'reseed'>;

/**
 * `crawl_site` through the seeding of `quarry crawl --seed`: a URL the address policy refuses
 * (QUARRY_ALLOW_HOSTS) is refused and not queued; a new one is queued with the requested depth and
 * page budget; one that ended skipped or failed is queued again; one queued or done is left alone;
 * one whose site's page budget is spent is not queued. A worker or `quarry start` then crawls it.
 *
 * It seeds through a crawler that is never started (no workers, threads or browser, no connection
 * of its own, nothing to close), whose modules load at the first call: `quarry serve` and `quarry
 * mcp` start without them (about 40 MB and a second less).
 */
export function createSiteCrawler(config: QuarryConfig, queues: Queues, logger: Logger): SiteCrawler {
  let loading: Promise<{ seeder: Seeder; parseSeed: typeof import('@quarry/crawler').parseSeed }> | undefined;
  return async ({ url, maxDepth, maxPages }) => {
    loading ??= import('@quarry/crawler').then(({ Crawler, parseSeed }) => ({
      seeder: new Crawler({ config, queues, logger, extractThreads: 0 }),
      parseSeed,
    }));
    const { seeder, parseSeed } = await loading;
    const seed = parseSeed(url, { maxDepth, maxPages });
    const [refused] = await seeder.refusedSeeds([seed]);
    if (refused) return { url: seed.url, outcome: 'refused', address: refused.address };
    const [standing] = await seeder.reseed([seed]);
    return { url: seed.url, ...outcomeOf(standing), maxDepth: seed.maxDepth, maxPages: seed.maxPages };
  };
}

/** What `crawl_site` says of a seed, from where `Crawler.reseed` found it. */
function outcomeOf(standing: SeedStanding | undefined): {
  outcome: CrawlSiteOutcome;
  previous?: { state: 'skipped' | 'failed'; reason?: string };
  pages?: number;
  sitePages?: number;
} {
  if (standing !== undefined && 'widened' in standing && standing.widened) {
    return { outcome: 'recrawled', pages: standing.widened.pages };
  }
  switch (standing?.state) {
    case 'new':
      return { outcome: 'queued' };
    case 'skipped':
    case 'failed': {
      // reseed queues every seed that ended skipped or failed again.
      const { state, reason } = standing;
      return { outcome: 'queued_again', previous: { state, ...(reason ? { reason } : {}) } };
    }
    case 'pending':
      return { outcome: 'already_queued' };
    case 'done':
      return { outcome: 'already_crawled' };
    case 'forgotten':
      return { outcome: 'site_forgotten' };
    default: {
      // `unknown` after a refused add: the seed's scope budget is spent (see Crawler.reseed).
      const sitePages = standing !== undefined && 'scopeUrls' in standing ? standing.scopeUrls : undefined;
      return { outcome: 'budget_spent', ...(sitePages !== undefined ? { sitePages } : {}) };
    }
  }
}
