import type { IndexQuery, QueryField, QueryNode, TermNode } from '@quarry/core';
import { joinedWord } from '@quarry/text';

/** A query word written in parts (`e-mail`, `10,000`), and the one word its parts make. */
export interface JoinedWord {
  readonly term: TermNode;
  /** The parts written together: `email` for `e-mail`, `10000` for `10,000`. */
  readonly joined: string;
  /** The analysis version from which every page holds this kind of word's joined spelling too. */
  readonly since: number;
}

/** The analysis version from which the index holds each hyphenated word's joined spelling (see joinedTokens). */
export const HYPHENATED_JOINED_SINCE = 4;
/** The analysis version from which the index holds each grouped number's digits (`10,000` as `10000`). */
export const NUMBERS_JOINED_SINCE = 5;

/** The query's unquoted words written in parts (see joinedWord), in a query of words all required or all optional. */
export function joinableWords(query: IndexQuery): JoinedWord[] {
  return wordsOf(query).flatMap((node) => {
    const joined = node.type === 'term' ? joinedWord(node.text) : null;
    if (node.type !== 'term' || joined === null) return [];
    const since = /^\d+$/.test(joined) ? NUMBERS_JOINED_SINCE : HYPHENATED_JOINED_SINCE;
    return [{ term: node, joined, since }];
  });
}

/**
 * The query with each of `words` (see {@link joinableWords}) found either as typed or as its
 * parts written together (`e-mail` and `email`, `10,000` and `10000`). In an index whose pages all
 * hold the joined spelling of such words (analysed as `analysisVersion`, at least the word's
 * `since`), the word becomes its joined word, which then finds both spellings. Otherwise a
 * required word becomes the group `e-mail OR email`, and with `match=any` the joined word is one
 * more optional word. Meilisearch does the same for hyphenated words on its own (its concatenated
 * and split queries).
 */
export function withJoinedWords(query: IndexQuery, words: readonly JoinedWord[], analysisVersion = 1): IndexQuery {
  if (words.length === 0) return query;
  const wordOf = new Map(words.map((word) => [word.term, word]));
  const any = query.match === 'any';
  const alike = (text: string, field: QueryField): TermNode => ({ type: 'term', text, field });
  const extra: QueryNode[] = [];
  const children = wordsOf(query).map((child): QueryNode => {
    const word = child.type === 'term' ? wordOf.get(child) : undefined;
    if (child.type !== 'term' || word === undefined) return child;
    const joined = word.joined;
    if (analysisVersion >= word.since) return alike(joined, child.field);
    // `intitle:` words stay required in either mode.
    if (any && child.field === 'any') {
      extra.push(alike(joined, child.field));
      return child;
    }
    // As the phrase of its parts, which a group of words would loosen into the parts apart.
    return { type: 'or', children: [{ ...child, type: 'phrase' }, alike(joined, child.field)] };
  });
  const all = [...children, ...extra];
  const root: QueryNode = all.length === 1 ? all[0]! : { type: 'and', children: all };
  return { ...query, query: { ...query.query, root } };
}

/** The children of the query's root when it is a word or an AND of them (exclusions and all), else none. */
function wordsOf(query: IndexQuery): readonly QueryNode[] {
  const root = query.query.root;
  if (!root) return [];
  return root.type === 'and' ? root.children : root.type === 'term' ? [root] : [];
}
