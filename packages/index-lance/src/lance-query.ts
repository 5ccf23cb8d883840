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
      if (node.prefix) return prefixMatch(node.pairs ?? pairsBeginningWith(node.token), node.column, node.boost);
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
function prefixMatch(tokens: readonly string[], column: string, boost: number): FullTextQuery {
  return new MatchQuery(tokens.join(' '), column, {
    operator: Operator.Or,
    ...(boost === 1 ? {} : { boost }),
  });
}

/** The engine's query of a fast-plan query, over `column` (its own column unless given). */
export function toFastLanceQuery(query: FastQuery, column = query.column): FullTextQuery {
  const text = query.tokens.join(' ');
  if (query.kind === 'phrase') return new PhraseQuery(text, column);
  return new MatchQuery(text, column, { operator: query.all ? Operator.And : Operator.Or });
}
