import { MAX_SEARCH_DEPTH, type SearchIndex } from './search-index.js';
import type { BlobStore } from './services.js';
import { urlMatchesSite } from './url.js';

/** Hits asked per search of a site's pages (the most one search returns). */
const PAGE = 100;

/** Sites {@link sitePageCounts} counts at most (one search each). */
export const MAX_COUNTED_SITES = 100;

/**
 * How many pages of each normalized site (see {@link removeSitePages}) the index holds: for a
 * forgotten site, those kept (`--keep-pages`), being removed, or left by a removal cut short. The
 * first {@link MAX_COUNTED_SITES} sites only; the others are not in the map.
 */
export async function sitePageCounts(index: SearchIndex, sites: readonly string[]): Promise<Map<string, number>> {
  const counted = sites.slice(0, MAX_COUNTED_SITES);
  const counts = await Promise.all(
    counted.map(async (site) => (await index.search({ query: siteListing(site), limit: 1, offset: 0 })).total),
  );
  return new Map(counted.map((site, i) => [site, counts[i] ?? 0]));
}

/** The query listing a site's pages: `site:` alone. */
function siteListing(site: string) {
  return { root: null, sites: [site], filetypes: [] };
}

/**
 * Removes every indexed page of a normalized site (`checkSites`: a host with its subdomains, or
 * one port or path of it) from the index and then from the blob store, as the indexer removes a
 * gone page: never a hit without its text. The pages are found by the site's own listing
 * (`site:` alone), up to {@link MAX_SEARCH_DEPTH} a round, until it lists none. Resolves to how many
 * were removed; `onProgress` hears the running count after each round.
 */
export async function removeSitePages(
  index: SearchIndex,
  blobs: BlobStore,
  site: string,
  onProgress?: (removed: number) => void,
): Promise<number> {
  const query = siteListing(site);
  const removed = new Set<string>();
  for (;;) {
    const ids: string[] = [];
    for (let offset = 0; offset + PAGE <= MAX_SEARCH_DEPTH; offset += PAGE) {
      const { hits } = await index.search({ query, limit: PAGE, offset });
      for (const hit of hits) if (urlMatchesSite(hit.url, site)) ids.push(hit.id);
      if (hits.length < PAGE) break;
    }
    if (ids.length === 0) return removed.size;
    // A page listed again after its removal would have this loop run for ever.
    if (ids.some((id) => removed.has(id))) {
      throw new Error(`the index still lists pages of ${site} after removing them`);
    }
    await index.delete(ids);
    await Promise.all(ids.map((id) => blobs.delete(id)));
    for (const id of ids) removed.add(id);
    onProgress?.(removed.size);
  }
}
