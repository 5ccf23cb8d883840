import type { IndexQuery, QueryNode } from '@quarry/core';
import { type FormMatcher, formMatcher, hasUnspacedScript, isStopWord, tokenize } from '@quarry/text';

/**
 * Exact word forms above stemmed ones, and titles holding the query's words above titles that do
 * not. English pages are indexed by stems, so BM25 scores a page saying "runs" as it scores one
 * saying "running" for the query `running`; and the title is in the searched column twice, but BM25
 * normalizes by the whole page's length, so a long page titled with the query's words (a book's
 * chapter under the book's title, "Site Reliability Engineering" for `site reliability`) ranked
 * below short pages naming them in passing.
 *
 * The best {@link RERANK_WINDOW} matches are re-ranked on the text they keep for snippets (the title
 * and the body's first 8,192 characters, already stored): a page's score is multiplied by
 * {@link FORM_BOOST} for each required query word this text does not hold only in other forms of
 * the word's stem (a page holding neither there counts as holding it), and by
 * {@link TITLE_WORD_BOOST} for each required word its title holds in some form. Nothing is added to
 * the index: a column of each page's forms cost 20% more disk and 20% more analysis time at import,
 * for pages whose opening rarely decides it.
 *
 * Required words are those every match must hold (an AND in `all` mode, phrases, `intitle:`):
 * keywords typed to be matched. Optional words (`OR`, `match=any` sentences) are left to BM25: a
 * question's word forms are grammar ("how does the crawler handle" is answered by a page saying
 * "handles"), and measured on CISI's questions the factor on them cost nDCG@10 0.019 (0.97 cost
 * 0.008).
 *
 * Both factors raise scores and the window does not depend on the page asked for, so results page
 * through consistently: the window, re-ranked, comes first on every page, then the rest as BM25
 * ranks them. (A factor that lowered scores would let the first match outside the window pass
 * lowered ones, and a deeper page, with a deeper window, order them otherwise.)
 */

/**
 * Score factor per required query word a page does not hold only in other forms; so, relative to
 * it, a page holding `runs` for `running` is worth 0.95. Measured on Cranfield and CISI keyword
 * queries (each question's 2 or 3 rarest words, AND), that relative factor gave nDCG@10 at 1.0:
 * 0.1043 / 0.0494 / 0.0655 / 0.0345; 0.98: 0.1032 / 0.0495 / 0.0653 / 0.0345; 0.95: 0.1028 /
 * 0.0479 / 0.0652 / 0.0345; 0.9: 0.1025 / 0.0472 / 0.0647 / 0.0344. In these abstracts another
 * form of a word is about as relevant as the word, so the factor only settles near ties.
 */
export const FORM_BOOST = 1 / 0.95;

/**
 * Score factor per required query word the page's title holds in some form. Measured on the
 * Cranfield and CISI keyword queries (each question's 2 rarest words, AND; their titles are the
 * papers'), nDCG@10 with the relative factor of a title lacking a word at 1.0: 0.1028 / 0.0652;
 * 0.85: 0.1049 / 0.0656; 0.7: 0.1049 / 0.0644 (with 20,000 newer pages: 0.1031 / 0.0632, 0.1051 /
 * 0.0643, 0.1051 / 0.0632). Both query halves of both collections rose or held at 0.85.
 */
export const TITLE_WORD_BOOST = 1 / 0.85;

/** The best matches by BM25 that are re-ranked, whatever page of results is asked for. */
export const RERANK_WINDOW = 20;

/**
 * Words of three letters or more of a spaced script (the stemmers leave shorter ones, and Chinese
 * or Thai words are not words here): English and Russian ones have other forms (see `wordForms`),
 * the others are looked for as typed, in the title too.
 */
const WORD = /^\p{L}{3,}$/u;
const isWord = (token: string): boolean => WORD.test(token) && !hasUnspacedScript(token);

/**
 * The query's words whose exact form counts: the positive words and phrase words every match holds
 * (in an AND of `all` mode, or a phrase or `intitle:` word in `any` mode; not inside an OR), less
 * stop words.
 */
export function exactWords(query: IndexQuery): string[] {
  const words = new Set<string>();
  const any = query.match === 'any';
  const visit = (node: QueryNode): void => {
    switch (node.type) {
      case 'term':
      case 'phrase':
        if (any && node.type === 'term' && node.field !== 'title') return;
        for (const word of tokenize(node.text)) if (isWord(word) && !isStopWord(word)) words.add(word);
        return;
      case 'and':
        for (const child of node.children) visit(child);
        return;
      case 'or':
      case 'not':
        return;
    }
  };
  if (query.query.root) visit(query.query.root);
  return [...words];
}

/**
 * The factor of a page's score: {@link FORM_BOOST} for each required word its text does not hold
 * only in other forms, {@link TITLE_WORD_BOOST} for each its title (the text's first line) holds.
 * A page whose text is unknown is taken to hold each word as asked, in the body only.
 */
function boostOf(text: string | null, matchers: readonly FormMatcher[]): number {
  if (text === null || text === '') return FORM_BOOST ** matchers.length;
  let factor = 1;
  const lower = text.toLowerCase();
  const newline = lower.indexOf('\n');
  const title = newline < 0 ? lower : lower.slice(0, newline);
  for (const matcher of matchers) {
    if (matcher(lower) !== 'other') factor *= FORM_BOOST;
    if (matcher(title) !== 'unseen') factor *= TITLE_WORD_BOOST;
  }
  return factor;
}

/** The text a page's forms are read on: its title and the body kept for snippets. */
export function formsText(row: Record<string, unknown> | undefined): string | null {
  if (!row) return null;
  // The title on the first line only (see boostOf).
  const title = typeof row.title === 'string' ? row.title.replace(/[\r\n]+/g, ' ') : '';
  return `${title}\n${typeof row.snippet_src === 'string' ? row.snippet_src : ''}`;
}

/**
 * `ranked` (best first) with its first {@link RERANK_WINDOW} re-scored by word forms and titles and
 * re-sorted (`compare` breaks equal scores), the rest left in place: the factors only raise scores,
 * so the window stays ahead of the rest. `textOf` reads the window's {@link formsText} (null where
 * unknown).
 */
export async function rerankByForms<T extends { readonly score: number }>(
  ranked: readonly T[],
  words: readonly string[],
  textOf: (candidates: readonly T[]) => Promise<readonly (string | null)[]>,
  compare: (a: T, b: T) => number,
): Promise<T[]> {
  if (words.length === 0 || ranked.length === 0) return [...ranked];
  const head = ranked.slice(0, RERANK_WINDOW);
  const texts = await textOf(head);
  const matchers = words.map(formMatcher);
  const rescored = head
    .map((item, i) => ({ ...item, score: item.score * boostOf(texts[i] ?? null, matchers) }))
    .sort((a, b) => b.score - a.score || compare(a, b));
  return [...rescored, ...ranked.slice(RERANK_WINDOW)];
}
