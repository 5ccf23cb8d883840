import { ENGLISH_STOP_WORDS, isStopWord, stemToken } from '@quarry/text';

/**
 * Pseudo-relevance feedback for a question searched with its words optional: the words its best
 * pages share (a relevance model, Lavrenko and Croft 2001, as RM3 builds it) re-rank the first
 * {@link FEEDBACK_DEPTH} results. A question names its topic in its own words; the pages about it
 * use others too (`aeroelastic models` ↔ `flutter`, `wind-tunnel`), and a page holding many of those
 * is more likely on the topic than one holding a question word often. Only the order of the first
 * results changes: no page is added, and a page past them keeps its place.
 *
 * Each result's score becomes (1 − {@link FEEDBACK_WEIGHT}) × its own score and
 * {@link FEEDBACK_WEIGHT} × its score on the model's words, both scaled to the span of the first
 * results' scores. The model: the {@link FEEDBACK_TERMS} words (stop words and numbers left out) of
 * most weight in the first {@link FEEDBACK_PAGES} pages, a page's words weighing by their share of
 * its length and by its score (exp(10 × (score − best) / best)). A result's score on them is BM25
 * (k1 1.2, b 0.75) with each word's weight in the model, the inverse document frequency and the
 * average length taken among the results re-ranked, so that no engine call is made.
 *
 * Chosen on half A of the Cranfield and CISI questions (halves by sha1 of the query id), offline
 * over the API's own first 100 results (`docs/benchmarks.md`, 2026-12-06); on the API, half B and
 * both halves are in the benchmark's table (`npm run bench -- relevance`).
 */
export const FEEDBACK_DEPTH = 30;
/** The results the model is built from. */
export const FEEDBACK_PAGES = 10;
/** Words in the model. */
export const FEEDBACK_TERMS = 20;
/** The model's share of a re-ranked result's score. */
export const FEEDBACK_WEIGHT = 0.4;

/** BM25's constants for a result's score on the model's words. */
const K1 = 1.2;
const B = 0.75;
/** How sharply a page's weight in the model falls with its score below the best. */
const SCORE_SHARPNESS = 10;

/** Stop words as typed and as stemmed (`was` → `wa`), as a page's tokens hold them. */
const STOP_TOKENS: ReadonlySet<string> = new Set([
  ...ENGLISH_STOP_WORDS,
  ...[...ENGLISH_STOP_WORDS].map((word) => stemToken(word)),
]);

/** A word a model may hold: no stop word, number or single letter. */
function isModelWord(token: string): boolean {
  return token.length > 1 && !isStopWord(token) && !STOP_TOKENS.has(token) && !/^\d+$/.test(token);
}

/** A result to re-rank: its score and its page's tokens (as the index analyses them). */
export interface FeedbackCandidate {
  readonly score: number;
  readonly tokens: readonly string[];
}

/**
 * The new scores of `candidates` (in ranking order, best first; see the module's comment), each
 * within the span of their own scores, so that they stay above the results after them. Fewer than
 * two candidates, or no page with a word for the model, leave the scores as they are.
 */
export function feedbackScores(candidates: readonly FeedbackCandidate[]): number[] {
  const scores = candidates.map((candidate) => candidate.score);
  if (candidates.length < 2) return scores;
  const terms = modelTerms(candidates.slice(0, FEEDBACK_PAGES));
  if (terms.size === 0) return scores;
  // Each result's counts of the model's words only: the other words' counts are never read.
  const pages = candidates.map(({ tokens }) => {
    const tf = new Map<string, number>();
    for (const token of tokens) if (terms.has(token)) tf.set(token, (tf.get(token) ?? 0) + 1);
    return { tf, length: tokens.length };
  });
  const df = new Map<string, number>();
  for (const page of pages) for (const term of page.tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const n = pages.length;
  const idf = (term: string): number => {
    const f = df.get(term) ?? 0;
    return Math.log(1 + (n - f + 0.5) / (f + 0.5));
  };
  const averageLength = Math.max(1, pages.reduce((sum, page) => sum + page.length, 0) / n);
  const model = pages.map((page) => {
    let score = 0;
    for (const [term, f] of page.tf) {
      const weight = terms.get(term) ?? 0;
      score += (weight * idf(term) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * page.length) / averageLength));
    }
    return score;
  });
  const low = Math.min(...scores);
  const high = Math.max(...scores);
  const own = scaled(scores);
  const theirs = scaled(model);
  return scores.map((_, i) => low + ((1 - FEEDBACK_WEIGHT) * own[i]! + FEEDBACK_WEIGHT * theirs[i]!) * (high - low));
}

/** The model's words of the first results and their weights (summing to 1). */
function modelTerms(feedback: readonly FeedbackCandidate[]): Map<string, number> {
  const best = Math.max(...feedback.map((candidate) => candidate.score));
  const weights = feedback.map(({ score }) => (best > 0 ? Math.exp((SCORE_SHARPNESS * (score - best)) / best) : 1));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const model = new Map<string, number>();
  feedback.forEach(({ tokens }, i) => {
    if (tokens.length === 0) return;
    const share = (weights[i] ?? 0) / total / tokens.length;
    for (const token of tokens) if (isModelWord(token)) model.set(token, (model.get(token) ?? 0) + share);
  });
  const top = [...model].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, FEEDBACK_TERMS);
  const sum = top.reduce((s, [, weight]) => s + weight, 0);
  return new Map(sum > 0 ? top.map(([term, weight]) => [term, weight / sum]) : []);
}

/** Values scaled to [0, 1] by their span (all 0 when they are equal). */
function scaled(values: readonly number[]): number[] {
  const low = Math.min(...values);
  const span = Math.max(...values) - low;
  return values.map((value) => (span > 0 ? (value - low) / span : 0));
}
