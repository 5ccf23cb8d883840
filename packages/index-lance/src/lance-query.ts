import {
  BooleanQuery,
  BoostQuery,
  type FullTextQuery,
  MatchQuery,
  Occur,
  Operator,
  PhraseQuery,
} from '@lancedb/lancedb';
import { pairsBeginningWith } from '@quarry/text';
import type { FastQuery } from './fast-plan.js';
import type { FtsNode } from './fts-query.js';

/** Builds the engine's full-text query objects from a plan's tree. */
export function toLanceQuery(node: FtsNode): FullTextQuery {
  switch (node.kind) {
    case 'match':
      if (node.prefix) return prefixMatch(node.pairs?.join(' ') ?? allPairsText(node.token), node.column, node.boost);
      return new MatchQuery(node.token, node.column, node.boost === 1 ? {} : { boost: node.boost });
    case 'phrase':
      return new PhraseQuery(node.tokens.join(' '), node.column);
    case 'boost':
      return new BoostQuery(toLanceQuery(node.positive), toLanceQuery(node.negative), { negativeBoost: node.factor });
    case 'bool':
      return new BooleanQuery([
        ...node.must.map((child): [Occur, FullTextQuery] => [Occur.Must, toLanceQuery(child)]),
        ...node.should.map((child): [Occur, FullTextQuery] => [Occur.Should, toLanceQuery(child)]),
        ...node.mustNot.map((child): [Occur, FullTextQuery] => [Occur.MustNot, toLanceQuery(child)]),
      ]);
  }
}

/**
 * A one-character token and every pair it may begin, as one match query of any of them. LanceDB's
 * fuzzy match would be the natural query (one edit after a fixed prefix), but 0.37 gets it wrong for
 * characters of several bytes: `反` at one edit, its 3 bytes fixed, finds `反一` but not `反对`.
 */
function prefixMatch(text: string, column: string, boost: number): FullTextQuery {
  return new MatchQuery(text, column, {
    operator: Operator.Or,
    ...(boost === 1 ? {} : { boost }),
  });
}

/** Query texts of all the pairs of recent characters (about 60,000 characters each), newest last. */
const allPairsTexts = new Map<string, string>();
const MAX_ALL_PAIRS_TEXTS = 16;

/**
 * Every pair a character may begin, as the engine's query text. Building it takes 3–6 ms, and a
 * search asks it twice (its matches, then a sample to count them), so recent ones are kept.
 */
function allPairsText(char: string): string {
  let text = allPairsTexts.get(char);
  if (text === undefined) {
    text = pairsBeginningWith(char).join(' ');
    if (allPairsTexts.size >= MAX_ALL_PAIRS_TEXTS) allPairsTexts.delete(allPairsTexts.keys().next().value!);
  } else allPairsTexts.delete(char);
  allPairsTexts.set(char, text);
  return text;
}

/** The engine's query of a fast-plan query, over `column` (its own column unless given). */
export function toFastLanceQuery(query: FastQuery, column = query.column): FullTextQuery {
  const text = query.tokens.join(' ');
  if (query.kind === 'phrase') return new PhraseQuery(text, column);
  return new MatchQuery(text, column, { operator: query.all ? Operator.And : Operator.Or });
}
