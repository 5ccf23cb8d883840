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

/**
 * A query that is one absolute http(s) URL and nothing else (`https://example.org/guide`) asks for
 * that page, as it does in a web search engine: when the page is indexed, under that URL or under
 * the same URL with the other scheme, and passes the request's filters, it is the one result (its
 * snippet the opening of its text). Otherwise null, and the URL is searched as words like any
 * other query. An agent holding a URL finds its `id` for the content endpoint this way.
 */
export async function pageForUrlQuery(
  deps: { readonly index: SearchIndex; readonly blobs: BlobStore },
  query: IndexQuery,
): Promise<IndexSearchResult | null> {
  const root = query.query.root;
  if (root?.type !== 'term' || root.field !== 'any') return null;
  for (const id of pageIdsForUrl(root.text)) {
    if (!(await deps.index.has(id))) continue;
    const doc = await deps.blobs.get(id).catch(() => null);
    if (!doc || typeof doc.body_text !== 'string') continue;
    const page = {
      lang: doc.lang,
      sites: pageSiteLabels(doc),
      filetype: doc.filetype,
      crawledMs: Date.parse(doc.crawled_at),
    };
    if (!passesIndexFilters(page, query)) return null;
    return { total: 1, totalIsEstimate: false, hits: query.offset === 0 ? [asHit(doc)] : [] };
  }
  return null;
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
