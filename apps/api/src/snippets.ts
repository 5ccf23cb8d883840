import type { BlobStore, IndexHit, IndexQuery, IndexSearchResult, ParsedQuery } from '@quarry/core';
import { positiveClauses } from '@quarry/query';
import { makeSnippet, queryTermsIn } from '@quarry/text';
import { searchCollapsed } from './collapse.js';
import { pageForUrlQuery, type UrlPageDeps } from './url-query.js';

/**
 * The local results of a search, as the REST API and the MCP tools show them: near-copies collapsed
 * to the best-ranked one (collapse.ts), long pages' snippets cut from their whole text (below). The
 * collapse reads more hits than it shows (a ranking of up to 100 is read whole on every page, for
 * an exact count): they are read without snippets, and the snippets of the page shown are made
 * from the openings (see withOpeningSnippets). Before, a rare word's 79 results each had a snippet
 * made on every request, for a page of 10: most of the API's main-thread time on such a search.
 */
export async function searchLocal(deps: UrlPageDeps, query: IndexQuery): Promise<IndexSearchResult> {
  const byUrl = await pageForUrlQuery(deps, query);
  if (byUrl) return byUrl;
  const shown = query.snippets !== false;
  const collapsed = await searchCollapsed(deps.index, shown ? { ...query, snippets: false } : query);
  return withWholeBodySnippets(shown ? withOpeningSnippets(collapsed) : collapsed, query.query, deps.blobs);
}

/**
 * Snippets of long pages cut from their whole body. The embedded index keeps a page's first 8,192
 * characters for snippets, so on a longer page whose query words come later (half the pages of the
 * WCXB set are longer) the snippet was the page's opening, which shows nothing of why it matched.
 * Such a hit (`snippetSourceCut`) whose snippet does not show every one of the query's words and
 * phrases is cut again from the body in the blob store, and the new snippet is kept when it shows
 * more phrases, or as many and more words. The blobs of one page of results are read together; a
 * blob that cannot be read leaves its snippet as it was.
 *
 * Until 2026-12-05 only snippets showing none of the words were recut: an opening that showed one
 * common word ("photography") hid the passage holding the rare ones, on 11 of 25 sentences taken
 * from deep in long pages in a user's trial. Recutting these too (`npm run bench -- snippets`):
 * results showing every word 18.5% → 20.1% (1.4 ms more at p50 when measured on a quiet machine).
 */
export async function withWholeBodySnippets(
  result: IndexSearchResult,
  query: ParsedQuery,
  blobs: BlobStore,
): Promise<IndexSearchResult> {
  // `intitle:` words were matched in the title; the body need not hold them.
  const clauses = positiveClauses(query)
    .filter((clause) => clause.field !== 'title')
    .map((clause) => ({ text: clause.text }));
  if (clauses.length === 0) return result;
  const hits = await Promise.all(result.hits.map((hit) => placedSnippet(hit, clauses, blobs)));
  return { ...result, hits };
}

/**
 * The snippets a backend left out of `result` (asked with `snippets: false`: see `IndexQuery`),
 * made from each hit's opening and the words the backend gives, as it would have made them. The
 * API asks so for results it may not show (the first 30 a question's feedback re-ranks, the results
 * before a deep page) and makes the snippets of the page it shows: a question asked through MCP
 * made 30 snippets for its 10 results.
 */
export function withOpeningSnippets(result: IndexSearchResult): IndexSearchResult {
  if (!result.hits.some((hit) => hit.snippetTerms !== undefined)) return result;
  const hits = result.hits.map(({ snippetTerms, ...hit }) =>
    snippetTerms === undefined
      ? hit
      : {
          ...hit,
          snippet: makeSnippet(
            hit.opening ?? '',
            snippetTerms.map((text) => ({ text })),
          ),
        },
  );
  return { ...result, hits };
}

/**
 * Characters of a body looked through for the query's words: the embedded index analyses as many of
 * a page's (`maxIndexedChars`), so words past them never made the match; a 50 MB text file is not
 * folded and scanned for each search.
 */
const MAX_SCANNED_CHARS = 1_000_000;

async function placedSnippet(hit: IndexHit, clauses: readonly { text: string }[], blobs: BlobStore): Promise<IndexHit> {
  if (!hit.snippetSourceCut) return hit;
  const shown = queryTermsIn(hit.snippet, clauses);
  if (shown.found >= shown.of && shown.phrasesFound >= shown.phrases) return hit;
  const doc = await blobs.get(hit.id).catch(() => null);
  if (!doc || typeof doc.body_text !== 'string') return hit;
  const snippet = makeSnippet(doc.body_text.slice(0, MAX_SCANNED_CHARS), clauses);
  const recut = queryTermsIn(snippet, clauses);
  const better =
    recut.phrasesFound > shown.phrasesFound || (recut.phrasesFound === shown.phrasesFound && recut.found > shown.found);
  return better ? { ...hit, snippet } : hit;
}
