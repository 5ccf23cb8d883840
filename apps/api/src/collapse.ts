import {
  type IndexHit,
  type IndexQuery,
  type IndexSearchResult,
  MAX_SEARCH_DEPTH,
  type SearchIndex,
} from '@quarry/core';
import { SIMHASH_NEAR_BITS, simhashDistance } from '@quarry/text';
import { SEARCH_BOUNDS } from './params.js';

/**
 * How much of the ranking is collapsed: its top 100 hits (the largest result page). Beyond them
 * results come as the index ranks them, so a deep page costs two index calls, not a read of
 * everything above it. Measured on 5,000 LanceDB pages: offset 990 takes 31 ms (the index alone
 * 13; reading all 1,090 hits above took 430); the first page costs what one index call does.
 */
export const COLLAPSE_HEAD_HITS = SEARCH_BOUNDS.limit.max;

/**
 * Near-copy collapse: results whose SimHashes (`IndexHit.simhash`) differ in at most
 * `SIMHASH_NEAR_BITS` (4) bits are one page under several URLs (a print view, a copy with another
 * date line or footer), so only the best-ranked of them is shown. Hits without a SimHash are never
 * collapsed.
 *
 * Pagination stays consistent because every page is a slice of one list: the top
 * {@link COLLAPSE_HEAD_HITS} hits of the ranking, collapsed, then the rest of the ranking as it is.
 * A request reads the head from rank 0 (a few more hits than asked, reading on while near-copies
 * use them up) until `offset + limit` results are known; a page past the collapsed head reads the
 * head, then the index's hits after it. A result never appears on two pages. A ranking no longer
 * than the head (its count exact) is read whole on every page, and `total` counts its results
 * after the collapse, so that no page short of `total` comes back empty; a longer one gives the
 * index's count less the near-copies met in the part of the head read, exact on every page past
 * the head (reading the whole head for the first page would double its cost). Collapsed positions
 * that would need a raw rank past the index's reach (offset 990 + limit 100) are not served.
 */
export async function searchCollapsed(index: SearchIndex, query: IndexQuery): Promise<IndexSearchResult> {
  const wanted = query.offset + query.limit;
  const kept: IndexHit[] = [];
  let first: IndexSearchResult | undefined;
  let rawOffset = 0;
  let exhausted = false;
  // Set once the first call shows a ranking short enough to read whole: how many hits it has.
  let whole: number | null = null;
  while ((whole === null ? kept.length < wanted : rawOffset < whole) && rawOffset < COLLAPSE_HEAD_HITS) {
    const missing = wanted - kept.length;
    const asked = whole === null ? missing + overFetch(missing) : whole - rawOffset;
    const limit = Math.min(COLLAPSE_HEAD_HITS - rawOffset, asked);
    const page = await index.search({ ...query, offset: rawOffset, limit });
    first ??= page;
    if (whole === null && !page.totalIsEstimate && page.total <= COLLAPSE_HEAD_HITS) whole = page.total;
    for (const hit of page.hits) keepUnlessNearCopy(kept, hit);
    rawOffset += page.hits.length;
    exhausted = page.hits.length < limit || (whole !== null && rawOffset >= whole);
    if (exhausted) break;
  }
  // Near-copies met in the head so far (see the comment above on `total`).
  const dropped = rawOffset - kept.length;
  const result = (hits: IndexHit[]): IndexSearchResult => ({
    total: whole !== null && exhausted ? kept.length : Math.max(kept.length, (first?.total ?? 0) - dropped),
    totalIsEstimate: first?.totalIsEstimate ?? false,
    hits,
  });
  const fromHead = kept.slice(query.offset, wanted);
  if (kept.length >= wanted || exhausted) return result(fromHead);
  // Collapsed position p >= kept.length is raw rank COLLAPSE_HEAD_HITS + p - kept.length, served
  // while that rank is within the index's reach (offset 990 + limit 100): past offset 990 the
  // index's last page is read and cut, so that a page of 10 reaches as deep as a page of 100.
  const start = Math.max(query.offset, kept.length);
  const tailOffset = COLLAPSE_HEAD_HITS + start - kept.length;
  const tailEnd = Math.min(tailOffset + wanted - start, MAX_SEARCH_DEPTH);
  if (tailOffset >= tailEnd) return result(fromHead);
  const readOffset = Math.min(tailOffset, SEARCH_BOUNDS.offset.max);
  const tail = await index.search({ ...query, offset: readOffset, limit: tailEnd - readOffset });
  return result([...fromHead, ...tail.hits.slice(tailOffset - readOffset)]);
}

/**
 * The first `count` results of the collapsed list (fewer when it is shorter), read a page of at
 * most {@link COLLAPSE_HEAD_HITS} at a time: what came before a page that the fallback tops up.
 */
export async function collapsedBefore(index: SearchIndex, query: IndexQuery, count: number): Promise<IndexHit[]> {
  const hits: IndexHit[] = [];
  while (hits.length < count) {
    const limit = Math.min(COLLAPSE_HEAD_HITS, count - hits.length);
    const page = await searchCollapsed(index, { ...query, offset: hits.length, limit });
    hits.push(...page.hits);
    if (page.hits.length < limit) break;
  }
  return hits;
}

/**
 * The best-ranked hit of each group of near-copies, in rank order (greedy: a hit is dropped when
 * it is a near-copy of a hit already kept).
 */
export function collapseNearCopies(hits: readonly IndexHit[]): IndexHit[] {
  const kept: IndexHit[] = [];
  for (const hit of hits) keepUnlessNearCopy(kept, hit);
  return kept;
}

/**
 * Extra hits asked for beyond those missing, for the near-copies among them: a fifth, at least 2
 * (a default page reads 12 hits). Near-copies are rare in a ranking; when more of them turn up, the
 * next call reads on from where this one stopped.
 */
function overFetch(missing: number): number {
  return Math.max(2, Math.ceil(missing / 5));
}

/**
 * Adds `hit` unless it is a near-copy of a kept hit of the same file type and title (or the same
 * page, met again in a later call). A PDF and a Word file of one text are two documents a reader
 * may want either of (`filetype:pdf OR filetype:doc` found one of them only), not one page under
 * two URLs. Pages of one template are not copies either: `Invoice 3` and `Invoice 17`, or a
 * product's red and blue variants, differ in a few words of the text (17 of 1,770 pairs of sixty
 * 35-word pages differing only in their number came within the SimHash threshold) but name
 * themselves apart, while a copy (a print view, a mirror, another date line) keeps its headline.
 */
function keepUnlessNearCopy(kept: IndexHit[], hit: IndexHit): void {
  for (const other of kept) {
    if (other.id === hit.id) return;
    if (!hit.simhash || !other.simhash || other.filetype !== hit.filetype) continue;
    const distance = simhashDistance(hit.simhash, other.simhash);
    if (distance !== null && distance <= SIMHASH_NEAR_BITS && sameHeadline(hit.title, other.title)) return;
  }
  kept.push(hit);
}

/**
 * Whether two titles name one page: equal in their words (case, accents' forms and punctuation
 * aside), or one's words a run within the other's (`Otters` and `Otters | Mirror`, `Print: Otters`),
 * each also without a site's name after its last ` | `, ` - ` or ` — ` (`Otters - Site C` and
 * `Otters | Site D`, two mirrors, name one page).
 */
export function sameHeadline(a: string, b: string): boolean {
  const [x, y] = [headlinesOf(a), headlinesOf(b)];
  return x.some((one) => y.some((other) => sameWords(one, other)));
}

function sameWords(x: string, y: string): boolean {
  if (x === '' || y === '') return x === y;
  return x.length <= y.length ? ` ${y} `.includes(` ${x} `) : ` ${x} `.includes(` ${y} `);
}

/** A title's words, and those before a site's name after its last separator, when it has one. */
function headlinesOf(title: string): string[] {
  const words = headlineWords(title);
  const cut = title.search(/\s[|\-–—]\s(?!.*\s[|\-–—]\s)/u);
  const head = cut > 0 ? headlineWords(title.slice(0, cut)) : '';
  return head !== '' && head !== words ? [words, head] : [words];
}

function headlineWords(title: string): string {
  return (
    title
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).join(' ');
}
