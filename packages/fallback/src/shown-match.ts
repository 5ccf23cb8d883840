import type { QueryNode } from '@quarry/core';
import { hasCjk, stemToken, tokenize } from '@quarry/text';

/**
 * What a provider shows of a page, its title and snippet, held against the query's hard
 * constraints. A provider may not honour the operators (SearXNG hands `-glacier` and `intitle:` to
 * engines that ignore them), and the spec makes an exclusion and `intitle:` hard: a hit whose title
 * or snippet holds an excluded word or phrase, or whose title lacks an `intitle:` word, is not a
 * match. The other words are not asked of it: a snippet is an excerpt, so a word missing from it
 * proves nothing about the page.
 */

/** What a provider shows of one hit. */
export interface ShownHit {
  readonly title: string;
  readonly snippet: string;
}

/**
 * Whether the hit's title and snippet prove that its page does not match `node`: it shows an
 * excluded word or phrase, or its title lacks a word or phrase the query wants in the title
 * (in an OR group, when every side is so ruled out).
 *
 * @example shownToMismatch(and(term('quokka'), not(term('glacier'))), { title: 'Glacier A', snippet: '' }) // true
 */
export function shownToMismatch(node: QueryNode, hit: ShownHit): boolean {
  switch (node.type) {
    case 'term':
    case 'phrase':
      return node.field === 'title' && holds(hit.title, node.text) === false;
    case 'and':
      return node.children.some((child) => shownToMismatch(child, hit));
    case 'or':
      return node.children.every((child) => shownToMismatch(child, hit));
    case 'not':
      return shownToMatch(node.child, hit);
  }
}

/** Whether the hit's title and snippet prove that its page matches `node` (the dual of {@link shownToMismatch}). */
function shownToMatch(node: QueryNode, hit: ShownHit): boolean {
  switch (node.type) {
    case 'term':
    case 'phrase':
      // A phrase is looked for in one of the two, not across them.
      return holds(hit.title, node.text) === true || (node.field === 'any' && holds(hit.snippet, node.text) === true);
    case 'and':
      return node.children.every((child) => shownToMatch(child, hit));
    case 'or':
      return node.children.some((child) => shownToMatch(child, hit));
    case 'not':
      return shownToMismatch(node.child, hit);
  }
}

/**
 * Whether `text` holds `words` as search reads them: their tokens in a row, each matched in any
 * form of its English stem (`-telescope` also rules out `telescopes`, as the local index does), case
 * and accents aside; Chinese and Japanese, written without spaces, as a run of the same characters.
 * Null when `words` has no token to look for.
 */
function holds(text: string, words: string): boolean | null {
  if (hasCjk(words)) {
    const wanted = fold(words);
    return wanted === '' ? null : fold(text).includes(wanted);
  }
  const wanted = stems(words);
  if (wanted.length === 0) return null;
  const have = stems(text);
  for (let at = 0; at + wanted.length <= have.length; at++) {
    if (wanted.every((stem, i) => have[at + i] === stem)) return true;
  }
  return false;
}

const stems = (text: string): string[] => tokenize(text).map(stemToken);

/** Compatibility forms and case folded, white space and punctuation dropped. */
const fold = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}]+/gu, '');
