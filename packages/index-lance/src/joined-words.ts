import type { IndexQuery, QueryField, QueryNode, TermNode } from '@quarry/core';
import { hasUnspacedScript, tokenize } from '@quarry/text';

/** A word of two parts joined by a hyphen (`e-mail`, `wi-fi`, `covid-19`); a hyphen that cannot break too. */
const HYPHENATED = /^([\p{L}\p{N}\p{M}]+)[-\u2010\u2011]([\p{L}\p{N}\p{M}]+)$/u;
const LETTER = /\p{L}/u;

/** A query word written with a hyphen, and the one word its parts make. */
export interface JoinedWord {
  readonly term: TermNode;
  /** The parts written together: `email` for `e-mail`. */
  readonly joined: string;
}

/**
 * The one word a query word of two hyphen-joined parts is also written as (`e-mail` → `email`,
 * `on-line` → `online`, `wi-fi` → `wifi`), or null. Parts of digits only (`2020-21`) are a range,
 * not a word; runs of Chinese, Japanese and Southeast Asian scripts are segmented apart.
 */
export function joinedWord(text: string): string | null {
  const parts = HYPHENATED.exec(text);
  if (!parts || !LETTER.test(text) || hasUnspacedScript(text)) return null;
  const joined = `${parts[1]}${parts[2]}`;
  return tokenize(joined).length === 1 ? joined : null;
}

/** The query's unquoted words written with a hyphen, in a query of words all required or all optional. */
export function hyphenatedWords(query: IndexQuery): JoinedWord[] {
  return wordsOf(query).flatMap((node) => {
    const joined = node.type === 'term' ? joinedWord(node.text) : null;
    return node.type !== 'term' || joined === null ? [] : [{ term: node, joined }];
  });
}

/**
 * The query with each of `words` (see {@link hyphenatedWords}) found either as typed or as its
 * parts written together, as the index holds both spellings (`e-mail` and `email`, `on-line` and
 * `online`): a required word becomes the group `e-mail OR email`; with `match=any`, the joined word
 * is one more optional word. Meilisearch does the same on its own (its concatenated queries).
 */
export function withJoinedWords(query: IndexQuery, words: readonly JoinedWord[]): IndexQuery {
  if (words.length === 0) return query;
  const joinedOf = new Map(words.map((word) => [word.term, word.joined]));
  const any = query.match === 'any';
  const alike = (text: string, field: QueryField): TermNode => ({ type: 'term', text, field });
  const extra: QueryNode[] = [];
  const children = wordsOf(query).map((child): QueryNode => {
    const joined = child.type === 'term' ? joinedOf.get(child) : undefined;
    if (child.type !== 'term' || joined === undefined) return child;
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
