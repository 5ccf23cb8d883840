import {
  type BlobStore,
  type IndexHit,
  type IndexQuery,
  type IndexSearchResult,
  type PageDocument,
  pageIdsForUrl,
  pageSiteLabels,
  passesIndexFilters,
  type SearchIndex,
} from '@quarry/core';
import { makeSnippet } from '@quarry/text';

/** Characters of the page's text its snippet is cut from (its opening). */
const SNIPPET_SOURCE_CHARS = 4_096;

/** What finds the page indexed at a URL, or in its place. */
export interface UrlPageDeps {
  readonly index: SearchIndex;
  readonly blobs: BlobStore;
  /** See `ApiDeps.crawledInsteadOf`. */
  readonly crawledInsteadOf?: (url: string) => Promise<string | null>;
}

/** Copies followed from a URL to the page indexed in its place at most (a redirect to a copy…). */
const MAX_COPY_STEPS = 3;

/**
 * The page indexed at `url` (either scheme), or, where the crawl skipped `url` as a copy (the same
 * text held by another URL, a canonical or a redirect crawled instead), the page indexed in its
 * place; null when there is none. The copy's record is asked of the crawl only when the URL itself
 * is not indexed; an unanswered ask (Redis away) finds nothing more.
 *
 * @example await indexedPageFor(deps, 'https://example.org/index.html') // the page of https://example.org/
 */
export async function indexedPageFor(deps: UrlPageDeps, url: string): Promise<PageDocument | null> {
  let at = url;
  for (let step = 0; ; step++) {
    for (const id of pageIdsForUrl(at)) {
      if (!(await deps.index.has(id))) continue;
      const doc = await deps.blobs.get(id).catch(() => null);
      if (doc && typeof doc.body_text === 'string') return doc;
    }
    if (step === MAX_COPY_STEPS || !deps.crawledInsteadOf) return null;
    const next = await deps.crawledInsteadOf(at).catch(() => null);
    if (next === null || next === at) return null;
    at = next;
  }
}

/**
 * A query that is one absolute http(s) URL and nothing else (`https://example.org/guide`) asks for
 * that page, as it does in a web search engine: when the page is indexed (see {@link indexedPageFor}:
 * under that URL, the same URL with the other scheme, or in its place when the crawl took it as a
 * copy of another page) and passes the request's filters, it is the one result (its snippet the
 * opening of its text). Otherwise null, and the URL is searched as words like any other query. An
 * agent holding a URL finds its `id` for the content endpoint this way.
 */
export async function pageForUrlQuery(deps: UrlPageDeps, query: IndexQuery): Promise<IndexSearchResult | null> {
  const root = query.query.root;
  if (root?.type !== 'term' || root.field !== 'any') return null;
  const doc = await indexedPageFor(deps, root.text);
  if (doc === null) return null;
  const page = {
    lang: doc.lang,
    sites: pageSiteLabels(doc),
    filetype: doc.filetype,
    crawledMs: Date.parse(doc.crawled_at),
  };
  if (!passesIndexFilters(page, query)) return null;
  return { total: 1, totalIsEstimate: false, hits: query.offset === 0 ? [asHit(doc)] : [] };
}

function asHit(doc: PageDocument): IndexHit {
  return {
    id: doc.id,
    url: doc.url,
    title: doc.title,
    snippet: makeSnippet(doc.body_text.slice(0, SNIPPET_SOURCE_CHARS), []),
    domain: doc.domain,
    site_name: doc.site_name,
    lang: doc.lang,
    score: 1,
    has_llms_txt: doc.has_llms_txt,
    published_at: doc.published_at,
    crawled_at: doc.crawled_at,
    filetype: doc.filetype,
    ...(doc.simhash ? { simhash: doc.simhash } : {}),
  };
}
