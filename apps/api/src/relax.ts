import type {
  BlobStore,
  IndexHit,
  IndexQuery,
  IndexSearchResult,
  ParsedQuery,
  QueryNode,
  SearchIndex,
  TermNode,
} from '@quarry/core';
import { indexTokens, isStopWord, tokenize } from '@quarry/text';
import { collapsedBefore, searchCollapsed } from './collapse.js';
import { FEEDBACK_DEPTH, feedbackScores } from './feedback.js';
import { searchLocal, withOpeningSnippets, withWholeBodySnippets } from './snippets.js';
import { pageForUrlQuery, type UrlPageDeps } from './url-query.js';

/**
 * A question typed whole (`what are the structural problems of high speed aircraft`) rarely has a
 * page repeating every one of its words: searched as an AND, the spec's default, it finds nothing
 * or a page or two (nDCG@10 of the Cranfield and CISI questions asked so: 0.015 and 0.013). Such a
 * query is searched again with its words optional (`match=any`) when no page holds all its words
 * and it has at least {@link MIN_WORDS_NONE_FOUND} plain words besides stop words and reads as a
 * sentence or asks a question (or has {@link MIN_WORDS_UNWRITTEN}), or when fewer
 * than {@link FEW_FOUND} pages do and it has {@link MIN_WORDS_FEW_FOUND} and reads as a sentence
 * (see {@link readsAsSentence}) or has {@link MIN_WORDS_UNWRITTEN}, or it asks a question (see
 * {@link asksQuestion}) and has {@link MIN_WORDS_ASKED}. Other queries stay an AND:
 * `cats dogs` on no page together means no page, as "all must match" says, and keywords that some
 * pages hold together (`solar panel efficiency roofs`) find those pages only.
 */
export const MIN_WORDS_NONE_FOUND = 3;
export const MIN_WORDS_FEW_FOUND = 4;
/**
 * Plain words from which a question (see {@link asksQuestion}) that found a few pages is relaxed:
 * `how to define routes in Flask` has three, and the one page holding `define`, `routes` and
 * `flask` was a list of frameworks, not Flask's guide to its routes, which says `route`.
 */
export const MIN_WORDS_ASKED = 3;
/**
 * Plain words from which a query that found a few pages is relaxed though it does not read as a
 * sentence: a list of keywords that long is a description (`solar roof panel efficiency winter
 * loss`), which pages rarely repeat whole. Below it, keywords are what a client means to AND.
 */
export const MIN_WORDS_UNWRITTEN = 5;
/**
 * Fewer pages than this holding every word of a long query relax it: a default page of results. A
 * fixed count, not the request's `limit`, so that a query finds the same results however a client
 * pages through them (`limit=1` page by page, or `limit=100` at once).
 */
export const FEW_FOUND = 10;

/** The response header that tells a client its query was searched with optional words. */
export const RELAXED_MATCH_HEADER = 'Quarry-Match';

/** Chinese, Japanese and Korean, written without spaces: a run of them is several words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The distinct plain words of a query besides stop words, each as it is searched: outside phrases,
 * `intitle:`, exclusions and OR groups, which all stay as written. A word of several parts (a URL,
 * `heat-transfer`) is one; a run of Chinese or Japanese is the words it segments into.
 */
export function plainWords(query: ParsedQuery): string[] {
  const words = new Map<string, string>();
  const collect = (node: QueryNode): void => {
    if (node.type === 'and') node.children.forEach(collect);
    else if (node.type === 'term' && node.field === 'any') {
      const tokens = tokenize(node.text).filter((token) => !isStopWord(token));
      if (UNSPACED.test(node.text)) for (const token of tokens) words.set(token, token);
      else if (tokens.length > 0 && !words.has(tokens.join(' '))) words.set(tokens.join(' '), node.text);
    }
  };
  if (query.root !== null) collect(query.root);
  return [...words.values()];
}

/** Words that open a question in English: what it asks, or the verb put first (`does it`, `can I`). */
const ASKING = new Set([
  'what',
  'how',
  'why',
  'when',
  'where',
  'which',
  'who',
  'whom',
  'whose',
  'is',
  'are',
  'was',
  'were',
  'can',
  'could',
  'should',
  'would',
  'will',
  'do',
  'does',
  'did',
]);

/**
 * Whether a query asks a question: a question mark, or its first plain word opens one (see
 * {@link ASKING}: `how much does travel insurance cost`). Such a query is written in the asker's
 * words, not the page's: a page holding every one of them (`much`, `usually`, `share`) holds them
 * by chance as often as because it answers, so those pages are not put first (see
 * {@link allWordsFirst}); the ranking of its words, re-ranked by feedback, decides.
 */
export function asksQuestion(query: ParsedQuery): boolean {
  let first: string | undefined;
  let mark = false;
  const walk = (node: QueryNode): void => {
    if (node.type === 'and') node.children.forEach(walk);
    else if (node.type === 'term' && node.field === 'any') {
      first ??= tokenize(node.text)[0];
      if (/[?？]/.test(node.text)) mark = true;
    }
  };
  if (query.root !== null) walk(query.root);
  return mark || (first !== undefined && ASKING.has(first));
}

/** How many {@link plainWords} a query has. */
export function plainWordCount(query: ParsedQuery): number {
  return plainWords(query).length;
}

/**
 * Whether a query reads as a sentence rather than a list of keywords: a question mark, a function
 * word (`what`, `the`, `of`, `的`) among its plain words, or a full stop or exclamation mark ending
 * it (`Testing automated information systems.`: typed as a sentence, not as keywords).
 */
export function readsAsSentence(query: ParsedQuery): boolean {
  let last = '';
  const sentence = (node: QueryNode): boolean => {
    if (node.type === 'and') return node.children.some(sentence);
    if (node.type !== 'term' || node.field !== 'any') return false;
    last = node.text;
    return /[?？]/.test(node.text) || tokenize(node.text).some(isStopWord);
  };
  if (query.root === null) return false;
  return sentence(query.root) || /\p{L}[.!。！]$/u.test(last);
}

/**
 * Whether a query searched as an AND that `found` pages match is searched again with its words
 * optional (see the module's constants).
 */
export function shouldRelax(query: ParsedQuery, found: number): boolean {
  return relaxes(plainWordCount(query), readingOf(query), found);
}

/** How a query reads: as a sentence (see {@link readsAsSentence}), and as a question (see {@link asksQuestion}). */
interface Reading {
  readonly sentence: boolean;
  readonly asking: boolean;
}

function readingOf(query: ParsedQuery): Reading {
  return { sentence: readsAsSentence(query), asking: asksQuestion(query) };
}

/**
 * {@link shouldRelax} of a query of `words` plain words, read as it reads. Keywords that no page
 * holds together (`zebrafish nutrition trends`) stay an AND, as the spec's "all must match" says,
 * unless they are {@link MIN_WORDS_UNWRITTEN} or more: until 2026-12-07 three were relaxed, and
 * adding a word to two that found nothing brought 231 pages, most without the first word.
 */
function relaxes(words: number, reading: Reading, found: number): boolean {
  if (found === 0) {
    return words >= MIN_WORDS_NONE_FOUND && (reading.sentence || reading.asking || words >= MIN_WORDS_UNWRITTEN);
  }
  return found < FEW_FOUND && relaxesWhenFew(words, reading);
}

/** Whether a query of `words` plain words, read as it reads, is relaxed when a few pages hold it whole. */
function relaxesWhenFew(words: number, { sentence, asking }: Reading): boolean {
  if (asking && words >= MIN_WORDS_ASKED) return true;
  return words >= MIN_WORDS_FEW_FOUND && (sentence || words >= MIN_WORDS_UNWRITTEN);
}

/** The local results of a search, and whether its words were made optional (`match` unset only). */
export interface RelaxedSearch {
  readonly result: IndexSearchResult;
  readonly relaxed: boolean;
  /**
   * The first `count` results of the list the page is a slice of (a few pages put first, then the
   * index's ranking): what a fallback that tops the page up reads as the results before it.
   */
  readonly before: (count: number) => Promise<IndexHit[]>;
}

/**
 * The local results of `query` (its `match` unset) as its AND finds them, or, when {@link shouldRelax}
 * says so, with its words optional (the first results re-ranked by feedback: see {@link withFeedback}). A query that would be relaxed when a few pages hold it whole is
 * a question that the AND rarely satisfies: it is asked both ways at once, and the optional words'
 * snippets are made only when their results are the ones shown (a second query after the first
 * made a typed question wait for both). A shorter query is asked again only when the AND finds
 * nothing. When the AND found a few pages, they come first (see {@link allWordsFirst}); before
 * them, the few pages holding the query's words in a row (see {@link asPhrase}). `gone()` is true
 * once the client left: nothing more is asked then.
 */
export async function searchRelaxing(
  deps: UrlPageDeps,
  query: IndexQuery,
  gone: () => boolean,
): Promise<RelaxedSearch> {
  const loose: IndexQuery = { ...query, match: 'any' };
  const words = plainWordCount(query.query);
  const reading = readingOf(query.query);
  const early = relaxesWhenFew(words, reading) ? settled(optionalRanked(deps.index, loose)) : null;
  const strict = await searchLocal(deps, query);
  // Asked while the optional words' search runs on.
  const row = askInARow(deps.index, query, strict.total);
  const relaxed = relaxes(words, reading, strict.total) && !gone();
  let list: Ranked;
  if (!relaxed) list = ranked(deps.index, query, strict);
  else {
    const asked = early === null ? null : await early;
    if (asked !== null && 'error' in asked) throw asked.error;
    const optional = asked === null ? await optionalRanked(deps.index, loose) : asked.result;
    const looseList = await withFeedback(deps, loose, optional, gone);
    const allFirst = strict.total > 0 && !reading.asking;
    list = allFirst ? await allWordsFirst(deps.index, query, strict, looseList) : looseList;
  }
  list = await inARowFirst(query, row, list, gone);
  return shown(deps, query, list, strict, relaxed);
}

/**
 * The local results of `query` with `match` given: as the index ranks them, with the same few
 * pages first as a query with `match` unset puts first (see {@link searchRelaxing}): those holding
 * its words in a row and, for `any`, those holding every word. `match=any` asks the AND too (its
 * first {@link FEW_FOUND} results), and the words in a row when it found any.
 */
export async function searchExplicit(
  deps: UrlPageDeps,
  query: IndexQuery,
  gone: () => boolean,
): Promise<RelaxedSearch> {
  let list: Ranked;
  let strict: IndexSearchResult | null = null;
  if (query.match !== 'any') {
    strict = await searchLocal(deps, query);
    list = await inARowFirst(
      query,
      askInARow(deps.index, query, strict.total),
      ranked(deps.index, query, strict),
      gone,
    );
  } else {
    // A URL alone asks for its page whatever `match` says (searchLocal answers it for the AND).
    const byUrl = await pageForUrlQuery(deps, query);
    if (byUrl) return { result: byUrl, relaxed: false, before: async (count) => byUrl.hits.slice(0, count) };
    const [optional, all] = await Promise.all([
      optionalRanked(deps.index, query),
      searchCollapsed(deps.index, { ...query, match: 'all', offset: 0, limit: FEW_FOUND, snippets: false }),
    ]);
    const row = askInARow(deps.index, query, all.total);
    list = await withFeedback(deps, query, optional, gone);
    if (all.total > 0 && all.total < FEW_FOUND && !asksQuestion(query.query) && !gone()) {
      list = await heldFirst(query, all.hits, list);
    }
    list = await inARowFirst(query, row, list, gone);
  }
  return shown(deps, query, list, strict, false);
}

/**
 * The search's answer from its `list`: the snippets of the page's results made from their openings
 * (the searches behind a list read their hits without: of all they read, only this page is shown),
 * then the long ones cut from the whole text; unless the page is `strict` as searchLocal gave it
 * (made and cut already).
 */
async function shown(
  deps: { readonly blobs: BlobStore },
  query: IndexQuery,
  list: Ranked,
  strict: IndexSearchResult | null,
  relaxed: boolean,
): Promise<RelaxedSearch> {
  const result =
    list.page === strict
      ? strict
      : await withWholeBodySnippets(withOpeningSnippets(list.page), query.query, deps.blobs);
  return { result, relaxed, before: list.before };
}

/** A promise's value or its error, so that a search asked early and never awaited rejects nothing. */
type Settled<T> = Promise<{ result: T } | { error: unknown }>;

function settled<T>(promise: Promise<T>): Settled<T> {
  return promise.then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
}

/**
 * The first {@link FEW_FOUND} pages holding `query`'s words in a row (see {@link asPhrase}), asked
 * when its AND found two pages or more (`found`): a page holding them in a row holds them all, and
 * the one page an AND finds comes first already (a sentence pasted from a page, most often, whose
 * phrase took 20 ms more). Null when not asked.
 */
function askInARow(index: SearchIndex, query: IndexQuery, found: number): Settled<IndexSearchResult> | null {
  const phrase = found >= 2 ? asPhrase(query.query) : null;
  if (phrase === null) return null;
  return settled(
    searchCollapsed(index, { ...query, query: phrase, match: 'all', offset: 0, limit: FEW_FOUND, snippets: false }),
  );
}

/** `list` with the pages {@link askInARow} found first, when they are fewer than {@link FEW_FOUND}. */
async function inARowFirst(
  query: IndexQuery,
  asked: Settled<IndexSearchResult> | null,
  list: Ranked,
  gone: () => boolean,
): Promise<Ranked> {
  const row = asked === null ? null : await asked;
  if (row === null || gone()) return list;
  if ('error' in row) throw row.error;
  return row.result.total > 0 && row.result.total < FEW_FOUND ? heldFirst(query, row.result.hits, list) : list;
}

/** Plain words from which a query of optional words is re-ranked by feedback (see {@link withFeedback}). */
export const MIN_WORDS_FEEDBACK = 3;
/** The characters of a page's body read for feedback: its opening, which says what it is about. */
const FEEDBACK_CHARS = 4_000;

/**
 * `list` (a query's ranking with its words optional) with its first {@link FEEDBACK_DEPTH} results
 * re-ranked by the words its best pages share (feedback.ts), when the query has
 * {@link MIN_WORDS_FEEDBACK} plain words: a question, whose pages use more words than it does. A
 * shorter query's words are the topic itself. Every page of results is a slice of the one
 * re-ranked list.
 */
async function withFeedback(
  deps: { readonly blobs: BlobStore },
  query: IndexQuery,
  list: Ranked,
  gone: () => boolean,
): Promise<Ranked> {
  if (!feedbackApplies(query) || gone()) return list;
  const head = await list.before(FEEDBACK_DEPTH);
  if (head.length < 2) return list;
  const tokens = await Promise.all(head.map((hit) => feedbackTokens(deps.blobs, hit)));
  const scores = feedbackScores(head.map((hit, i) => ({ score: hit.score, tokens: tokens[i] ?? [] })));
  const reranked = head
    .map((hit, i) => ({ hit: { ...hit, score: scores[i] ?? hit.score }, rank: i }))
    .sort((a, b) => b.hit.score - a.hit.score || a.rank - b.rank)
    .map(({ hit }) => hit);
  const before = async (count: number): Promise<IndexHit[]> =>
    count <= reranked.length
      ? reranked.slice(0, count)
      : [...reranked, ...(await list.before(count)).slice(reranked.length)];
  const end = query.offset + query.limit;
  const hits = (await before(end)).slice(query.offset, end);
  return { page: { ...list.page, hits }, before };
}

/**
 * A result's words for feedback: its title and its body's opening, as the index analyses them. The
 * opening is the hit's own when the index gave it, else read from the page store; a page missing
 * there is its title and snippet.
 */
async function feedbackTokens(blobs: BlobStore, hit: IndexHit): Promise<string[]> {
  let opening = hit.opening;
  if (opening === undefined) opening = (await blobs.get(hit.id).catch(() => null))?.body_text ?? hit.snippet;
  return indexTokens(`${hit.title}\n${opening.slice(0, FEEDBACK_CHARS)}`, hit.lang);
}

/** Whether {@link withFeedback} re-ranks `query`'s optional words' ranking. */
function feedbackApplies(query: IndexQuery): boolean {
  return plainWordCount(query.query) >= MIN_WORDS_FEEDBACK;
}

/**
 * The ranking of `query`, its words optional. When feedback re-ranks it and the page at its offset
 * lies within the results re-ranked, they are asked at once, the page being a slice of them: one
 * index call where the page and then the results re-ranked were two.
 */
async function optionalRanked(index: SearchIndex, query: IndexQuery): Promise<Ranked> {
  const end = query.offset + query.limit;
  if (!feedbackApplies(query) || end > FEEDBACK_DEPTH) {
    return ranked(index, query, await searchCollapsed(index, { ...query, snippets: false }));
  }
  const headQuery = { ...query, offset: 0, limit: FEEDBACK_DEPTH, snippets: false };
  const head = await searchCollapsed(index, headQuery);
  return { page: { ...head, hits: head.hits.slice(query.offset, end) }, before: ranked(index, headQuery, head).before };
}

/** A ranked list of results: its page at a query's offset, and its first `count` results. */
interface Ranked {
  readonly page: IndexSearchResult;
  readonly before: (count: number) => Promise<IndexHit[]>;
}

/** The list `query` ranks, of which `page` is the page at its offset. */
function ranked(index: SearchIndex, query: IndexQuery, page: IndexSearchResult): Ranked {
  return {
    page,
    before: async (count) =>
      query.offset === 0 && count <= query.limit
        ? page.hits.slice(0, count)
        : collapsedBefore(index, { ...query, snippets: false }, count),
  };
}

/**
 * `held` (every one of some few results) first, in their order, then `list` less them: its page
 * at `query`'s offset, and its first results. The held results' scores have the list's best added,
 * so that scores still fall down the list; every page is a slice of this one list, so that paging
 * through gives each result once.
 */
async function heldFirst(query: IndexQuery, held: readonly IndexHit[], list: Ranked): Promise<Ranked> {
  const ids = new Set(held.map((hit) => hit.id));
  const before = async (count: number): Promise<IndexHit[]> => {
    const found = await list.before(count);
    const top = found[0]?.score ?? 0;
    return [
      ...held.map((hit) => ({ ...hit, score: hit.score + top })),
      ...found.filter((hit) => !ids.has(hit.id)),
    ].slice(0, count);
  };
  const end = query.offset + query.limit;
  const hits = (await before(end)).slice(query.offset, end);
  return {
    page: { total: Math.max(list.page.total, held.length), totalIsEstimate: list.page.totalIsEstimate, hits },
    before,
  };
}

/**
 * A relaxed query that a few pages hold whole (`strict`, its AND's results, fewer than
 * {@link FEW_FOUND}): those pages first in the AND's order, then the other pages its optional words
 * find (`loose`) in theirs. Ranked by BM25 alone, a page holding every word of a pasted sentence
 * once came below pages holding three of them often, or below a hundred others when it was a list
 * of links (the index lowers those); the words' all being there is what a client typing them as
 * an AND asked for first. On the known-item benchmark (`npm run bench -- known-item`) as typed:
 * the page first for 948 of 1,331 before, 986 after; the IR collections' questions, which AND
 * rarely finds, moved by 0.002 at most (docs/benchmark-results.md). Not for a question (see
 * {@link asksQuestion}): of 46 questions asked about 445 crawled pages, 6 found their page second
 * to fourth below a long page holding every word of the question by chance, and none lost the
 * first place without the tier (38 first, 42 without).
 */
async function allWordsFirst(
  index: SearchIndex,
  query: IndexQuery,
  strict: IndexSearchResult,
  loose: Ranked,
): Promise<Ranked> {
  const whole = query.offset === 0 && strict.hits.length >= strict.total;
  const held = whole
    ? strict.hits
    : (await searchCollapsed(index, { ...query, offset: 0, limit: FEW_FOUND, snippets: false })).hits;
  return heldFirst(query, held, loose);
}

/** Plain words from which a query's words in a row are looked for (see {@link asPhrase}). */
export const MIN_WORDS_IN_A_ROW = 3;

/**
 * The query as one phrase, its words in a row as typed, when it is plain words only (no phrase,
 * operator, exclusion or OR group) and has {@link MIN_WORDS_IN_A_ROW} plain words; else null.
 * When fewer than {@link FEW_FOUND} pages hold it so, they come first: a sentence pasted from a
 * page is found on that page in that order, and BM25 scores no order. On the known-item benchmark
 * (`npm run bench -- known-item`: 1,331 crawled pages, each asked 8 words of its own text) the page
 * came first for 986 as typed, 967 with `match=all` and 944 with `match=any`; with its words in a
 * row first, 1,209, 1,188 and 1,210 (the IR collections' questions, never written whole on a
 * page, unchanged). Words in a row on ten pages or more are shared phrasing (`if you have any
 * questions`) and move nothing.
 */
export function asPhrase(query: ParsedQuery): ParsedQuery | null {
  const root = query.root;
  if (root === null || root.type !== 'and') return null;
  const terms = root.children.filter((node): node is TermNode => node.type === 'term' && node.field === 'any');
  if (terms.length !== root.children.length || plainWordCount(query) < MIN_WORDS_IN_A_ROW) return null;
  return { ...query, root: { type: 'phrase', text: terms.map((term) => term.text).join(' '), field: 'any' } };
}
