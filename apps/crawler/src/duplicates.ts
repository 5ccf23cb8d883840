import { hostOf, normalizeUrl, type PageDocument, pageIdForUrl } from '@quarry/core';
import {
  CANONICAL_ELSEWHERE_REASON,
  type CrawlQueue,
  DUPLICATE_REASON,
  type FingerprintStore,
  type IndexQueue,
  withinSites,
} from '@quarry/queue';
import LinkHeader from 'http-link-header';
import { textFingerprint } from './fingerprint.js';

/** Skip reason of a page whose main text is indexed under another URL (task meta `duplicateOf`). */
export const DUPLICATE = DUPLICATE_REASON;
/** Skip reason of a page whose same-site `<link rel="canonical">` names another URL, crawled instead. */
export const CANONICAL_ELSEWHERE = CANONICAL_ELSEWHERE_REASON;
/**
 * Skip reason of a directory (`/docs/`) queued only to compare it with its index file
 * (`/docs/index.html`, task meta `directoryOf`) that answers 4xx: the site has no page there.
 */
export const NO_DIRECTORY_PAGE = 'no_directory_page';

/** The page's `<link rel="canonical">` URL, normalized; null when absent or not an http(s) URL. */
export function canonicalOf(canonicalUrl: string | null): string | null {
  if (!canonicalUrl) return null;
  try {
    return normalizeUrl(canonicalUrl);
  } catch {
    return null;
  }
}

/**
 * The canonical URL an HTTP `Link` header names (`Link: </paper.pdf>; rel="canonical"`, RFC 8288
 * and RFC 6596): how a PDF or an Office document, which has no `<link>` element, names its
 * canonical. Resolved against the URL that answered and normalized; null when the header is absent
 * or malformed, names no canonical, or names several different ones (no single canonical).
 */
export function canonicalFromLinkHeader(value: string | undefined, baseUrl: string): string | null {
  if (!value) return null;
  let refs: LinkHeader.Reference[];
  try {
    refs = LinkHeader.parse(value).refs.filter((ref) => ref.rel.toLowerCase() === 'canonical');
  } catch {
    return null;
  }
  const urls = new Set<string>();
  for (const ref of refs) {
    const resolved = URL.canParse(ref.uri, baseUrl) ? canonicalOf(new URL(ref.uri, baseUrl).href) : null;
    if (resolved === null) return null;
    urls.add(resolved);
  }
  return urls.size === 1 ? [...urls][0]! : null;
}

/**
 * The URL to crawl and index instead of `url`: its canonical URL when that is another page of the
 * same site; null when there is none, it is off-site (only recorded), or it names the page that
 * sent the crawler here as its canonical (`meta.canonicalOf`: two pages naming each other would
 * otherwise both be skipped).
 */
export function crawlInstead(
  url: string,
  canonicalUrl: string | null,
  meta: Readonly<Record<string, string>> | undefined,
): string | null {
  if (!canonicalUrl || canonicalUrl === url || !sameSite(canonicalUrl, url)) return null;
  return meta?.canonicalOf === canonicalUrl ? null : canonicalUrl;
}

/** Whether two URLs are on one site: the same host, `www.` aside (the scheme may differ). */
export function sameSite(a: string, b: string): boolean {
  const bare = (url: string) => hostOf(url).replace(/^www\./, '');
  return bare(a) === bare(b);
}

/** How storing a document ended: held (indexed under its URL) or a duplicate of `holder`. */
export type StoreOutcome =
  | { readonly held: true; readonly fingerprint: string }
  | { readonly held: false; readonly holder: string };

/**
 * Stores a document once per main text: claims its text fingerprint for its URL (a self-canonical
 * URL, else the shortest, holds it; see `@quarry/queue`'s FingerprintStore) and queues it for
 * indexing only when it holds the text, removing the URL it displaced. A claim lost to a better URL
 * in the moment between queueing and checking takes the document out again, so a race between two
 * crawlers of one text leaves one document.
 */
export async function storeOnce(
  doc: PageDocument,
  selfCanonical: boolean,
  deps: {
    readonly fingerprints: FingerprintStore;
    readonly index: IndexQueue;
    readonly crawl?: Pick<CrawlQueue, 'forgottenRemovingPages'>;
  },
): Promise<StoreOutcome> {
  const fingerprint = textFingerprint(doc.title, doc.body_text, doc.filetype);
  const candidate = { url: doc.url, canonical: selfCanonical };
  let claim = await deps.fingerprints.claim(fingerprint, candidate);
  // A holder within a site forgotten with its pages is no longer indexed (`quarry forget` removed
  // it): the text is free again, or a site's own copy would stay skipped as a duplicate of a page
  // nobody finds. A site forgotten with `--keep-pages` keeps its pages, and so its texts.
  if (claim.owner !== doc.url && deps.crawl && withinSites(claim.owner, await deps.crawl.forgottenRemovingPages())) {
    await deps.fingerprints.release(fingerprint, claim.owner);
    claim = await deps.fingerprints.claim(fingerprint, candidate);
  }
  if (claim.owner !== doc.url) return { held: false, holder: claim.owner };
  const removed = claim.replaced === null ? [] : [{ id: pageIdForUrl(claim.replaced), removed: true as const }];
  await deps.index.push([...removed, doc]);
  // A better URL that claimed the text before this push queued its removal of this page before
  // the push; this page must then leave again, after it.
  const holder = await deps.fingerprints.holder(fingerprint);
  if (holder !== null && holder !== doc.url) {
    await deps.index.push([{ id: doc.id, removed: true }]);
    return { held: false, holder };
  }
  return { held: true, fingerprint };
}
