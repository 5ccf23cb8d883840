import type { ParsedQuery, QueryNode } from '@quarry/core';
import { isStopWord, tokenize } from '@quarry/text';

/**
 * A query whose words no page holds together is searched again with its words optional (`match=any`)
 * when it has at least this many distinct words that are not stop words: a question typed whole
 * (`what are the structural problems of high speed aircraft`) rarely has a page repeating every one
 * of its words, and would otherwise find nothing. Two words stay an AND: `cats dogs` on no page
 * together means no page, as the spec's "all must match" says.
 */
export const MIN_RELAXED_WORDS = 3;

/** The response header that tells a client its query was searched with optional words. */
export const RELAXED_MATCH_HEADER = 'Quarry-Match';

/** Chinese, Japanese and Korean, written without spaces: a run of them is several words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Whether a query may be searched again with its words optional (see {@link MIN_RELAXED_WORDS}):
 * its plain words, outside phrases, `intitle:`, exclusions and OR groups, which all stay as written,
 * count at least that many distinct words besides stop words. A word of several parts (a URL,
 * `heat-transfer`) is one; a run of Chinese or Japanese is the words it segments into.
 */
export function relaxable(query: ParsedQuery): boolean {
  const words = new Set<string>();
  const collect = (node: QueryNode): void => {
    if (node.type === 'and') node.children.forEach(collect);
    else if (node.type === 'term' && node.field === 'any') {
      const tokens = tokenize(node.text).filter((token) => !isStopWord(token));
      if (UNSPACED.test(node.text)) for (const token of tokens) words.add(token);
      else if (tokens.length > 0) words.add(tokens.join(' '));
    }
  };
  if (query.root !== null) collect(query.root);
  return words.size >= MIN_RELAXED_WORDS;
}
