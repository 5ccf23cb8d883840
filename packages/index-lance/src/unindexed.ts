import { pairsBeginningWith } from '@quarry/text';
import type { FtsNode } from './fts-query.js';

/**
 * Pages written since the last fold are not in the full-text indexes yet. The engine searches them
 * by a flat scan, which finds words but never phrases (LanceDB 0.37: a phrase query only matches
 * indexed rows; a multi-token word and CJK text are phrases too). So a query with a phrase also runs,
 * over the unindexed pages only, a relaxed form of itself (each phrase as the AND of its tokens,
 * exclusions of phrases left out), a superset of its true matches there, and each candidate is then
 * checked against the real query on its analysed columns here.
 */

/** Whether a node of the tree, or the tree itself, passes `test`. */
function anyNode(node: FtsNode, test: (node: FtsNode) => boolean): boolean {
  if (test(node)) return true;
  if (node.kind === 'boost') return anyNode(node.positive, test) || anyNode(node.negative, test);
  if (node.kind === 'bool') return [...node.must, ...node.should, ...node.mustNot].some((n) => anyNode(n, test));
  return false;
}

/** Whether a tree has a phrase anywhere (only then is the check needed). */
export function hasPhrase(node: FtsNode): boolean {
  return anyNode(node, (n) => n.kind === 'phrase');
}

/** Whether a tree asks a one-character prefix anywhere (see `charPrefix`). */
export function hasPrefix(node: FtsNode): boolean {
  return anyNode(node, (n) => n.kind === 'match' && n.prefix === true);
}

/**
 * The tree for pages not folded yet: each prefix asks only the pairs some such page holds
 * (`holds`). The engine's flat scan of those pages costs in proportion to the tokens asked: all the
 * pairs a character may begin (21,000) took 3.5–4.5 s a search over 2,000 such pages beside 10,000
 * folded ones, those they held 0.1–0.3 s.
 */
export function withHeldPairs(node: FtsNode, holds: (column: string, token: string) => boolean): FtsNode {
  return mapPrefixes(node, (match) => ({
    ...match,
    pairs: (match.pairs ?? pairsBeginningWith(match.token)).filter((token, i) => i === 0 || holds(match.column, token)),
  }));
}

/**
 * The tree with each one-character prefix asking the tokens `pairsOf` gives for its character (the
 * character first), or every pair it may begin where that gives null.
 */
export function withPairs(node: FtsNode, pairsOf: (char: string) => readonly string[] | null): FtsNode {
  return mapPrefixes(node, (match) => {
    const pairs = pairsOf(match.token);
    return pairs === null ? match : { ...match, pairs };
  });
}

/** A one-character prefix of a tree (see `charPrefix`). */
type PrefixMatch = Extract<FtsNode, { kind: 'match' }>;

/** The tree with each one-character prefix replaced by what `map` makes of it. */
function mapPrefixes(node: FtsNode, map: (match: PrefixMatch) => FtsNode): FtsNode {
  switch (node.kind) {
    case 'match':
      return node.prefix ? map(node) : node;
    case 'phrase':
      return node;
    case 'boost':
      return { ...node, positive: mapPrefixes(node.positive, map), negative: mapPrefixes(node.negative, map) };
    case 'bool': {
      const mapped = (nodes: readonly FtsNode[]) => nodes.map((child) => mapPrefixes(child, map));
      return { kind: 'bool', must: mapped(node.must), should: mapped(node.should), mustNot: mapped(node.mustNot) };
    }
  }
}

/** The relaxed tree: matches every page the real tree matches, and more. */
export function relax(node: FtsNode): FtsNode {
  switch (node.kind) {
    case 'match':
      return node;
    case 'phrase':
      return {
        kind: 'bool',
        must: node.tokens.map((token) => ({ kind: 'match', token, column: node.column, boost: 1 }) as const),
        should: [],
        mustNot: [],
      };
    case 'boost':
      return { ...node, positive: relax(node.positive) };
    case 'bool':
      return {
        kind: 'bool',
        must: node.must.map(relax),
        should: node.should.map(relax),
        mustNot: node.mustNot.filter((child) => !hasPhrase(child)),
      };
  }
}

/** A row's analysed columns, as stored (tokens joined by single spaces). */
export type AnalysedColumns = Readonly<Record<string, unknown>>;

/** Whether a row matches the tree exactly (the engine's semantics: a bool without `must` needs a `should`). */
export function matchesRow(node: FtsNode, row: AnalysedColumns): boolean {
  const tokens = new Map<string, string[]>();
  const columnTokens = (column: string): string[] => {
    let list = tokens.get(column);
    if (!list) {
      const text = row[column];
      list = typeof text === 'string' && text !== '' ? text.split(' ') : [];
      tokens.set(column, list);
    }
    return list;
  };
  const test = (n: FtsNode): boolean => {
    switch (n.kind) {
      case 'match':
        return n.prefix
          ? columnTokens(n.column).some((token) => beginsPair(token, n.token))
          : columnTokens(n.column).includes(n.token);
      case 'phrase':
        return containsRun(columnTokens(n.column), n.tokens);
      case 'boost':
        return test(n.positive);
      case 'bool':
        return n.must.every(test) && !n.mustNot.some(test) && (n.must.length > 0 || n.should.some(test));
    }
  };
  return test(node);
}

/** Whether a token is the character itself or a pair it begins (a prefix match, see `charPrefix`). */
function beginsPair(token: string, char: string): boolean {
  return token === char || (token.startsWith(char) && token.length > char.length && Array.from(token).length === 2);
}

function containsRun(haystack: readonly string[], run: readonly string[]): boolean {
  if (run.length === 0) return false;
  outer: for (let i = 0; i + run.length <= haystack.length; i++) {
    for (let j = 0; j < run.length; j++) if (haystack[i + j] !== run[j]) continue outer;
    return true;
  }
  return false;
}
