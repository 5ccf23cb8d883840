import { normalizeSite, siteWithoutPort, urlMatchesSite } from '@quarry/core';
import { parse as parseDomain } from 'tldts';

/**
 * The reason a queued URL of a forgotten site ends skipped with (`CrawlQueue.forget`): it was
 * never fetched. `CrawlQueue.unforget` queues exactly these URLs again.
 */
export const SITE_FORGOTTEN = 'site_forgotten';

/**
 * The reason a page whose main text another URL holds ends skipped with (the crawler's duplicate
 * check), its meta naming that URL as `duplicateOf`. A forget that removes the site's pages queues
 * such copies of them again: the site's page held the text, and leaves the index.
 */
export const DUPLICATE_REASON = 'duplicate';

/** A forgotten site as `unforget` lifts it: when it was first forgotten, and whether every forget of it kept its pages. */
export interface LiftedSite {
  readonly site: string;
  readonly forgottenAt: number;
  readonly pagesKept: boolean;
}

/**
 * Whether the page of a URL crawled before its site was lifted is still indexed as that crawl left
 * it, so that `unforget` recrawls it with its validators: every lifted site it is within kept its
 * pages at every forget, and it finished before that site was forgotten (a page in flight then was
 * refused by the indexer). Otherwise it is fetched whole.
 */
export function stillIndexed(url: string, finishedAt: number, lifted: readonly LiftedSite[]): boolean {
  const within = lifted.filter((site) => urlMatchesSite(url, site.site));
  return within.length > 0 && within.every((site) => site.pagesKept && finishedAt < site.forgottenAt);
}

/** Sites one call may name, at most. */
export const MAX_FORGET_SITES = 100;

/**
 * The sites of a forget or unforget call, normalized as the `site` parameter is (`Example.com`,
 * `https://example.com/docs/`, `*.example.com`: see `normalizeSite`) and deduplicated. Throws a
 * `TypeError` naming the first value that names no site, and a `RangeError` for none or too many.
 */
export function checkSites(sites: readonly string[]): string[] {
  if (sites.length === 0) throw new RangeError('name at least one site');
  if (sites.length > MAX_FORGET_SITES) throw new RangeError(`at most ${MAX_FORGET_SITES} sites at once`);
  const normalized = sites.map((site) => {
    const value = normalizeSite(site);
    if (value === null) throw new TypeError(`not a site: ${JSON.stringify(site.slice(0, 200))}`);
    return value;
  });
  return [...new Set(normalized)];
}

/**
 * The sites of a forget: as {@link checkSites} checks them, and none a public suffix. A site takes
 * its subdomains with it, so `com`, `co.uk` or `*.com` (read as `com`) would take every site under
 * it out of the crawl, and their pages out of the index, with no word of warning. Suffixes of the
 * Public Suffix List's ICANN part are refused (top-level domains, and those under which anyone
 * registers a name); a private one (`github.io`, `blogspot.com`) is one company's, and may be
 * forgotten. Throws a `TypeError` naming the value; an unforget takes any site, to undo one.
 */
export function checkForgetSites(sites: readonly string[]): string[] {
  const normalized = checkSites(sites);
  for (const site of sites) {
    const host = siteWithoutPort(normalizeSite(site)?.split('/')[0] ?? '');
    if (isPublicSuffix(host)) {
      throw new TypeError(
        `${JSON.stringify(site.slice(0, 200))} names ${host}, a public suffix (a top-level domain, or one like co.uk under which anyone registers a site): forgetting it would take every site under it out of the crawl; name the sites themselves`,
      );
    }
  }
  return normalized;
}

/** Whether a host is itself a public suffix of the list's ICANN part (`com`, `co.uk`, `рф`), not a site under one. */
function isPublicSuffix(host: string): boolean {
  const { isIcann, domain } = parseDomain(host);
  return isIcann === true && domain === null;
}

/** Whether a URL is within one of the (normalized) sites: that host or a subdomain, port and path as `site:` reads them. */
export function withinSites(url: string, sites: readonly string[]): boolean {
  return sites.some((site) => urlMatchesSite(url, site));
}

/**
 * Whether a host as the queues key it (`hostKey`: the hostname, lower case, an IPv6 address without
 * brackets) may hold URLs of a normalized site: the site's host or one of its subdomains, whatever
 * the port and path. {@link withinSites} decides for each URL.
 */
export function hostMayBeWithin(host: string, site: string): boolean {
  const siteHost = siteWithoutPort(site.split('/')[0] ?? '').replace(/^\[|\]$/g, '');
  return host === siteHost || host.endsWith(`.${siteHost}`);
}
