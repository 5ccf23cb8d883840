import { FILETYPE_FAMILY, type IndexQuery, type QueryNode } from '@quarry/core';
import { hasCjk, isStopWord, tokenize } from '@quarry/text';
import { filetypeToken, langToken, META_ALL, monthToken, siteToken } from './fts-text.js';

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
  readonly positiveLeaves: readonly string[];
  /** True when the query can match nothing (no positive clause and no filter). */
  readonly empty: boolean;
}

/** Month tokens are ORed in only while the range is this short; longer ranges filter outside FTS5. */
const MAX_MONTH_TOKENS = 7;

/** Quotes one token as an FTS5 string; doubling `"` makes any user text inert. */
function quote(token: string): string {
  return `"${token.replaceAll('"', '""')}"`;
}

const TEXT_COLUMNS = '{title body site}';
const TITLE_COLUMN = '{title}';

/** Collects the positive leaves while translating: their text (snippets) and FTS5 form (ranking). */
interface Sink {
  readonly texts: string[];
  readonly leaves: string[];
}

interface Translated {
  readonly expr: string;
  /** A single stop word, which an AND may drop while other words remain. */
  readonly stopWord: boolean;
}

function leaf(node: QueryNode & { type: 'term' | 'phrase' }, terms: Sink): Translated | null {
  const tokens = tokenize(node.text);
  if (tokens.length === 0) return null;
  let body: string;
  if (tokens.length === 1) body = quote(tokens[0]!);
  // A CJK word segments into several words that need not be adjacent in another context.
  else if (node.type === 'term' && tokens.some(hasCjk)) body = `(${tokens.map(quote).join(' AND ')})`;
  // `re:invent`, `e-mail` and quoted phrases: the tokens in order, next to each other.
  else body = tokens.map(quote).join(' + ');
  const columns = node.field === 'title' ? TITLE_COLUMN : TEXT_COLUMNS;
  terms.texts.push(node.text);
  terms.leaves.push(`${columns} : ${body}`);
  return {
    expr: `${columns} : ${body}`,
    stopWord: node.type === 'term' && tokens.length === 1 && isStopWord(tokens[0]!),
  };
}

function translate(node: QueryNode, terms: Sink): Translated | null {
  switch (node.type) {
    case 'term':
    case 'phrase':
      return leaf(node, terms);
    case 'not':
      // A lone negation cannot be expressed in FTS5; parents handle negations themselves.
      return null;
    case 'or': {
      const children = node.children.map((child) => translate(child, terms)).filter((c) => c !== null);
      if (children.length <= 1) return children[0] ?? null;
      return { expr: `(${children.map((c) => c.expr).join(' OR ')})`, stopWord: false };
    }
    case 'and': {
      const { positive, negative } = translateAnd(node.children, terms);
      if (positive === null) return null;
      return {
        expr: negative === null ? positive.expr : `(${positive.expr} NOT ${negative})`,
        stopWord: positive.stopWord,
      };
    }
  }
}

function translateAnd(
  children: readonly QueryNode[],
  terms: Sink,
): { positive: Translated | null; negative: string | null } {
  const positives: Translated[] = [];
  const negatives: Translated[] = [];
  for (const child of children) {
    if (child.type === 'not') {
      const negated = translate(child.child, { texts: [], leaves: [] });
      if (negated) negatives.push(negated);
    } else {
      const translated = translate(child, terms);
      if (translated) positives.push(translated);
    }
  }
  // Stop words add almost nothing to an AND but make FTS5 walk most of the index.
  const meaningful = positives.filter((p) => !p.stopWord);
  const kept = meaningful.length > 0 ? meaningful : positives;
  const negative = negatives.length === 0 ? null : `(${negatives.map((n) => n.expr).join(' OR ')})`;
  if (kept.length === 0) return { positive: null, negative };
  if (kept.length === 1) return { positive: kept[0]!, negative };
  return { positive: { expr: `(${kept.map((p) => p.expr).join(' AND ')})`, stopWord: false }, negative };
}

/** The OR of `meta` tokens for one filter, or null when the filter is absent. */
function metaAny(tokens: readonly string[]): string | null {
  if (tokens.length === 0) return null;
  return `meta : (${tokens.map(quote).join(' OR ')})`;
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
  const sink: Sink = { texts: [], leaves: [] };
  const snippetTerms = sink.texts;
  const positiveLeaves = sink.leaves;
  const root = query.query.root;
  let positive: Translated | null = null;
  let negative: string | null = null;
  if (root?.type === 'and') ({ positive, negative } = translateAnd(root.children, sink));
  else if (root) positive = translate(root, sink);

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
