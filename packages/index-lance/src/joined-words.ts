import type { IndexQuery, QueryField, QueryNode, TermNode } from '@quarry/core';
import { joinedWord } from '@quarry/text';

/** A query word written with a hyphen, and the one word its parts make. */
export interface JoinedWord {
  readonly term: TermNode;
  /** The parts written together: `email` for `e-mail`. */
  readonly joined: string;
}

/** The query's unquoted words written with a hyphen, in a query of words all required or all optional. */
export function hyphenatedWords(query: IndexQuery): JoinedWord[] {
  return wordsOf(query).flatMap((node) => {
    const joined = node.type === 'term' ? joinedWord(node.text) : null;
    return node.type !== 'term' || joined === null ? [] : [{ term: node, joined }];
  });
}

/** The analysis version from which the index holds each hyphenated word's joined spelling (see joinedTokens). */
export const JOINED_SINCE_ANALYSIS = 4;

/**
 * The query with each of `words` (see {@link hyphenatedWords}) found either as typed or as its
 * parts written together (`e-mail` and `email`, `on-line` and `online`). In an index whose pages
 * all hold the joined spelling of their hyphenated words (`joinedIndexed`), the word becomes its
 * joined word, which then finds both spellings. Otherwise a required word becomes the group
 * `e-mail OR email`, and with `match=any` the joined word is one more optional word. Meilisearch
 * does the same on its own (its concatenated and split queries).
 */
export function withJoinedWords(query: IndexQuery, words: readonly JoinedWord[], joinedIndexed = false): IndexQuery {
  if (words.length === 0) return query;
  const joinedOf = new Map(words.map((word) => [word.term, word.joined]));
  const any = query.match === 'any';
  const alike = (text: string, field: QueryField): TermNode => ({ type: 'term', text, field });
  const extra: QueryNode[] = [];
  const children = wordsOf(query).map((child): QueryNode => {
    const joined = child.type === 'term' ? joinedOf.get(child) : undefined;
    if (child.type !== 'term' || joined === undefined) return child;
    if (joinedIndexed) return alike(joined, child.field);
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
