import { normalizeUrl, withOtherScheme } from '@quarry/core';
import { DUPLICATE_REASON } from './forget.js';
import type { CrawlQueue } from './types.js';

/**
 * The reason a page naming a same-site canonical URL ends skipped with (the crawler's canonical
 * check): its canonical is crawled and indexed instead, and its meta names it as `canonical`.
 */
export const CANONICAL_ELSEWHERE_REASON = 'canonical_elsewhere';

/**
 * The reason a page (not a seed) that redirects within its seed's scope ends skipped with: its
 * target is queued as a page of its own, and its meta names it as `redirectedTo`.
 */
export const REDIRECTED_REASON = 'redirected';

/** The reason a page whose instant meta refresh is a redirect ends skipped with (meta `redirectedTo`). */
export const META_REFRESH_REASON = 'meta_refresh';

/** The skip reasons of a URL whose page the crawl took from another URL, with the meta key naming it. */
const TAKEN_FROM: ReadonlyMap<string, string> = new Map([
  [DUPLICATE_REASON, 'duplicateOf'],
  [CANONICAL_ELSEWHERE_REASON, 'canonical'],
  [REDIRECTED_REASON, 'redirectedTo'],
  [META_REFRESH_REASON, 'redirectedTo'],
]);

/**
 * Where the crawl took the page of `url` from when it skipped `url` as a copy: the URL holding the
 * same main text (`duplicate`), its canonical crawled instead (`canonical_elsewhere`), or the target
 * of its redirect or instant meta refresh. Null for a URL crawled otherwise, never crawled, or
 * skipped before the target was recorded (redirects before 2026-12-07). Tried as given and with the
 * other scheme, as the index's ids are. One step: the URL named may be a copy in turn.
 *
 * @example await crawledInstead(queues.crawl, 'https://example.org/index.html') // 'https://example.org/'
 */
export async function crawledInstead(crawl: Pick<CrawlQueue, 'requeue'>, url: string): Promise<string | null> {
  let normalized: string;
  try {
    normalized = normalizeUrl(url);
  } catch {
    return null;
  }
  // Asked of no state, `requeue` only says where the URLs stand.
  for (const standing of await crawl.requeue([normalized, withOtherScheme(normalized)], [])) {
    const key = standing.state === 'skipped' && standing.reason ? TAKEN_FROM.get(standing.reason) : undefined;
    const target = key === undefined ? undefined : standing.meta?.[key];
    if (target) return target;
  }
  return null;
}
