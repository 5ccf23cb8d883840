import type { CrawlStats } from './types.js';

/**
 * Skip reasons of URLs read only for the pages they list: a sitemap or a feed (`link_list`), and a
 * seed's sitemap that is missing or lists nothing (`no_sitemap`). Never pages themselves.
 */
export const LIST_REASON_CODES: readonly string[] = ['link_list', 'no_sitemap'];
const LIST_REASONS: ReadonlySet<string> = new Set(LIST_REASON_CODES);

/**
 * Whether a skip reason is one of a sitemap or feed rather than a page's: `quarry status` and the
 * dashboard list those reasons apart from the pages skipped, as they count them (see {@link listsRead}).
 */
export function isListReason(reason: string): boolean {
  return LIST_REASONS.has(reason);
}

/**
 * How many of `stats.skipped` are sitemaps and feeds read (or a seed's sitemap tried and missing)
 * rather than pages, by the reasons the stats carry. `quarry status` and the dashboard show them
 * apart. Kept to at most the skipped count: the reasons follow the URLs skipped now, but a
 * distributed crawl may still count URLs queued again that ended before it remembered each URL's
 * reason (2026-12-06), and the two are read one after the other while workers record outcomes.
 */
export function listsRead(stats: CrawlStats): number {
  const read = stats.reasons
    .filter((r) => r.state === 'skipped' && isListReason(r.reason))
    .reduce((total, r) => total + r.count, 0);
  return Math.min(read, stats.skipped);
}

/**
 * The URLs of a state whose reasons `stats.reasons` leaves out (it lists the 10 most frequent a
 * state), for an "other reasons" row: without it the rows would not add up to the state's count.
 * The dashboard and `quarry status` show it. Never below 0, for the reasons {@link listsRead} is
 * kept to the skipped count: counts of a distributed crawl from before 2026-12-06, and reads apart.
 */
export function otherReasons(
  stats: Pick<CrawlStats, 'reasons' | 'skipped' | 'failed'>,
  state: 'skipped' | 'failed',
): number {
  const listed = stats.reasons.filter((r) => r.state === state).reduce((total, r) => total + r.count, 0);
  return Math.max(0, stats[state] - listed);
}

/** What the skip and failure reasons that are not self-explanatory mean, for the people reading them. */
export const REASON_NOTES: Readonly<Record<string, string>> = {
  duplicate: 'the same main text is indexed under another URL (its canonical or shortest one)',
  canonical_elsewhere: 'the page names another URL of its site as canonical; that URL is crawled instead',
  no_directory_page: 'a directory checked against its index.html (or index.php...) has no page of its own',
  soft_404: 'the page answers 200 but says it is not found (a short page titled "Page not found", "404"...)',
  meta_refresh: 'the page sends readers on at once (<meta http-equiv="refresh">): the target is crawled instead',
  redirected:
    'the page redirects within its crawl: the target is queued as a page of its own (fetched once, however many links and redirects name it)',
  redirect_out_of_scope:
    "the page redirects out of its seed's scope (another site, or outside its path): the target is not followed",
  link_list: 'a feed (RSS, Atom) or a sitemap: the pages it lists are queued, the file itself is not indexed',
  no_sitemap:
    "a sitemap tried for a seed (its robots.txt's, else /sitemap.xml) is missing or lists nothing; no failure",
  crashed:
    'every try of the page ended with the process crawling it (killed, out of memory) before it recorded an outcome; `quarry crawl --seed URL` tries it again',
  site_forgotten:
    'queued when its site was taken out of the crawl (quarry forget), never fetched; `quarry forget --undo SITE` queues it again',
};
