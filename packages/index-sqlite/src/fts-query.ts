import { FILETYPE_FAMILY, type IndexQuery, type QueryNode } from '@quarry/core';
import { bigramQueryTokens, hasCjk, isStopWord, tokenize } from '@quarry/text';
import { filetypeToken, langToken, META_ALL, monthToken, siteToken, titleToken } from './fts-text.js';

/** The FTS5 side of a search: a MATCH expression (or none) plus what must be checked outside it. */
export interface FtsPlan {
  /** Full MATCH expression, or null when the query can only be answered from the pages table. */
  readonly match: string | null;
  /** Whether the text query kept at least one positive clause (else it is a filter-only query). */
  readonly hasText: boolean;
  /** Pages crawled before this time (ms) are excluded outside FTS5 (month tokens only narrow). */
  readonly crawledAfterMs: number | null;
  /** Plain texts of the positive clauses, for snippets. */
  readonly snippetTerms: readonly string[];
  /** FTS5 expressions of the positive clauses, each on its own (ranking looks at them one by one). */
  readonly positiveLeaves: readonly RankLeaf[];
  /** True when the query can match nothing (no positive clause and no filter). */
  readonly empty: boolean;
}

/** Month tokens are ORed in only while the range is this short; longer ranges filter outside FTS5. */
const MAX_MONTH_TOKENS = 7;

/** Quotes one token as an FTS5 string; doubling `"` makes any user text inert. */
export function quote(token: string): string {
  return `"${token.replaceAll('"', '""')}"`;
}

/** A positive clause as ranking sees it. */
export interface RankLeaf {
  /** The clause as matched (the title form for `intitle:`). */
  readonly expr: string;
  /** The clause matched in the title only (the `meta` column's marked title tokens). */
  readonly title: string;
}

interface Translated {
  readonly expr: string;
  /** A single stop word, which an AND may drop while other words remain. */
  readonly stopWord: boolean;
  /** Plain texts of the positive leaves under this node, for snippets. */
  readonly texts: readonly string[];
  /** The positive leaves under this node, for ranking. */
  readonly leaves: readonly RankLeaf[];
}

/**
 * A term or phrase as an FTS5 phrase: its tokens in order, next to each other (`re:invent`,
 * `e-mail`, a CJK word's character pairs), the last one a prefix when it is a lone CJK character.
 * No column filter: words only exist in title, body and site; `intitle:` uses marked title tokens.
 */
function phraseOf(tokens: readonly string[], lastIsPrefix: boolean): string {
  const body = tokens.map(quote).join(' + ');
  return lastIsPrefix ? `${body} *` : body;
}

/**
 * A bare CJK term typed without spaces (`北京天气`) is segmented into words with Intl.Segmenter and
 * each word must occur (AND), as if the user had typed the spaces (ranking still favours the words
 * side by side); a quoted phrase stays contiguous.
 */
function leaf(node: QueryNode & { type: 'term' | 'phrase' }): Translated | null {
  if (node.type === 'term' && hasCjk(node.text)) {
    const words = tokenize(node.text);
    const kept = words.filter((word) => !isStopWord(word));
    const parts = (kept.length > 0 ? kept : words)
      .map((word) => wordLeaf({ ...node, text: word }))
      .filter((part) => part !== null);
    const whole = wordLeaf(node);
    // The unsegmented run still ranks: pages with the words side by side score above the rest.
    if (parts.length > 1) {
      const all = combine(parts, 'AND');
      return { ...all, texts: [node.text], leaves: [...all.leaves, ...(whole?.leaves ?? [])] };
    }
    return whole;
  }
  return wordLeaf(node);
}

function wordLeaf(node: QueryNode & { type: 'term' | 'phrase' }): Translated | null {
  const { tokens, lastIsPrefix } = bigramQueryTokens(node.text);
  if (tokens.length === 0) return null;
  const title = phraseOf(tokens.map(titleToken), lastIsPrefix);
  const expr = node.field === 'title' ? title : phraseOf(tokens, lastIsPrefix);
  return {
    expr,
    stopWord: node.type === 'term' && tokens.length === 1 && !lastIsPrefix && isStopWord(tokens[0]!),
    texts: [node.text],
    leaves: [{ expr, title }],
  };
}

function combine(parts: readonly Translated[], operator: 'AND' | 'OR'): Translated {
  if (parts.length === 1) return parts[0]!;
  return {
    expr: `(${parts.map((p) => p.expr).join(` ${operator} `)})`,
    stopWord: false,
    texts: parts.flatMap((p) => p.texts),
    leaves: parts.flatMap((p) => p.leaves),
  };
}

function translate(node: QueryNode): Translated | null {
  switch (node.type) {
    case 'term':
    case 'phrase':
      return leaf(node);
    case 'not':
      // A lone negation cannot be expressed in FTS5; parents handle negations themselves.
      return null;
    case 'or': {
      const children = node.children.map(translate).filter((c) => c !== null);
      return children.length === 0 ? null : combine(children, 'OR');
    }
    case 'and': {
      const { positive, negative } = translateAnd(node.children);
      if (positive === null || negative === null) return positive;
      return { ...positive, expr: `(${positive.expr} NOT ${negative})`, stopWord: false };
    }
  }
}

function translateAnd(children: readonly QueryNode[]): { positive: Translated | null; negative: string | null } {
  const positives: Translated[] = [];
  const negatives: Translated[] = [];
  for (const child of children) {
    const translated = translate(child.type === 'not' ? child.child : child);
    if (translated) (child.type === 'not' ? negatives : positives).push(translated);
  }
  // Stop words add almost nothing to an AND but make FTS5 walk most of the index; they leave the
  // ranking and the snippet too, unless nothing else is left.
  const meaningful = positives.filter((p) => !p.stopWord);
  const kept = meaningful.length > 0 ? meaningful : positives;
  const negative = negatives.length === 0 ? null : combine(negatives, 'OR').expr;
  return { positive: kept.length === 0 ? null : combine(kept, 'AND'), negative };
}

/** The OR of `meta` tokens for one filter, or null when the filter is absent. */
function metaAny(tokens: readonly string[]): string | null {
  if (tokens.length === 0) return null;
  return tokens.length === 1 ? quote(tokens[0]!) : `(${tokens.map(quote).join(' OR ')})`;
}

function monthTokens(fromMs: number, toMs: number): string[] | null {
  const tokens: string[] = [];
  const cursor = new Date(fromMs);
  cursor.setUTCDate(1);
  cursor.setUTCHours(0, 0, 0, 0);
  while (cursor.getTime() <= toMs) {
    if (tokens.length === MAX_MONTH_TOKENS) return null;
    tokens.push(monthToken(cursor.getTime()));
    cursor.setUTCMonth(cursor.getUTCMonth() + 1);
  }
  return tokens;
}

/**
 * Translates a validated query into an FTS5 plan. Every token is quoted, so no user text can
 * inject FTS5 syntax. `latestCrawledMs` (the newest page in the index) bounds the month tokens.
 */
export function planFtsQuery(query: IndexQuery, latestCrawledMs: number): FtsPlan {
  const root = query.query.root;
  let positive: Translated | null = null;
  let negative: string | null = null;
  if (root?.type === 'and') ({ positive, negative } = translateAnd(root.children));
  else if (root) positive = translate(root);
  const snippetTerms = positive?.texts ?? [];
  const positiveLeaves = positive?.leaves ?? [];

  const crawledAfterMs = query.crawledAfter === undefined ? null : Date.parse(query.crawledAfter);
  const filters = [
    query.lang === undefined ? null : metaAny([langToken(query.lang)]),
    query.site === undefined ? null : metaAny([siteToken(query.site)]),
    metaAny(query.query.sites.map(siteToken)),
    metaAny(query.query.filetypes.flatMap((value) => FILETYPE_FAMILY[value].map(filetypeToken))),
    crawledAfterMs === null
      ? null
      : metaAny(monthTokens(crawledAfterMs, Math.max(latestCrawledMs, crawledAfterMs)) ?? []),
  ].filter((f) => f !== null);

  const hasFilter = filters.length > 0 || crawledAfterMs !== null;
  if (positive === null && !hasFilter) {
    return { match: null, hasText: false, crawledAfterMs, snippetTerms, positiveLeaves, empty: true };
  }
  const base = [positive?.expr ?? null, ...filters].filter((e) => e !== null);
  if (base.length === 0 && negative === null) {
    return { match: null, hasText: false, crawledAfterMs, snippetTerms, positiveLeaves, empty: false };
  }
  if (base.length === 0) base.push(metaAny([META_ALL])!);
  const conjunction = base.length === 1 ? base[0]! : base.map((e) => `(${e})`).join(' AND ');
  const match = negative === null ? conjunction : `(${conjunction}) NOT ${negative}`;
  return { match, hasText: positive !== null, crawledAfterMs, snippetTerms, positiveLeaves, empty: false };
}
