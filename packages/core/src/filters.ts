import type { IndexQuery } from './search-index.js';
import { FILETYPE_FAMILY } from './types.js';
import { hostAndParents, siteLabels } from './url.js';

/** A page as a query's hard filters see it. */
export interface FilterablePage {
  /** Primary language subtag. */
  readonly lang: string;
  /** What it answers to as a `site` value: host, parent domains, with path (see {@link pageSiteLabels}). */
  readonly sites: readonly string[];
  readonly filetype: string;
  /** When it was crawled, in epoch milliseconds. */
  readonly crawledMs: number;
}

/**
 * Whether a page passes a query's hard filters, as the index applies them: `lang`, the `site`
 * parameter and `site:` operators (the host or any subdomain, and a path's pages), `filetype:`
 * families and `time_range`. For pages read outside the index's own filtering (the embedded index's fresh tier,
 * a page looked up by its URL).
 */
export function passesIndexFilters(page: FilterablePage, query: IndexQuery): boolean {
  if (query.lang !== undefined && page.lang !== query.lang) return false;
  const sites = query.query.sites;
  if (sites.length > 0 && !sites.some((site) => page.sites.includes(site))) return false;
  if (query.site !== undefined && !page.sites.includes(query.site)) return false;
  if (query.query.filetypes.length > 0) {
    const types = new Set<string>(query.query.filetypes.flatMap((value) => FILETYPE_FAMILY[value]));
    if (!types.has(page.filetype)) return false;
  }
  if (query.crawledAfter !== undefined) {
    const ms = Date.parse(query.crawledAfter);
    if (Number.isFinite(ms) && page.crawledMs < ms) return false;
  }
  return true;
}

/**
 * A page's `site` labels (see {@link siteLabels}): from its URL, else (a URL that does not parse) its
 * domain and the domain's parents.
 */
export function pageSiteLabels(page: { readonly url: string; readonly domain: string }): string[] {
  try {
    return siteLabels(page.url);
  } catch {
    return hostAndParents(page.domain);
  }
}
