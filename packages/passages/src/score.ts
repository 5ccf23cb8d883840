import { indexTokens, isStopWord, joinedTokens, stemIn, tokenize } from '@quarry/text';

/** BM25 parameters, the usual ones (Robertson); chunks are short, so length matters little. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;
/** A query word in a chunk's heading path counts this much of an occurrence in its text. */
const HEADING_WEIGHT = 0.5;

/**
 * A chunk under one of these headings (a page's apparatus: its references, links out, footnotes) counts
 * this much of its score. Its lines name the page's subject over and over (`Skew-Hermitian matrix`,
 * `"Hermitian Matrices". MathPages.com.`), and short, they outscored the paragraph that defines it;
 * they answer no question, and point elsewhere.
 */
const APPARATUS_WEIGHT = 0.25;
/**
 * The headings of a page's apparatus, in the languages pages are most often written in. Not a bare
 * `Notes`: documentation writes what matters under it (MDN's, Python's).
 */
const APPARATUS_HEADINGS = new Set(
  [
    'see also',
    'references',
    'external links',
    'further reading',
    'bibliography',
    'sources',
    'citations',
    'footnotes',
    'notes and references',
    'references and notes',
    'works cited',
    'related articles',
    'siehe auch',
    'einzelnachweise',
    'weblinks',
    'literatur',
    'anmerkungen',
    'quellen',
    'voir aussi',
    'références',
    'liens externes',
    'notes et références',
    'bibliographie',
    'véase también',
    'referencias',
    'enlaces externos',
    'bibliografía',
    'vedi anche',
    'collegamenti esterni',
    'ver também',
    'ligações externas',
    'referências',
    'zie ook',
    'externe links',
    'bronnen',
    'см. также',
    'примечания',
    'ссылки',
    'литература',
    '参见',
    '参考文献',
    '外部链接',
    '注释',
    '参考资料',
    '外部連結',
    '関連項目',
    '脚注',
    '外部リンク',
    '出典',
  ].map((heading) => heading.normalize('NFC')),
);

/** Whether a chunk sits under a heading of its page's apparatus (see {@link APPARATUS_HEADINGS}). */
export function inApparatus(headingPath: readonly string[]): boolean {
  return headingPath.some((heading) =>
    APPARATUS_HEADINGS.has(
      heading
        .normalize('NFC')
        .toLowerCase()
        .replace(/[\s:.[\]]+$/u, '')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
}

/**
 * A question asking what something is (`what is a Hermitian matrix`, `who was Ada Lovelace`,
 * `define entropy`, `什么是熵`, `熵是什么`): its answer is where a page introduces its subject, in
 * its opening, which such a question's words (the subject's, on every part of a page about it) did
 * not tell from the rest.
 */
const DEFINITION_QUESTION =
  /^\s*(?:(?:what|who)(?:\s+(?:is|are|was|were)\b|'s\b|’s\b)|define\b|definition\s+of\b|meaning\s+of\b)|^\s*什么是|是什么\s*[?？]?\s*$/iu;
/** The opening chunk holding a query word counts this many times its score for such a question. */
const OPENING_WEIGHT = 2;
/** Chunks from the page's start among which such a question's opening chunk is looked for. */
const OPENING_CHUNKS = 3;

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
  return [...new Set([...kept.map((token) => stemIn(lang, token)), ...joined])];
}

/**
 * BM25 of each chunk for the query, over the page's chunks as the collection (so a word that is
 * everywhere on the page counts little), with the tokens search indexes (`@quarry/text`'s
 * `indexTokens`: folded case and diacritics, CJK character pairs, stemmed by the page's language). 0 means no
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
  const scores = stats.map(({ length, tf }, i) => {
    let score = 0;
    for (const [term, freq] of tf) {
      const norm = freq + BM25_K1 * (1 - BM25_B + (BM25_B * length) / avgLength);
      score += (idf.get(term) ?? 0) * ((freq * (BM25_K1 + 1)) / norm);
    }
    return inApparatus(chunks[i]!.headingPath) ? score * APPARATUS_WEIGHT : score;
  });
  if (DEFINITION_QUESTION.test(query)) {
    const opening = scores.slice(0, OPENING_CHUNKS).findIndex((score) => score > 0);
    if (opening >= 0) scores[opening] = scores[opening]! * OPENING_WEIGHT;
  }
  return scores;
}
