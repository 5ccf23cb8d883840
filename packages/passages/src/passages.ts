import { createHash } from 'node:crypto';
import { indexTokens, joinedTokens } from '@quarry/text';
import { CHUNK_DEFAULTS, type Chunk, chunkText } from './chunk.js';
import { queryTerms, scoreChunks } from './score.js';
import { countTokens } from './tokens.js';

/** A part of a page chosen for a query: `body_text.slice(start, end) === text`. */
export interface Passage {
  readonly text: string;
  /** Offset of the passage in the page's `body_text` (UTF-16 code units). */
  readonly start: number;
  /** Offset just past the passage's end. */
  readonly end: number;
  /** BM25 of the passage for the query among the page's passages; 0 when no query word occurs. */
  readonly score: number;
  /** Headings the passage sits under, outermost first. */
  readonly heading_path: readonly string[];
  /** Tokens of `text` (o200k_base). */
  readonly tokens: number;
}

/** What {@link selectPassages} is asked. */
export interface PassageRequest {
  /** The page's plain text; every offset refers to it. */
  readonly bodyText: string;
  /** The page as markdown, for headings; optional. */
  readonly bodyMarkdown?: string;
  readonly query: string;
  /** The page's language (primary subtag): English pages are matched stemmed, as search does. */
  readonly lang?: string;
  /** Budget for the passages' texts together, in o200k_base tokens. */
  readonly maxTokens: number;
}

/** Bounds of a passage request, shared by the HTTP API and the MCP tool. */
export const PASSAGE_BOUNDS = {
  /** Tokens: below this no passage of useful size fits. */
  minTokens: 16,
  maxTokens: 32_000,
  /** Used when a query is given without a budget. */
  defaultTokens: 1_000,
} as const;

const SCORE_DECIMALS = 1e4;

/**
 * Pages from this long have their chunks kept for the next question: chunking counts the tokens of
 * every sentence, about 1 s for a page of 4.9 million characters on the API's main thread, where
 * scoring the chunks for a question takes a tenth of that. An agent asks several questions of one
 * long document, and a client asking the same one again and again held every other request up.
 */
const CACHED_CHUNKS_MIN_CHARS = 100_000;
/** Chunkings kept, the least recently used dropped first: a few documents being read at once. */
const CACHED_CHUNKINGS = 8;
const chunkings = new Map<string, readonly Chunk[]>();

/** `chunkText` of a page, kept for a long page (see {@link CACHED_CHUNKS_MIN_CHARS}). */
function chunksOf(text: string, markdown: string | undefined, targetTokens: number): readonly Chunk[] {
  const chunk = () => chunkText(text, { ...(markdown ? { markdown } : {}), targetTokens });
  if (text.length < CACHED_CHUNKS_MIN_CHARS) return chunk();
  // By digest: the page's text itself would keep megabytes alive per entry.
  const key = createHash('sha256')
    .update(`${targetTokens}\u0000${text.length}\u0000`)
    .update(text)
    .update('\u0000')
    .update(markdown ?? '')
    .digest('base64');
  const kept = chunkings.get(key);
  if (kept !== undefined) {
    chunkings.delete(key);
    chunkings.set(key, kept);
    return kept;
  }
  const made = chunk();
  chunkings.set(key, made);
  if (chunkings.size > CACHED_CHUNKINGS) chunkings.delete(chunkings.keys().next().value as string);
  return made;
}

/**
 * The passages of a page most relevant to `query` that fit `maxTokens` together, in page order.
 * Chunks follow the page's structure (see `chunkText`, filled up to the smaller of the budget and
 * the default chunk size) and are taken best first; when no chunk contains a query word, the
 * page's opening chunks are returned instead (score 0, as many as fit one after the other; an
 * opening sentence longer than the budget cut to it), so the caller still gets the page's start.
 * A chunk never cuts a sentence, so one sentence can be longer than the budget: when every chunk
 * holding a query word is, the best of them is cut to the budget around its first query word
 * (whole words), rather than answering with passages that hold none.
 */
export function selectPassages(request: PassageRequest): Passage[] {
  const { bodyText, maxTokens } = request;
  const chunks = chunksOf(bodyText, request.bodyMarkdown, Math.min(CHUNK_DEFAULTS.targetTokens, maxTokens));
  const scores = scoreChunks(
    chunks.map((c) => ({ text: bodyText.slice(c.start, c.end), headingPath: c.headingPath })),
    request.query,
    request.lang,
  );
  const order = chunks.map((_, i) => i);
  if (scores.some((s) => s > 0)) order.sort((a, b) => scores[b]! - scores[a]! || a - b);
  const chosen: number[] = [];
  let used = 0;
  for (const i of order) {
    if (scores[i]! <= 0 && chosen.some((c) => scores[c]! > 0)) break;
    const tokens = chunks[i]!.tokens;
    if (used + tokens > maxTokens) {
      // The opening stops at the first chunk that does not fit: a later, shorter one is no opening.
      if (scores[i]! <= 0) break;
      continue;
    }
    chosen.push(i);
    used += tokens;
  }
  const best = order[0];
  if (best !== undefined && scores[best]! > 0 && !chosen.some((c) => scores[c]! > 0)) {
    const chunk = chunks[best]!;
    const termSet = new Set(queryTerms(request.query, request.lang));
    const lang = request.lang ?? 'und';
    const holdsTerm = (word: string) =>
      [...indexTokens(word, lang), ...joinedTokens(word, lang)].some((t) => termSet.has(t));
    const window = windowAround(bodyText, chunk, holdsTerm, maxTokens);
    if (window !== null) {
      const text = bodyText.slice(window.start, window.end);
      const score = Math.round(scores[best]! * SCORE_DECIMALS) / SCORE_DECIMALS;
      return [{ text, ...window, score, heading_path: chunk.headingPath, tokens: countTokens(text) }];
    }
  }
  const first = chunks[0];
  if (chosen.length === 0 && first !== undefined && scores[0]! <= 0) {
    // No query word anywhere, and the opening chunk is one sentence longer than the budget: its
    // first words, up to the budget.
    const window = windowAround(bodyText, first, () => true, maxTokens);
    if (window !== null) {
      const text = bodyText.slice(window.start, window.end);
      return [{ text, ...window, score: 0, heading_path: first.headingPath, tokens: countTokens(text) }];
    }
  }
  return chosen
    .sort((a, b) => a - b)
    .map((i) => {
      const chunk = chunks[i]!;
      return {
        text: bodyText.slice(chunk.start, chunk.end),
        start: chunk.start,
        end: chunk.end,
        score: Math.round(scores[i]! * SCORE_DECIMALS) / SCORE_DECIMALS,
        heading_path: chunk.headingPath,
        tokens: chunk.tokens,
      };
    });
}

/**
 * The longest run of whole words of `span` around its first word that `isHit` accepts (one holding
 * a query term, or any word for an opening or a page portion) that fits `maxTokens` (grown a word at
 * a time, after it first, then before it); null when that word alone does not fit. Each word's
 * tokens are counted once (with the space before it, as it stands in the text) and the run is grown
 * on their sum, then counted whole and cut back while over the budget: a sentence of many thousand
 * words costs one count per word, not one per step.
 */
export function windowAround(
  text: string,
  span: { readonly start: number; readonly end: number },
  isHit: (word: string) => boolean,
  maxTokens: number,
): { start: number; end: number } | null {
  const words = [...text.slice(span.start, span.end).matchAll(/\S+/g)].map((m) => ({
    start: span.start + m.index,
    end: span.start + m.index + m[0].length,
  }));
  const hit = words.findIndex((w) => isHit(text.slice(w.start, w.end)));
  if (hit === -1) return null;
  const tokensOf = (from: number, to: number) => countTokens(text.slice(words[from]!.start, words[to]!.end));
  if (tokensOf(hit, hit) > maxTokens) return null;
  // Counted as the run reaches them: at most the budget's worth of words on either side.
  const costs = new Map<number, number>();
  const cost = (i: number) => {
    let c = costs.get(i);
    if (c === undefined) {
      c = countTokens(` ${text.slice(words[i]!.start, words[i]!.end)}`);
      costs.set(i, c);
    }
    return c;
  };
  let from = hit;
  let to = hit;
  let used = tokensOf(hit, hit);
  for (let grown = true; grown; ) {
    grown = false;
    if (to + 1 < words.length && used + cost(to + 1) <= maxTokens) {
      used += cost(++to);
      grown = true;
    }
    if (from > 0 && used + cost(from - 1) <= maxTokens) {
      used += cost(--from);
      grown = true;
    }
  }
  // Words counted apart may count a token more or less together.
  while (tokensOf(from, to) > maxTokens) {
    if (to - hit >= hit - from) to--;
    else from++;
  }
  return { start: words[from]!.start, end: words[to]!.end };
}
