import type { IndexQuery, QueryNode } from '@quarry/core';
import { type FormMatcher, formMatcher, isStopWord, tokenize } from '@quarry/text';

/**
 * Exact word forms above stemmed ones. English pages are indexed by stems, so BM25 scores a page
 * saying "runs" as it scores one saying "running" for the query `running`. The best candidates are
 * re-ranked on the text they keep for snippets (the title and the body's first 8,192 characters,
 * already stored): a page's score is multiplied by {@link OTHER_FORM_FACTOR} for each required query
 * word that this text holds only in other forms of the word's stem (a page holding neither there
 * is left as it is). Nothing is added to the index: a column of each page's forms cost 20% more disk
 * and 20% more analysis time at import, for pages whose opening rarely decides it.
 *
 * Required words are those every match must hold (an AND in `all` mode, phrases, `intitle:`):
 * keywords typed to be matched. Optional words (`OR`, `match=any` sentences) are left to BM25: a
 * question's word forms are grammar ("how does the crawler handle" is answered by a page saying
 * "handles"), and measured on CISI's questions the factor on them cost nDCG@10 0.019 (0.97 cost
 * 0.008).
 *
 * The factor only lowers scores, so only candidates that could still enter the page are read (see
 * {@link rerankByForms}): the page's own rows and those scoring within the factor of its last one.
 */

/**
 * Score factor per required query word a page holds only in other forms (`runs` for `running`).
 * Measured on Cranfield and CISI keyword queries (each question's 2 or 3 rarest words, AND):
 * nDCG@10 1.0: 0.1043 / 0.0494 / 0.0655 / 0.0345; 0.98: 0.1032 / 0.0495 / 0.0653 / 0.0345;
 * 0.95: 0.1028 / 0.0479 / 0.0652 / 0.0345; 0.9: 0.1025 / 0.0472 / 0.0647 / 0.0344. In these
 * abstracts another form of a word is about as relevant as the word, so the factor only settles
 * near ties: a page with the word as asked wins over one within 5% of its score.
 */
export const OTHER_FORM_FACTOR = 0.95;
/** At most the best (this × (offset + limit)) matches are re-ranked by their word forms. */
export const FORM_RERANK_DEPTH = 2;

/** Only plain words of three letters or more have other forms (the stemmer leaves the rest). */
const STEMMABLE = /^[a-z]{3,}$/;

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
        for (const word of tokenize(node.text)) if (STEMMABLE.test(word) && !isStopWord(word)) words.add(word);
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

/** The factor of a page's score for the required query words its text holds only in other forms. */
function formFactor(text: string | null, matchers: readonly FormMatcher[]): number {
  let factor = 1;
  if (text === null || text === '') return factor;
  const lower = text.toLowerCase();
  for (const matcher of matchers) if (matcher(lower) === 'other') factor *= OTHER_FORM_FACTOR;
  return factor;
}

/** The text a page's forms are read on: its title and the body kept for snippets. */
export function formsText(row: Record<string, unknown> | undefined): string | null {
  if (!row) return null;
  return `${typeof row.title === 'string' ? row.title : ''}\n${typeof row.snippet_src === 'string' ? row.snippet_src : ''}`;
}

/**
 * `ranked` (best first) re-scored by word forms, re-sorted (`compare` breaks equal scores). A page's
 * score falls by at most the factor once per word and never rises, so only candidates scoring at
 * least that much below the `depth`-th can enter the top `depth`: those are read, in one batch, and
 * the top `depth` is then exact among the candidates given (at most `depth × FORM_RERANK_DEPTH` are
 * read). `textOf` reads the candidates' {@link formsText} (null where unknown).
 */
export async function rerankByForms<T extends { readonly score: number }>(
  ranked: readonly T[],
  words: readonly string[],
  depth: number,
  textOf: (candidates: readonly T[]) => Promise<readonly (string | null)[]>,
  compare: (a: T, b: T) => number,
): Promise<T[]> {
  if (words.length === 0 || ranked.length <= 1 || depth <= 0) return [...ranked];
  const last = ranked[Math.min(depth, ranked.length) - 1]!.score;
  const bound = last * OTHER_FORM_FACTOR ** words.length;
  const limit = Math.min(ranked.length, depth * FORM_RERANK_DEPTH);
  let end = Math.min(depth, ranked.length);
  while (end < limit && ranked[end]!.score >= bound) end++;
  const head = ranked.slice(0, end);
  const texts = await textOf(head);
  const matchers = words.map(formMatcher);
  const rescored = head.map((item, i) => ({ ...item, score: item.score * formFactor(texts[i] ?? null, matchers) }));
  return [...rescored, ...ranked.slice(end)].sort((a, b) => b.score - a.score || compare(a, b));
}
