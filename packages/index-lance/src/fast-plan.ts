import type { IndexQuery, QueryNode } from '@quarry/core';
import { asksCharPrefix, isStopTerm, looseWords, questionWords, wordForms } from './fts-query.js';
import { COLUMNS } from './rows.js';

/**
 * The fast plan of a query: the shapes nearly every search has (words joined by AND or OR, one
 * phrase, `intitle:` words, exclusions of words) as single engine queries. LanceDB 0.37 answers a
 * match query of several words, or a phrase, with block-max WAND in a few milliseconds, while any
 * boolean or boost query scores every match (100+ ms at 100,000 pages). Other shapes (a phrase
 * beside words, nested groups, exclusions of phrases) go through the general plan (`fts-query.ts`).
 */
export interface FastQuery {
  readonly kind: 'match' | 'phrase';
  readonly tokens: readonly string[];
  /** A match query: whether every token is required (`false`: any token, more and rarer rank higher). */
  readonly all: boolean;
  readonly column: string;
  /**
   * Runs of tokens a match must also hold in a row (phrases beside other words, words of several
   * tokens): the engine finds and scores the pages holding every token (a phrase's score is the
   * BM25 of its tokens), and the candidates are then checked for the runs.
   */
  readonly phrases?: readonly (readonly string[])[];
  /**
   * Only pages whose language is indexed by stems (true: English) or only the others (false); all
   * when absent. A query of optional words is asked of each apart (see formAlternatives).
   */
  readonly stemmedPages?: boolean;
}

export interface FastPlan {
  /**
   * Queries whose matches together are the query's matches, each scored by BM25 on its own: the
   * stemmed forms (how English pages are indexed) and, where they differ, the forms as typed (every
   * other page). A page has one or the other, so the union ranks like one query.
   */
  readonly alternatives: readonly FastQuery[];
  /** Words no match may contain (any of them), or null. */
  readonly exclude: FastQuery | null;
  /**
   * With two alternatives (the stemmed and the typed forms, or one query of both forms asked of
   * English pages and of the others apart: see `stemmedPages`), the stemmed and the typed form of
   * each of the query's tokens (equal where stemming changes nothing), by which their scores are
   * brought to one scale (see `fast-search.ts`, formScales).
   */
  readonly forms?: readonly (readonly [stemmed: string, typed: string])[];
}

/** The fast plan of a query, or null when it needs the general one. */
export function planFast(query: IndexQuery): FastPlan | null {
  const root = query.query.root;
  if (!root || hasCharPrefix(root)) return null;
  const any = query.match === 'any';
  if (root.type === 'or') return orPlan(root.children);
  const children = root.type === 'and' ? root.children : [root];
  const positives: QueryNode[] = [];
  const excluded: string[] = [];
  for (const child of children) {
    if (child.type === 'not') {
      // Exclusions are checked against the body text; `-intitle:word` is the general plan's.
      if (child.child.type === 'term' && child.child.field === 'title') return null;
      const tokens = singleTokenForms(child.child);
      if (!tokens) return null;
      excluded.push(...tokens);
    } else if (child.type === 'term' || child.type === 'phrase') positives.push(child);
    else return null;
  }
  if (positives.length === 0) return null;
  const exclude: FastQuery | null =
    excluded.length > 0 ? { kind: 'match', tokens: unique(excluded), all: false, column: COLUMNS.text } : null;
  const planned = any ? anyAlternatives(positives) : allAlternatives(positives);
  return planned ? { ...planned, exclude } : null;
}

/** A word's stemmed and typed form (the same token twice when stemming changes nothing). */
type FormPair = readonly [stemmed: string, typed: string];

/** Alternatives, and with a stemmed and a typed one, the form pairs of the query's tokens. */
type Planned = Pick<FastPlan, 'alternatives' | 'forms'>;

/** Alternatives of one form each, or of both: their pairs from their tokens, in the same order. */
function aligned(alternatives: readonly FastQuery[]): Planned {
  const [stemmed, typed] = alternatives;
  if (alternatives.length !== 2 || !stemmed || !typed || stemmed.tokens.length !== typed.tokens.length) {
    return { alternatives };
  }
  return { alternatives, forms: stemmed.tokens.map((token, i) => [token, typed.tokens[i]!] as const) };
}

/**
 * Optional words: one query of every word, and where some of their forms differ, asked of the pages
 * indexed by stems in their stemmed forms and of the other pages in both forms (a page written as
 * typed may hold either: `glacier`, `glaciers`), apart (pairs of a word's two forms; duplicates
 * kept, as query term frequency). Each list is ranked by
 * the engine and can then be rescaled as a whole (see `fast-search.ts`, formScales): in one list, a
 * German page holding the English word `computing` outranked English pages about computing, whose
 * text holds it only as the stem `comput` (the typed form is rare in an index where English pages
 * hold stems, and its IDF large). An English page is asked for stems only: a typed form it holds is
 * another word's stem (`nutritionally` is stemmed to `nutrition`, `nutrition` to `nutrit`), and
 * counting it gave such pages the word twice, the second time at the rare form's IDF.
 */
function formAlternatives(pairs: readonly FormPair[], all: boolean, column: string): Planned {
  if (pairs.every(([s, t]) => s === t)) {
    return { alternatives: [{ kind: 'match', tokens: pairs.map(([s]) => s), all, column }] };
  }
  return {
    alternatives: [
      { kind: 'match', tokens: pairs.map(([s]) => s), all, column, stemmedPages: true },
      { kind: 'match', tokens: pairs.flatMap(([s, t]) => (s === t ? [s] : [s, t])), all, column, stemmedPages: false },
    ],
    forms: pairs,
  };
}

/**
 * `a OR b OR c`: one query of every form of every word, any of them. Words sharing a stem
 * (`title`, `titles`) each keep it: the engine then weighs the stem twice, as the general plan's
 * boolean query does (BM25 with query term frequency; on CISI's long queries nDCG@10 is 0.349 with
 * it and 0.308 without).
 */
function orPlan(children: readonly QueryNode[]): FastPlan | null {
  const pairs: FormPair[] = [];
  const fields = new Set<string>();
  for (const child of looseWords(children)) {
    const forms = singleTokenForms(child);
    if (!forms || child.type !== 'term') return null;
    fields.add(child.field);
    pairs.push(formPair(forms));
  }
  if (pairs.length === 0 || fields.size !== 1) return null;
  const column = fields.has('title') ? COLUMNS.title : COLUMNS.text;
  return { ...formAlternatives(pairs, false, column), exclude: null };
}

/**
 * `match=any`: plain words are all optional (one query of every form). `intitle:` words and
 * phrases are hard constraints there, so only a query made of nothing else is planned here. Stop
 * words are left out unless the query has nothing else (see {@link questionWords}).
 */
function anyAlternatives(positives: readonly QueryNode[]): Planned | null {
  const plain = positives.every((node) => node.type === 'term' && node.field === 'any');
  // Only hard constraints (phrases, `intitle:` words): every one is required, as in an AND.
  if (!plain)
    return positives.every((node) => isTitleTerm(node) || node.type === 'phrase') ? allAlternatives(positives) : null;
  const pairs: FormPair[] = [];
  for (const node of questionWords(looseWords(positives))) {
    const forms = singleTokenForms(node);
    if (!forms) return null;
    pairs.push(formPair(forms));
  }
  return pairs.length === 0 ? null : formAlternatives(pairs, false, COLUMNS.text);
}

/**
 * `match=all`: one phrase (or one word that is a phrase of tokens: `re:invent`, CJK text) alone, or
 * words and phrases, all required. Stop words beside other words are left out: they only score in
 * an AND, and their weight (a word on nearly every page) is close to nothing.
 */
function allAlternatives(positives: readonly QueryNode[]): Planned | null {
  const fields = new Set(positives.map((node) => (node.type === 'not' ? '' : (node as { field: string }).field)));
  if (fields.size !== 1) return null;
  const column = fields.has('title') ? COLUMNS.title : COLUMNS.text;
  if (positives.length === 1) {
    const node = positives[0]!;
    if (node.type !== 'term' && node.type !== 'phrase') return null;
    const forms = wordForms(node.text);
    if (forms.length === 0) return null;
    // A word whose forms are single tokens: either form, asked of each kind of page apart.
    if (node.type === 'term' && forms.length > 1 && forms.every((tokens) => tokens.length === 1)) {
      return formAlternatives([[forms[0]![0]!, forms[1]![0]!]], false, column);
    }
    return aligned(
      forms.map((tokens) =>
        tokens.length === 1 && node.type === 'term'
          ? { kind: 'match', tokens, all: true, column }
          : { kind: 'phrase', tokens, all: true, column },
      ),
    );
  }
  // Words and phrases together: every token required, each phrase checked among the candidates.
  // Stop words outside phrases are left out unless the query has nothing else.
  const plain = positives.filter((node) => node.type === 'phrase' || (node.type === 'term' && !isStopTerm(node.text)));
  const words = plain.length > 0 ? plain : positives;
  const stemmed: string[] = [];
  const typed: string[] = [];
  const stemmedRuns: (readonly string[])[] = [];
  const typedRuns: (readonly string[])[] = [];
  for (const node of words) {
    const forms = wordForms((node as { text: string }).text);
    if (forms.length === 0) continue;
    const [stems, asTyped] = [forms[0]!, forms.at(-1)!];
    stemmed.push(...stems);
    typed.push(...asTyped);
    if (stems.length > 1) {
      stemmedRuns.push(stems);
      typedRuns.push(asTyped);
    }
  }
  if (stemmed.length === 0) return null;
  const query = (tokens: readonly string[], runs: (readonly string[])[]): FastQuery => ({
    kind: 'match',
    tokens: unique(tokens),
    all: true,
    column,
    ...(runs.length > 0 ? { phrases: runs } : {}),
  });
  if (typed.every((token, i) => token === stemmed[i])) return { alternatives: [query(stemmed, stemmedRuns)] };
  return {
    alternatives: [query(stemmed, stemmedRuns), query(typed, typedRuns)],
    forms: stemmed.map((token, i) => [token, typed[i]!] as const),
  };
}

/**
 * Whether a word of the query is one CJK character, or ends in one after other tokens (`3月9日`),
 * searched as a prefix of pairs (see asksCharPrefix): a match of any of some 21,000 tokens, which
 * only the general plan asks.
 */
function hasCharPrefix(node: QueryNode): boolean {
  switch (node.type) {
    case 'term':
    case 'phrase':
      return asksCharPrefix(node.text);
    case 'not':
      return hasCharPrefix(node.child);
    case 'and':
    case 'or':
      return node.children.some(hasCharPrefix);
  }
}

function isTitleTerm(node: QueryNode): boolean {
  return node.type === 'term' && node.field === 'title';
}

/** Every form of a plain word when each is a single token; null for phrases and multi-token words. */
function singleTokenForms(node: QueryNode): string[] | null {
  if (node.type !== 'term') return null;
  const forms = wordForms(node.text);
  if (forms.length === 0 || forms.some((tokens) => tokens.length !== 1)) return null;
  return forms.map((tokens) => tokens[0]!);
}

/** A word's stemmed and typed form (see singleTokenForms): the same token twice when they agree. */
function formPair(forms: readonly string[]): FormPair {
  return [forms[0]!, forms.at(-1)!];
}

function unique(tokens: readonly string[]): string[] {
  return [...new Set(tokens)];
}
