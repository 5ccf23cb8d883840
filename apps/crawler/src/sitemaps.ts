import { normalizeUrl, QuarryError } from '@quarry/core';
import {
  type Fetcher,
  type FetchRequestOptions,
  type FetchResult,
  type RobotsCache,
  readSitemapResponse,
  type SitemapContent,
} from '@quarry/fetcher';
import type { CrawlOutcome, CrawlQueue, CrawlTask, NewCrawlTask } from '@quarry/queue';
import type { ExtractPool } from './extract-pool.js';
import { followUps, type Seed, sameHostOrTwin, scopeOf, seedMeta } from './seeds.js';

/** Skip reason of a feed or a sitemap: the pages it lists are queued, the file itself is not indexed. */
export const LINK_LIST = 'link_list';
/**
 * Skip reason of a sitemap task whose sitemap answers 4xx or is no sitemap: most sites have no
 * `/sitemap.xml`, and one that is tried and missing is no failure.
 */
export const NO_SITEMAP = 'no_sitemap';

/** Sitemaps of a sitemap index that are queued at most. */
const MAX_CHILD_SITEMAPS = 50;
/**
 * Sitemaps of a robots.txt that are queued at most. A robots.txt may declare any number (one of
 * 500 KiB declares thousands), and a page budget rarely needs more than the first few.
 */
const MAX_DECLARED_SITEMAPS = 10;
/** Feeds of a seed page that are queued at most. */
const MAX_DECLARED_FEEDS = 10;
/**
 * Sitemap tasks admitted per seed scope: the declared sitemaps and feeds and one full index's
 * children. Sitemaps (and feeds) have a budget of their own, so that reading them leaves the
 * operator's page budget to pages; this one bounds the requests a site's sitemaps (indexes of
 * indexes included) can take.
 */
const MAX_SITEMAPS_PER_SCOPE = MAX_DECLARED_SITEMAPS + MAX_DECLARED_FEEDS + MAX_CHILD_SITEMAPS;
/** Largest sitemap read, after decompression: the sitemap protocol's own limit. */
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
const SITEMAP_ACCEPT = 'application/xml, text/xml;q=0.9, text/plain;q=0.8, */*;q=0.5';
const NO_VALIDATORS = { etag: '', lastModified: '' };

/** What reading sitemaps needs of the page handler's parts. */
export interface SitemapDeps {
  readonly fetcher: Pick<Fetcher, 'fetch'>;
  readonly robots: Pick<RobotsCache, 'sitemaps'>;
  readonly crawl: Pick<CrawlQueue, 'add'>;
  /** Reads sitemap bodies off the event loop (the crawler's extraction threads); here when absent. */
  readonly extractor?: Pick<ExtractPool, 'readSitemap'>;
}

/**
 * Whether a task reads a sitemap for its seed (see {@link sitemapTasks}): its meta's `sitemapFrom`
 * names what led to it (robots.txt, the seed page whose `/sitemap.xml` was tried, or an index).
 */
export function isSitemapTask(task: CrawlTask): boolean {
  return Boolean(task.meta?.sitemapFrom);
}

/**
 * Tasks that read sitemaps for a seed, each in its turn under the host's delay like a page. They
 * sit at the depth of the pages they list (the seed's own sitemaps one level below it, as their
 * pages are), and count against a sitemap budget of the seed's scope, not its page budget.
 */
export function sitemapTasks(urls: readonly string[], seed: Seed, depth: number, from: string): NewCrawlTask[] {
  if (depth > seed.maxDepth) return [];
  const scope = `sitemap:${scopeOf(seed).key}`;
  const meta = { ...seedMeta(seed), sitemapFrom: from };
  const tasks: NewCrawlTask[] = [];
  for (const raw of urls) {
    try {
      tasks.push({
        url: normalizeUrl(raw),
        depth,
        scope,
        seed: seed.url,
        meta,
        maxPagesInScope: MAX_SITEMAPS_PER_SCOPE,
      });
    } catch {
      // Not an http(s) URL: nothing to read.
    }
  }
  return tasks;
}

/**
 * Queues the seed page's sitemaps: those its robots.txt declares on the site's own host (or its
 * `www.` twin), else `/sitemap.xml`. Sitemaps on other hosts are not read: a robots.txt could
 * otherwise send the crawler at any site. Queued rather than read here, so that the host's delay
 * (and Crawl-delay) spaces them and the seed page does not wait for them.
 */
export async function queueSeedSitemaps(deps: SitemapDeps, seedPageUrl: string, seed: Seed): Promise<void> {
  const origin = new URL(seedPageUrl).origin;
  let declared: string[];
  try {
    declared = await deps.robots.sitemaps(origin);
  } catch {
    declared = [];
  }
  const own = declared.filter((sitemap) => sameHostOrTwin(sitemap, origin)).slice(0, MAX_DECLARED_SITEMAPS);
  const tasks =
    own.length > 0
      ? sitemapTasks(own, seed, 1, `${origin}/robots.txt`)
      : sitemapTasks([`${origin}/sitemap.xml`], seed, 1, seedPageUrl);
  await deps.crawl.add(tasks);
}

/**
 * Queues the feeds (RSS, Atom) a seed page declares on its own origin as sitemap tasks, so that the
 * host's delay spaces them like any other request (read straight after the page, they were not) and
 * their items are queued one level below the page, within the page budget the feeds do not take.
 */
export async function queueDeclaredFeeds(
  deps: Pick<SitemapDeps, 'crawl'>,
  feeds: readonly string[],
  pageUrl: string,
  seed: Seed,
): Promise<void> {
  const origin = new URL(pageUrl).origin;
  // The extractor resolves them to absolute URLs.
  const own = feeds.filter((feed) => URL.canParse(feed) && new URL(feed).origin === origin);
  await deps.crawl.add(sitemapTasks(own.slice(0, MAX_DECLARED_FEEDS), seed, 1, pageUrl));
}

/**
 * Reads a sitemap task's sitemap (XML, index, gzip, text, or a feed) and queues what it lists at
 * the task's own depth; the file is never indexed. A 4xx or a body that lists nothing is skipped
 * as `no_sitemap`; server errors and timeouts are retried, as a page's are.
 */
export async function readSitemap(
  deps: SitemapDeps,
  task: CrawlTask,
  seed: Seed,
  request: Pick<FetchRequestOptions, 'signal' | 'beforeRedirect'>,
): Promise<CrawlOutcome> {
  let res: FetchResult;
  try {
    res = await deps.fetcher.fetch(task.url, {
      ...request,
      ...(task.meta?.etag ? { etag: task.meta.etag } : {}),
      ...(task.meta?.lastModified ? { lastModified: task.meta.lastModified } : {}),
      accept: SITEMAP_ACCEPT,
      maxBodyBytes: MAX_SITEMAP_BYTES,
      truncateBody: true,
      rejectBinaryText: false,
    });
  } catch (error) {
    if (error instanceof QuarryError && !error.retryable && /^http_4\d\d$/.test(error.code)) {
      return { status: 'skipped', reason: NO_SITEMAP, meta: NO_VALIDATORS };
    }
    throw error;
  }
  // Unchanged since it was last read: what it lists is queued already.
  if (res.notModified) return { status: 'skipped', reason: LINK_LIST };
  // Validators belong to the URL that answered; a redirected fetch keeps none for this one.
  const sameUrl = normalizeUrl(res.finalUrl) === task.url;
  const validators = {
    etag: (sameUrl && res.headers.etag) || '',
    lastModified: (sameUrl && res.headers['last-modified']) || '',
  };
  const listed = await sitemapContent(res, deps.extractor);
  if (listed.urls.length === 0 && listed.sitemaps.length === 0) {
    return { status: 'skipped', reason: NO_SITEMAP, meta: validators };
  }
  await queueSitemapEntries(deps, listed, res.url, seed, task.depth);
  return { status: 'skipped', reason: LINK_LIST, meta: validators };
}

/**
 * Queues what a sitemap lists at `depth`: its pages (as many as the seed's page budget) and, of a
 * sitemap index, its own host's sitemaps as sitemap tasks, fetched one by one under the host's
 * delay rather than in a burst. The sitemap protocol allows an index to list only its own host's
 * sitemaps; one naming other hosts' would send the crawler at them.
 */
export async function queueSitemapEntries(
  deps: Pick<SitemapDeps, 'crawl'>,
  listed: SitemapContent,
  sitemapUrl: string,
  seed: Seed,
  depth: number,
): Promise<void> {
  const host = new URL(sitemapUrl).host;
  const children = listed.sitemaps.filter((child) => new URL(child).host === host).slice(0, MAX_CHILD_SITEMAPS);
  await deps.crawl.add([
    ...followUps(listed.urls.slice(0, seed.maxPages), seed, depth),
    ...sitemapTasks(children, seed, depth, sitemapUrl),
  ]);
}

/** What a fetched sitemap lists; nothing when it is gzip that cannot be unpacked. */
/**
 * What a sitemap lists, read on an extraction thread; here when there is none, or when the thread
 * fails (out of its 256 MiB heap or its time: a large feed, whose tree is built whole, where a large
 * urlset is scanned). A body neither can read lists nothing.
 */
function sitemapContent(res: FetchResult, extractor: SitemapDeps['extractor']): Promise<SitemapContent> {
  const here = () => readSitemapResponse(res, MAX_SITEMAP_BYTES);
  const read = extractor
    ? extractor.readSitemap({ body: res.body, finalUrl: res.finalUrl, maxBodyBytes: MAX_SITEMAP_BYTES }).catch(here)
    : here();
  return read.catch(() => ({ urls: [], sitemaps: [] }));
}
