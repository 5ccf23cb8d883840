import { indexTokens, isStopWord, joinedTokens, stemsLanguage, stemToken, tokenize } from '@quarry/text';

/** BM25 parameters, the usual ones (Robertson); chunks are short, so length matters little. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;
/** A query word in a chunk's heading path counts this much of an occurrence in its text. */
const HEADING_WEIGHT = 0.5;

/** What {@link scoreChunks} needs of a chunk. */
export interface ScoredText {
  readonly text: string;
  readonly headingPath: readonly string[];
}

/**
 * The terms a query is scored by: its search tokens (CJK as character pairs, as the index has
 * them), stop words left out unless that leaves none, stemmed when the page's language is.
 */
export function queryTerms(query: string, lang = 'und'): string[] {
  const tokens = tokenize(query, { cjk: 'bigrams' });
  const content = tokens.filter((t) => !isStopWord(t));
  const kept = content.length > 0 ? content : tokens;
  // A hyphenated word's joined spelling too (`e-mail` → `email`), as search finds it.
  const joined = joinedTokens(query, lang);
  return [...new Set([...(stemsLanguage(lang) ? kept.map(stemToken) : kept), ...joined])];
}

/**
 * BM25 of each chunk for the query, over the page's chunks as the collection (so a word that is
 * everywhere on the page counts little), with the tokens search indexes (`@quarry/text`'s
 * `indexTokens`: folded case and diacritics, CJK character pairs, English stemmed). 0 means no
 * query term occurs. `lang` is the page's language (primary subtag).
 */
export function scoreChunks(chunks: readonly ScoredText[], query: string, lang = 'und'): number[] {
  const terms = queryTerms(query, lang);
  if (terms.length === 0 || chunks.length === 0) return chunks.map(() => 0);
  const termSet = new Set(terms);
  const stats = chunks.map((chunk) => {
    const tokens = [...indexTokens(chunk.text, lang), ...joinedTokens(chunk.text, lang)];
    const tf = new Map<string, number>();
    for (const token of tokens) if (termSet.has(token)) tf.set(token, (tf.get(token) ?? 0) + 1);
    for (const token of indexTokens(chunk.headingPath.join(' '), lang)) {
      if (termSet.has(token)) tf.set(token, (tf.get(token) ?? 0) + HEADING_WEIGHT);
    }
    return { length: tokens.length, tf };
  });
  const avgLength = Math.max(1, stats.reduce((sum, s) => sum + s.length, 0) / stats.length);
  const idf = new Map<string, number>();
  for (const term of terms) {
    const df = stats.filter((s) => s.tf.has(term)).length;
    idf.set(term, Math.log(1 + (stats.length - df + 0.5) / (df + 0.5)));
  }
  return stats.map(({ length, tf }) => {
    let score = 0;
    for (const [term, freq] of tf) {
      const norm = freq + BM25_K1 * (1 - BM25_B + (BM25_B * length) / avgLength);
      score += (idf.get(term) ?? 0) * ((freq * (BM25_K1 + 1)) / norm);
    }
    return score;
  });
}
