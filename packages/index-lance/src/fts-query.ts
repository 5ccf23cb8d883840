import type { IndexQuery, QueryField, QueryNode } from '@quarry/core';
import { FILETYPE_FAMILY } from '@quarry/core';
import { bigramQueryTokens, hasCjk, isStopWord, stemToken, tokenize } from '@quarry/text';
import { languageReadings } from './language-forms.js';
import { COLUMNS, META_ALL, QUALITY_BUCKETS } from './rows.js';

/**
 * Translation of a parsed query into a tree of LanceDB full-text queries (kept backend-neutral here
 * as plain data, so it can be unit-tested without the native module; `lance-query.ts` builds the
 * engine's objects from it) plus an SQL filter for the facts every match must have.
 */
export type FtsNode =
  | {
      readonly kind: 'match';
      readonly token: string;
      readonly column: string;
      readonly boost: number;
      /**
       * On one of a word's forms (its English stem, as typed where that differs, then its stems in
       * the languages with stems of their own): all of them, which set its weight (see weighForms).
       */
      readonly forms?: readonly string[];
      /** A word's stems in these languages (see language-forms.ts): asked while the index has their pages. */
      readonly languages?: readonly string[];
      /**
       * The token is one Chinese, Japanese or Korean character, matched wherever it is written: as
       * itself (the index holds a lone character only where a run ends) or as the first of a pair
       * (see {@link charPrefix}).
       */
      readonly prefix?: true;
      /**
       * With `prefix`, the tokens asked (the character first): all it may begin unless given (see
       * `pairsBeginningWith`); for pages not folded yet, those their fresh tier holds.
       */
      readonly pairs?: readonly string[];
    }
  | {
      readonly kind: 'phrase';
      readonly tokens: readonly string[];
      readonly column: string;
      /** As a match's `languages`. */
      readonly languages?: readonly string[];
    }
  | {
      readonly kind: 'bool';
      readonly must: readonly FtsNode[];
      readonly should: readonly FtsNode[];
      readonly mustNot: readonly FtsNode[];
    }
  /** Scores of `positive`'s matches that also match `negative` are multiplied by `factor` (< 1). */
  | { readonly kind: 'boost'; readonly positive: FtsNode; readonly negative: FtsNode; readonly factor: number };

/** Ranking weights; see `LanceSearchIndexOptions` (the title's weight is set when a page is written). */
export interface RankingWeights {
  readonly langPriorityBoost: number;
}

/** What a search runs: the full-text tree (null for a filter-only query) and the SQL filter. */
export interface FtsPlan {
  readonly fts: FtsNode | null;
  /**
   * A query of exclusions only beside its filters (`site:x.org -draft`, `fts` null): the tree any
   * excluded page matches (the exclusions ORed), which a listing of the filtered pages leaves out;
   * null otherwise.
   */
  readonly exclude: FtsNode | null;
  /** SQL predicate for `where`, or null when nothing is filtered. */
  readonly where: string | null;
  /** Query words for snippets (as typed). */
  readonly snippetTerms: readonly string[];
  /** False when the caller makes the snippets (`snippets: false`): see `toHit`. */
  readonly snippets: boolean;
}

/**
 * The plan of an `IndexQuery`; `fts` is null when the query has no searchable word left. The priors
 * (`lang_priority`, quality) are not part of it: the engine's boost query subtracts a multiple of
 * the negative query's score rather than multiplying, so the searches apply them to the matches.
 */
export function planQuery(query: IndexQuery): FtsPlan {
  const any = query.match === 'any';
  const root = query.query.root;
  const snippetTerms: string[] = [];
  if (root) collectPositive(root, snippetTerms);
  const snippets = query.snippets !== false;
  const where = whereClause(query);
  // Only exclusions (`site:x -word`, valid with a filter): the filtered pages are listed, newest
  // first, less those any exclusion matches. As a full-text query (every page but the excluded
  // ones) its matches all scored the same, so they came in the index's order, and past the
  // matches counted some were never seen.
  const parts = root?.type === 'and' ? andParts(root.children, any) : null;
  if (parts && parts.must.length === 0 && parts.should.length === 0 && parts.mustNot.length > 0) {
    const exclude = parts.mustNot.length === 1 ? parts.mustNot[0]! : anyOf(parts.mustNot);
    return { fts: null, exclude, where, snippetTerms, snippets };
  }
  // A lone word of a question may be one of several tokens (`heat-transfer`): see looseWords.
  const fts = root ? translate(any && root.type === 'term' ? { type: 'and', children: [root] } : root, any) : null;
  return { fts, exclude: null, where, snippetTerms, snippets };
}

/**
 * The factor a page's score is multiplied by: 1 / `langPriorityBoost` unless it is in the
 * `lang_priority` language (when one is asked for), times its quality bucket's factor (when the
 * quality prior is on).
 */
export function priorFactor(
  page: { readonly lang: string; readonly quality: number },
  langPriority: string | undefined,
  weights: RankingWeights,
  qualityPrior: boolean,
): number {
  const language = langPriority === undefined || page.lang === langPriority ? 1 : 1 / weights.langPriorityBoost;
  return language * (qualityPrior ? qualityFactor(page.quality) : 1);
}

/**
 * The engine's BM25 IDF of a token held by `count` of `pages` pages: ln(1 + (N − n + 0.5) / (n + 0.5)),
 * the count capped at the pages (counts read through a scan may include pages not folded yet).
 */
export function bm25Idf(count: number, pages: number): number {
  const n = Math.min(count, pages);
  return Math.log(1 + (pages - n + 0.5) / (n + 0.5));
}

/** The score factor of a page's quality prior (1 unless it falls in a low-quality bucket). */
export function qualityFactor(quality: number): number {
  return QUALITY_BUCKETS.find((bucket) => quality < bucket.below)?.factor ?? 1;
}

/** Whether the query had words but none survived analysis (`🎉`): it matches nothing. */
export function matchesNothing(query: IndexQuery, plan: FtsPlan): boolean {
  return query.query.root !== null && plan.fts === null && plan.exclude === null;
}

function match(token: string, column: string, boost: number): FtsNode {
  return { kind: 'match', token, column, boost };
}

/** A page matching any of `nodes`. */
function anyOf(nodes: readonly FtsNode[]): FtsNode {
  return { kind: 'bool', must: [], should: nodes, mustNot: [] };
}

/**
 * One node of the query tree. In `all` mode an AND requires its words, except stop words, which
 * only score (unless the AND has nothing else); in `any` mode words only score, while phrases,
 * `intitle:` and exclusions stay hard constraints. Returns null for a clause without tokens.
 */
function translate(node: QueryNode, any: boolean): FtsNode | null {
  switch (node.type) {
    case 'term':
    case 'phrase':
      return textNode(node.text, node.field, node.type === 'phrase');
    case 'or': {
      const children = looseWords(node.children)
        .map((c) => translate(c, any))
        .filter((c) => c !== null);
      if (children.length === 0) return null;
      return children.length === 1 ? children[0]! : { kind: 'bool', must: [], should: children, mustNot: [] };
    }
    case 'not':
      return null; // only meaningful inside an AND, handled there
    case 'and':
      return andNode(node.children, any);
  }
}

function andNode(nodes: readonly QueryNode[], any: boolean): FtsNode | null {
  const { must, should, mustNot } = andParts(nodes, any);
  // Only exclusions (nested; at the root, see planQuery): every page but the excluded ones.
  if (must.length === 0 && should.length === 0 && mustNot.length > 0) {
    return { kind: 'bool', must: [match(META_ALL, COLUMNS.meta, 1)], should: [], mustNot };
  }
  if (must.length === 0 && should.length === 0) return null;
  if (must.length === 1 && should.length === 0 && mustNot.length === 0) return must[0]!;
  return { kind: 'bool', must, should, mustNot };
}

/** The clauses of an AND: required, scoring only, and excluded (see {@link translate}). */
function andParts(
  nodes: readonly QueryNode[],
  any: boolean,
): { must: FtsNode[]; should: FtsNode[]; mustNot: FtsNode[] } {
  const must: FtsNode[] = [];
  const should: FtsNode[] = [];
  const mustNot: FtsNode[] = [];
  // A question's stop words beside a hard constraint only score; without one, they would make
  // every page a match (see questionWords).
  const hard = nodes.some((node) => node.type !== 'not' && isHardConstraint(node));
  const loose = any ? looseWords(nodes) : nodes;
  const children = any && !hard ? questionWords(loose) : loose;
  for (const child of children) {
    if (child.type === 'not') {
      const excluded = translate(child.child, false);
      if (excluded) mustNot.push(excluded);
      continue;
    }
    const translated = translate(child, any);
    if (!translated) continue;
    const optional = (any && !isHardConstraint(child)) || (child.type === 'term' && isStopTerm(child.text));
    (optional ? should : must).push(translated);
  }
  // An AND of stop words only ("the who"): they are all that is asked for, so they are required.
  if (must.length === 0 && !any) must.push(...should.splice(0));
  return { must, should, mustNot };
}

/** Phrases and `intitle:` stay required in `any` mode; so does an OR made only of them. */
function isHardConstraint(node: QueryNode): boolean {
  if (node.type === 'phrase' || (node.type === 'term' && node.field === 'title')) return true;
  if (node.type === 'or') return node.children.every(isHardConstraint);
  return false;
}

/**
 * The words of a `match=any` question that make a page a match: all but its stop words, unless it
 * is made of nothing else ("to be or not to be"). A page holding only `what`, `is` and `the` of
 * "what is the zeppelin" answers nothing: counted as matches, such pages filled the results of any
 * question with no answer here, and the external fallback (asked when local results run short)
 * never came. Words the user joins with OR are not a question: each is an alternative, a stop word
 * too (the spec's `A OR B` matches either).
 */
export function questionWords(nodes: readonly QueryNode[]): readonly QueryNode[] {
  const stop = (node: QueryNode) => node.type === 'term' && isStopTerm(node.text);
  const asked = nodes.some((node) => node.type !== 'not' && !stop(node));
  return asked ? nodes.filter((node) => !stop(node)) : nodes;
}

/**
 * The words of a `match=any` question or of an OR group, each word that analyses into several tokens (`heat-transfer`,
 * `state-of-the-art`, `e-mail`, `v2.0`) given as one optional word per token, as a bag-of-words
 * ranking (and the exhaustive BM25 the relevance benchmark compares with) reads it: a page saying
 * "heat transfer" or "transfer of heat" answers the question too. Asked as a phrase, such a word
 * scored only pages holding its tokens in a row and sent the question to the general plan, which
 * scores every match. Chinese and Japanese words keep their phrase of character pairs (a word there
 * is written without spaces, and its pairs apart mean little); quoted phrases and `intitle:` words
 * stay hard constraints.
 */
export function looseWords(nodes: readonly QueryNode[]): readonly QueryNode[] {
  let split = false;
  const words = nodes.flatMap((node): QueryNode[] => {
    if (node.type !== 'term' || node.field !== 'any' || hasCjk(node.text)) return [node];
    const tokens = tokenize(node.text);
    if (tokens.length < 2) return [node];
    split = true;
    // Its stop words are parts of the word, not words of the query (`state-of-the-art` is `state`
    // and `art`): in an OR, `the` would make every page a match.
    const content = tokens.filter((token) => !isStopWord(token));
    return (content.length > 0 ? content : tokens).map((text) => ({ type: 'term', text, field: 'any' }));
  });
  return split ? words : nodes;
}

/** Whether a word is nothing but stop words (`the`, `to-be`). */
export function isStopTerm(text: string): boolean {
  const tokens = tokenize(text);
  return tokens.length > 0 && tokens.every(isStopWord);
}

/**
 * A word or phrase as engine queries over the search column (the title column for `intitle:`). A word
 * that analyses into several tokens (`re:invent`, CJK text) is a phrase of them. English pages are
 * indexed stemmed, other pages as typed or by their language's stems, so each form is tried where
 * they differ (a language's stems only while the index has its pages: see `languages`).
 */
function textNode(text: string, field: QueryField, quoted: boolean): FtsNode | null {
  const column = field === 'title' ? COLUMNS.title : COLUMNS.text;
  const char = charPrefix(text);
  if (char !== null) return { kind: 'match', token: char, column, boost: 1, prefix: true };
  const forms = wordForms(text);
  if (forms.length === 0) return null;
  const open = openEnd(text);
  const asked: { readonly tokens: readonly string[]; readonly languages?: readonly string[] }[] = [
    ...forms.map((tokens) => ({ tokens })),
    ...languageReadings(forms[0]!, forms.at(-1)!),
  ];
  const single = asked.length > 1 && asked.every(({ tokens }) => tokens.length === 1);
  const all = single ? asked.map(({ tokens }) => tokens[0]!) : undefined;
  const alternatives = asked.map(
    ({ tokens, languages }): FtsNode => ({
      ...(tokens.length === 1 && !quoted
        ? { ...match(tokens[0]!, column, 1), ...(all ? { forms: all } : {}) }
        : open !== null && tokens.length > 1 && tokens.at(-1) === open
          ? openPhrase(tokens, column)
          : { kind: 'phrase' as const, tokens, column }),
      ...(languages ? { languages } : {}),
    }),
  );
  return alternatives.length === 1 ? alternatives[0]! : { kind: 'bool', must: [], should: alternatives, mustNot: [] };
}

/**
 * The tree with each word of several forms weighed as one word: English pages are indexed by stems
 * and every other page as typed (or by its language's stems), so the typed form of an English word
 * (`computing`) is held only by pages in other languages, and on its own statistics its IDF is large
 * (a German page mentioning `Cloud Computing` outranked every English page about computing). Each
 * form's match is boosted by idf(pages holding any form) / idf(pages holding it): its BM25 is then
 * the word's. `frequency`
 * gives the pages holding a token in a column, `pages` the pages counted over. Exact per word, as
 * the fast plan's factor per list is for one word (fast-search.ts, formScales).
 */
export function weighForms(
  node: FtsNode,
  frequency: (column: string, token: string) => number,
  pages: number,
): FtsNode {
  switch (node.kind) {
    case 'match': {
      if (!node.forms || pages <= 0) return node;
      const pagesHolding = (token: string) => Math.min(frequency(node.column, token), pages);
      const any = [...new Set(node.forms)].reduce((sum, token) => sum + pagesHolding(token), 0);
      const own = pagesHolding(node.token);
      if (own === 0) return node;
      return { ...node, boost: node.boost * (bm25Idf(any, pages) / bm25Idf(own, pages)) };
    }
    case 'phrase':
      return node;
    case 'boost':
      return { ...node, positive: weighForms(node.positive, frequency, pages) };
    case 'bool': {
      const weigh = (nodes: readonly FtsNode[]) => nodes.map((child) => weighForms(child, frequency, pages));
      return { ...node, must: weigh(node.must), should: weigh(node.should) };
    }
  }
}

/**
 * The tree for an index whose pages are all indexed by stems (English): each word of two forms
 * asked in its stem only. A typed form an English page holds is another word's stem (`nutritionally`
 * is indexed as `nutrition`, `nutrition` as `nutrit`), and asking it too counted the word twice on
 * such a page, the second time at the rare form's IDF. Excluded words keep both forms.
 */
export function stemsOnly(node: FtsNode): FtsNode {
  switch (node.kind) {
    case 'boost':
      return { ...node, positive: stemsOnly(node.positive) };
    case 'bool':
      return {
        ...node,
        must: node.must.map(stemsOnly),
        should: node.should.filter((child) => !isTypedForm(child)).map(stemsOnly),
      };
    default:
      return node;
  }
}

/** A word's form other than its English stem, beside it (see textNode). */
function isTypedForm(node: FtsNode): boolean {
  return node.kind === 'match' && node.forms !== undefined && node.token !== node.forms[0];
}

/** The `[column, token]` pairs whose pages {@link weighForms} counts: every form of each word of several. */
export function formTokens(node: FtsNode): (readonly [column: string, token: string])[] {
  const found = new Map<string, readonly [string, string]>();
  const visit = (n: FtsNode): void => {
    if (n.kind === 'match') for (const token of n.forms ?? []) found.set(`${n.column} ${token}`, [n.column, token]);
    else if (n.kind === 'boost') visit(n.positive);
    else if (n.kind === 'bool') for (const child of [...n.must, ...n.should]) visit(child);
  };
  visit(node);
  return [...found.values()];
}

/**
 * The character a word of one Chinese, Japanese or Korean character is (`猫`, `"反"`), or null. The
 * index holds pairs of characters and a run's last character alone, so such a character is searched
 * as a prefix: itself, or any pair it begins. A word or phrase of several tokens ending in such a
 * character (`3月9日`, `"5个"`) asks it so after the others (see {@link openEnd}).
 */
export function charPrefix(text: string): string | null {
  const { tokens, lastIsPrefix } = bigramQueryTokens(text);
  return lastIsPrefix && tokens.length === 1 ? tokens[0]! : null;
}

/**
 * The lone CJK character a word or phrase of several tokens ends in (`日` of `3月9日`, `个` of
 * `"5个"`), or null: the index holds it alone only where its run ends (`3月9日，`), and as the first
 * of a pair where more of its script follows (`日报` of `3月9日报道`). See {@link openPhrase}.
 */
export function openEnd(text: string): string | null {
  if (!hasCjk(text)) return null;
  const { tokens, lastIsPrefix } = bigramQueryTokens(text);
  return lastIsPrefix && tokens.length > 1 && tokens.length <= MAX_PHRASE_TOKENS ? tokens.at(-1)! : null;
}

/** Whether a word or phrase asks a one-character prefix (see {@link charPrefix}, {@link openEnd}). */
export function asksCharPrefix(text: string): boolean {
  return charPrefix(text) !== null || openEnd(text) !== null;
}

/**
 * A phrase of tokens ending in a lone CJK character (see {@link openEnd}): its other tokens in a row
 * and the character as a prefix, required, and the tokens in a row as typed, scoring (a page holding
 * `3月9日` where a run ends). Matched in a row as typed only, `3月9日` missed `3月9日报道`; as the
 * words 3, 月, 9 and 日 anywhere, it found pages holding `3月` and `9日` apart first. The tokens in a
 * row come first: LanceDB 0.37 scores a boolean query holding a prefix by its first required clause
 * only (`日 中国` scores as `日`, which sums every pair of `日` a page holds, `中国 日` as `中国`).
 */
function openPhrase(tokens: readonly string[], column: string): FtsNode {
  const head = tokens.slice(0, -1);
  return {
    kind: 'bool',
    must: [
      head.length === 1 ? match(head[0]!, column, 1) : { kind: 'phrase', tokens: head, column },
      { kind: 'match', token: tokens.at(-1)!, column, boost: 1, prefix: true },
    ],
    should: [{ kind: 'phrase', tokens, column }],
    mustNot: [],
  };
}

/**
 * Tokens of a phrase (or a word of several parts) searched: its first ones. The engine's phrase
 * check grows faster than the phrase: a query of one word of 2,048 parts (`a-a-…-a`, 4 KB, one
 * word to the query's word limit) or a quoted phrase of 2,040 words took 5 to 8 s at 30,000 pages,
 * and kept the index from everyone else meanwhile. Pages holding a phrase's first 32 words in a row
 * are, in practice, the pages holding it whole.
 */
export const MAX_PHRASE_TOKENS = 32;

/**
 * The token sequences a word or phrase is searched as: stemmed (how English pages are indexed), then
 * as typed (every other page) where the two differ; empty when nothing is left after analysis. A
 * phrase is cut to its first {@link MAX_PHRASE_TOKENS} tokens.
 */
export function wordForms(text: string): (readonly string[])[] {
  const analysed = hasCjk(text) ? bigramQueryTokens(text).tokens : tokenize(text, { cjk: 'bigrams' });
  const exact = analysed.length > MAX_PHRASE_TOKENS ? analysed.slice(0, MAX_PHRASE_TOKENS) : analysed;
  if (exact.length === 0) return [];
  const stemmed = exact.map(stemToken);
  return sameTokens(exact, stemmed) ? [exact] : [stemmed, exact];
}

function sameTokens(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((token, i) => token === b[i]);
}

function collectPositive(node: QueryNode, out: string[]): void {
  if (node.type === 'term' || node.type === 'phrase') out.push(node.text);
  else if (node.type === 'and' || node.type === 'or') for (const child of node.children) collectPositive(child, out);
}

/** Two SQL predicates joined by AND (the first may be absent). */
export function and(a: string | undefined, b: string): string {
  return a ? `(${a}) AND (${b})` : b;
}

/** SQL string literal: single quotes doubled (the only escape SQL string literals have). */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** The filter every match must pass: language, sites (with subdomains), file types, crawl time. */
export function whereClause(query: IndexQuery): string | null {
  const parts: string[] = [];
  if (query.lang !== undefined) parts.push(`${COLUMNS.lang} = ${sqlString(query.lang)}`);
  const sites = query.query.sites;
  if (sites.length > 0) parts.push(`array_has_any(${COLUMNS.sites}, [${sites.map(sqlString).join(', ')}])`);
  if (query.site !== undefined) parts.push(`array_has_any(${COLUMNS.sites}, [${sqlString(query.site)}])`);
  if (query.query.filetypes.length > 0) {
    const types = [...new Set(query.query.filetypes.flatMap((value) => FILETYPE_FAMILY[value]))];
    parts.push(`${COLUMNS.filetype} IN (${types.map(sqlString).join(', ')})`);
  }
  if (query.crawledAfter !== undefined) {
    const ms = Date.parse(query.crawledAfter);
    if (Number.isFinite(ms)) parts.push(`${COLUMNS.crawledMs} >= ${ms}`);
  }
  return parts.length === 0 ? null : parts.join(' AND ');
}
