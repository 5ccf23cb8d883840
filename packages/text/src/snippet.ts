import { foldWithOrigins, MAY_NEED_FOLD, originalSpan } from './folded.js';
import { holdsTraditional, simplifyHan } from './han-variants.js';
import { isJapanese, japaneseWords } from './japanese.js';
import { groupedNumbersIn, hyphenatedIn, joinedWord } from './joined.js';
import { isStopWord } from './stop-words.js';
import {
  CLITIC_PATTERN,
  escapeRegExp,
  hasUnspacedScript,
  isNotContraction,
  tokenize,
  writtenTokenPattern,
} from './tokenize.js';
import { type WordForms, wordForms } from './word-forms.js';

/** A positive query clause as `@quarry/query`'s `positiveClauses` returns it; only `text` is used. */
export interface SnippetClause {
  readonly text: string;
}

/** Bounds of a snippet, in UTF-16 code units (JavaScript string length). */
export interface SnippetOptions {
  /** Shortest snippet cut from a longer text (a word-boundary cut never goes below it). @defaultValue 160 */
  readonly minChars?: number;
  /** Longest snippet, ellipses included. @defaultValue 320 */
  readonly maxChars?: number;
}

const DEFAULT_MIN_CHARS = 160;
const DEFAULT_MAX_CHARS = 320;
const ELLIPSIS = '…';
/** How much text before the first hit is shown, so the hit is read in context. */
const LEAD_CHARS = 48;
const SPACE = /\s/;
/** Chinese and Japanese, where a snippet may begin or end between any two characters (not Korean, which is spaced). */
const CUT_ANYWHERE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const cutsAnywhere = (char: string) => CUT_ANYWHERE.test(char);

interface Hit {
  readonly start: number;
  /** Where it ends: `start` plus the token's length, in the text as written (see foldWithOrigins). */
  readonly end: number;
  readonly token: string;
  /** Found as typed (not as another form of its stem). */
  readonly exact: boolean;
  /** The start of a phrase of the query (`token` is then the phrase, its words joined by spaces). */
  readonly phrase?: true;
}

/**
 * Cuts a plain-text snippet of `minChars` to `maxChars` characters from `text`, around the window
 * that shows the most of the query's phrases whole, then holds the most distinct query terms
 * (case-insensitive, diacritic-insensitive, CJK aware, and in any form of an English or Russian word's stem:
 * `runs` for `running`; as typed preferred), cut at word boundaries with `…` where text was left
 * out. Without any hit it is the start of the text. Never longer than `maxChars`.
 *
 * @example makeSnippet(body, [{ text: 'solar' }]) // '… the first solar cells were …'
 */
export function makeSnippet(source: string, clauses: readonly SnippetClause[], options: SnippetOptions = {}): string {
  const text = shownText(source);
  const maxChars = Math.max(1, options.maxChars ?? DEFAULT_MAX_CHARS);
  const minChars = Math.min(options.minChars ?? DEFAULT_MIN_CHARS, maxChars);
  if (text.length <= maxChars) return collapse(text).trim();
  const hits = findHits(text, queryTokens(clauses), queryPhrases(clauses), joinedClauses(clauses));
  const window = bestWindow(hits, maxChars);
  const first = window === null ? null : window.start;
  const from = first === null ? 0 : Math.max(0, first - LEAD_CHARS);
  // Whitespace is collapsed only around the window: on a whole page that costs more than the rest.
  const sliceStart = Math.max(0, from - maxChars);
  const sliceEnd = Math.min(text.length, from + 3 * maxChars);
  const region = collapse(text.slice(sliceStart, sliceEnd));
  const begin = collapse(text.slice(sliceStart, from)).length;
  // Where the first hit is in the region: a sentence start before it may open the snippet.
  const hitAt = first === null ? begin : collapse(text.slice(sliceStart, first)).length;
  // Where the window's last hit ends in the region: the snippet is moved on to show it whole.
  const lastAt = window === null ? hitAt : collapse(text.slice(sliceStart, Math.min(sliceEnd, window.lastEnd))).length;
  const snippet = cut(region, begin, minChars, maxChars, sliceStart > 0, sliceEnd < text.length, hitAt, lastAt);
  return snippet.trim();
}

/**
 * How many of the query's distinct words (stop words left out unless there is nothing else) occur
 * in `text`, matched as {@link makeSnippet} matches them, and how many there are; the same for its
 * phrases (clauses of several words), shown whole.
 *
 * @example queryTermsIn('… the first solar cells …', [{ text: 'solar panels' }])
 * // { found: 1, of: 2, phrasesFound: 0, phrases: 1 }
 */
export function queryTermsIn(
  text: string,
  clauses: readonly SnippetClause[],
): { found: number; of: number; phrasesFound: number; phrases: number } {
  const tokens = queryTokens(clauses);
  const phrases = queryPhrases(clauses);
  const hits = findHits(shownText(text), tokens, phrases, joinedClauses(clauses));
  const found = new Set(hits.filter((hit) => !hit.phrase).map((hit) => hit.token)).size;
  const phrasesFound = new Set(hits.filter((hit) => hit.phrase).map((hit) => hit.token)).size;
  return { found, of: tokens.size, phrasesFound, phrases: new Set(phrases.map((p) => p.join(' '))).size };
}

/** Whitespace runs other than a single space: most text has few, so few replacements are made. */
const SPACE_RUN = /\s{2,}|[^\S ]/g;

function collapse(text: string): string {
  return text.replace(SPACE_RUN, ' ');
}

/** The query's clauses of several words (phrases, `re:invent`), as their tokens. */
function queryPhrases(clauses: readonly SnippetClause[]): string[][] {
  return clauses.map((clause) => tokenize(clause.text).map(simplifyHan)).filter((tokens) => tokens.length > 1);
}

/**
 * The clauses written in parts (`e-book`, `10,000`) by their joined word (`ebook`, `10000`), which search finds too: where
 * the page writes the joined word, the clause shows whole, as its phrase would.
 */
function joinedClauses(clauses: readonly SnippetClause[]): Map<string, string> {
  const joined = new Map<string, string>();
  for (const clause of clauses) {
    const word = joinedWord(clause.text);
    const tokens = word === null ? [] : tokenize(word);
    if (tokens.length === 1) joined.set(tokens[0]!, tokenize(clause.text).map(simplifyHan).join(' '));
  }
  return joined;
}

function queryTokens(clauses: readonly SnippetClause[]): Set<string> {
  const all = clauses.flatMap((clause) => clauseTokens(clause.text).map(simplifyHan));
  const meaningful = all.filter((token) => !isStopWord(token));
  return new Set(meaningful.length > 0 ? meaningful : all);
}

/**
 * A clause's tokens; Japanese as search asks it (see japaneseWords): `寿司を食べたい` shows where
 * a page says `寿司を食べました`, its particles and auxiliaries no hits of their own.
 */
function clauseTokens(text: string): string[] {
  const tokens = tokenize(text);
  if (!isJapanese(text)) return tokens;
  return japaneseWords(tokens).flatMap((item) => ('tokens' in item ? item.tokens : item.forms));
}

/**
 * Characters that show nothing inside a word: soft hyphen, zero-width space, word joiner,
 * byte-order mark. A snippet leaves them out, so that a word the index found whole
 * (`Assis&shy;tance`, see tokenize) is found whole here too (the zero-width joiners, which shape
 * Persian and Indic words and emoji, stay).
 */
const SHOWS_NOTHING = /[\u00AD\u200B\u2060\uFEFF]/g;

function shownText(text: string): string {
  return text.replace(SHOWS_NOTHING, '');
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
/** Enough hits to choose a window; more would only cost time on very long texts. */
const MAX_HITS_PER_TOKEN = 64;

/** A hit as found in the searched text (folded, or as written), before its end is placed (see findHits). */
type Found = Omit<Hit, 'end'>;

/** Finds a token in a text from a position on: its start, or -1. Matches are `token.length` long. */
type Finder = (token: string) => (from: number) => number;

/** The hits of the query's tokens, phrases and joined words in `text`, by start, placed in `text` as written. */
function findHits(
  text: string,
  tokens: Set<string>,
  phrases: readonly string[][] = [],
  joined: ReadonlyMap<string, string> = new Map(),
): Hit[] {
  if (tokens.size === 0) return [];
  // Folding a whole page (ICU lower-casing, a replace over every character) costs more than the
  // rest of the snippet: text without foldable letters or traditional Chinese characters is
  // searched case-insensitively as it is.
  const plain = !MAY_NEED_FOLD.test(text) && !holdsTraditional(text);
  const { text: searched, origins } = plain ? { text, origins: null } : foldWithOrigins(text);
  const finder: Finder = plain
    ? (token) => {
        const regex = new RegExp(escapeRegExp(token), 'gi');
        return (from) => {
          regex.lastIndex = from;
          return regex.exec(text)?.index ?? -1;
        };
      }
    : (token) => (from) => searched.indexOf(token, from);
  const hits = findHitsIn(searched, tokens, finder);
  const work = { left: MAX_PHRASE_WORK };
  for (const phrase of phrases) hits.push(...phraseHits(searched, phrase, work));
  // A hyphenated clause written as one word (`eBook` for `e-book`) shows whole, as its phrase.
  const words = joined.size > 0 ? findHitsIn(searched, new Set(joined.keys()), finder) : [];
  for (const hit of words) hits.push({ start: hit.start, token: joined.get(hit.token)!, exact: true, phrase: true });
  // (Built field by field, not by spreading each hit: a page of results makes hundreds of them.)
  return hits
    .map(({ start: at, token, exact, phrase }): Hit => {
      const [start, end] = originalSpan(origins, at, at + token.length);
      return phrase ? { start, end, token, exact, phrase } : { start, end, token, exact };
    })
    .sort((a, b) => a.start - b.start);
}

/**
 * Words of a phrase matched by one pattern at each occurrence of its first: the pattern of a longer
 * phrase is slow to compile and to run, so the words after these are matched one by one, only
 * where these are found.
 */
const MAX_PHRASE_TOKENS = 32;
/**
 * Words matched after a phrase's first, over all tries at the phrases of a query, each try counted
 * as long as it may run: a page repeating a phrase's start (`zq zq zq …`) would otherwise cost its
 * length times the phrase's. A normal page needs far fewer.
 */
const MAX_PHRASE_WORK = 1 << 18;
/**
 * What may stand between two words of a phrase: one to three characters that are not letters or
 * digits, after a clitic the tokens leave out (`Rust's ownership` for `rust ownership`).
 */
const SPACED_GAP_SOURCE = `(?:${CLITIC_PATTERN})?[^\\p{L}\\p{N}\\p{M}]{1,3}`;
const SPACED_GAP = new RegExp(SPACED_GAP_SOURCE, 'iuy');
const UNSPACED_GAP = /[^\p{L}\p{N}\p{M}]{0,3}/uy;

/**
 * Where `text` (folded as in {@link findHits}) holds a phrase's tokens in a row, as typed, between
 * them one to three characters that are not letters or digits (`boundary-layer`, `layer, flow`),
 * none where the script has no spaces. Each occurrence of the first token is looked at, the rest
 * matched from there, while `work` (see {@link MAX_PHRASE_WORK}) lasts.
 */
function phraseHits(text: string, tokens: readonly string[], work: { left: number }): Found[] {
  const literal = writtenTokenPattern;
  const gap = (token: string) => (hasUnspacedScript(token) ? '[^\\p{L}\\p{N}\\p{M}]{0,3}' : SPACED_GAP_SOURCE);
  const first = new RegExp(literal(tokens[0]!), 'gi');
  const head = tokens.slice(0, MAX_PHRASE_TOKENS);
  const rest = new RegExp(
    `${head
      .slice(1)
      .map((token) => gap(token) + literal(token))
      .join('')}`,
    'iuy',
  );
  const beyond = tokens.slice(head.length).map((token) => ({
    gap: hasUnspacedScript(token) ? UNSPACED_GAP : SPACED_GAP,
    word: new RegExp(literal(token), 'iuy'),
  }));
  const spaced = !hasUnspacedScript(tokens[0]!);
  const last = tokens.at(-1)!;
  const key = tokens.join(' ');
  const hits: Found[] = [];
  for (let match = first.exec(text); match !== null && hits.length < MAX_HITS_PER_TOKEN; match = first.exec(text)) {
    const at = match.index;
    if (spaced && WORD_CHAR.test(text[at - 1] ?? ' ')) continue;
    if (work.left <= 0) break;
    work.left -= head.length - 1;
    rest.lastIndex = at + match[0].length;
    if (rest.exec(text) === null) continue;
    work.left -= beyond.length;
    const end = wordsEnd(text, rest.lastIndex, beyond);
    if (end === -1) continue;
    if (!hasUnspacedScript(last) && WORD_CHAR.test(text[end] ?? ' ')) continue;
    hits.push({ start: at, token: key, exact: true, phrase: true });
  }
  return hits;
}

/**
 * Where `words` end when they follow `from` in `text`, each after its gap, or -1. A word starts with
 * a letter or digit, which no gap holds, so the longest gap is the only one that may do.
 */
function wordsEnd(text: string, from: number, words: readonly { gap: RegExp; word: RegExp }[]): number {
  let end = from;
  for (const { gap, word } of words) {
    gap.lastIndex = end;
    if (gap.exec(text) === null) return -1;
    word.lastIndex = gap.lastIndex;
    if (word.exec(text) === null) return -1;
    end = word.lastIndex;
  }
  return end;
}

/** Hits of each token (up to a bound per token), whole words unless its script has no spaces between words. */
function findHitsIn(text: string, tokens: Set<string>, finder: Finder): Found[] {
  const hits: Found[] = [];
  let joined: Map<string, number[]> | undefined;
  for (const token of tokens) {
    const before = hits.length;
    findTokenHits(text, token, finder, hits);
    if (hits.length > before) continue;
    // Not found as one word: written in parts (`COVID-19` for `covid19`, `e-mail` for `email`,
    // `10,000` for `10000`), which the index also holds as the joined word.
    joined ??= joinedWords(text, tokens);
    for (const start of (joined.get(token) ?? []).slice(0, MAX_HITS_PER_TOKEN)) {
      hits.push({ start, token, exact: true });
    }
  }
  return hits;
}

const DIGITS = /^\d+$/;

/**
 * Where `text` (as searched: folded, or case-insensitively) holds each word written in parts that
 * may be one of `tokens`, by the joined word: grouped numbers only for a token of digits, hyphenated
 * words only of a token's length. Reading every one of a long page's (the whole text a snippet is
 * cut again from) cost an eighth of the API's time on a rare word's results.
 */
function joinedWords(text: string, tokens: ReadonlySet<string>): Map<string, number[]> {
  const words = new Map<string, number[]>();
  const lengths = new Set<number>();
  let digits = false;
  for (const token of tokens) {
    if (DIGITS.test(token)) digits = true;
    else lengths.add(token.length);
  }
  // A joined hyphenated word holds a letter, a number's digits none: each key comes from one of them.
  const spellings = [
    ...(lengths.size > 0 ? hyphenatedIn(text, lengths) : []),
    ...(digits ? groupedNumbersIn(text) : []),
  ];
  for (const { start, joined } of spellings) {
    const key = joined.toLowerCase();
    const starts = words.get(key);
    if (starts) starts.push(start);
    else words.set(key, [start]);
  }
  return words;
}

/** Adds the hits of one token to `hits` (see {@link findHitsIn}). */
function findTokenHits(text: string, token: string, finder: Finder, hits: Found[]): void {
  const forms = wordForms(token);
  if (forms !== null) {
    hits.push(...wordHits(text, token, forms));
    return;
  }
  // Words of Chinese, Japanese, Thai and the like (and Korean ones, with the particles a page writes
  // onto them) are found as substrings: the text is not segmented here.
  const wholeWord = !hasUnspacedScript(token);
  // A word ending in symbols (`c++`, see tokenize) may have a number written after it (`C++17`).
  const endsWord = WORD_CHAR.test(token.at(-1) ?? ' ');
  const find = finder(token);
  let found = 0;
  for (let at = find(0); at !== -1 && found < MAX_HITS_PER_TOKEN; at = find(at + 1)) {
    const end = at + token.length;
    const joined = WORD_CHAR.test(text[at - 1] ?? ' ') || (endsWord && WORD_CHAR.test(text[end] ?? ' '));
    if (wholeWord && joined) continue;
    hits.push({ start: at, token, exact: true });
    found++;
  }
}

/** Other words stemmed per query word at most (a short stem such as `di` starts many words). */
const MAX_FORM_CANDIDATES = 256;

/**
 * Where `text` holds `token` as typed or in another form of its stem (see {@link wordForms}: `runs`,
 * not `ran`, for `running`; `новая` for `новый`), in one pass: the words starting with the stem's
 * first letters, each taken when it is the token or has its stem, as the index matches them.
 */
function wordHits(text: string, token: string, forms: WordForms): Found[] {
  const { stem, prefix, stemOf, isLetter } = forms;
  // A plain case-insensitive literal is found fast; a pattern with Unicode classes around it is not.
  const start = new RegExp(prefix, 'gi');
  const hits: Found[] = [];
  let [exact, others, stemmed] = [0, 0, 0];
  for (let match = start.exec(text); match !== null; match = start.exec(text)) {
    const at = match.index;
    let end = at + match[0].length;
    while (end < text.length && isLetter(text.charCodeAt(end))) end++;
    // `won't` is the word `wont` (see tokenize), not `won`.
    const contraction = isNotContraction(text, end);
    const letters = end;
    if (contraction) end += 2;
    start.lastIndex = end;
    if (WORD_CHAR.test(text[at - 1] ?? ' ') || WORD_CHAR.test(text[end] ?? ' ')) continue;
    const word = text.slice(at, letters).toLowerCase() + (contraction ? 't' : '');
    if (word === token) {
      if (exact < MAX_HITS_PER_TOKEN) hits.push({ start: at, token, exact: true });
      exact++;
    } else if (others < MAX_HITS_PER_TOKEN && stemmed < MAX_FORM_CANDIDATES) {
      stemmed++;
      if (stemOf(word) === stem) {
        hits.push({ start: at, token, exact: false });
        others++;
      }
    }
    if (exact >= MAX_HITS_PER_TOKEN && (others >= MAX_HITS_PER_TOKEN || stemmed >= MAX_FORM_CANDIDATES)) break;
  }
  return hits;
}

/**
 * Parts of a window the span of its words is measured in (see bestWindow): spans within one part
 * are as tight as each other.
 */
const SPAN_PARTS = 4;

/**
 * The best window of hits: the most phrases shown whole, then the most distinct tokens, then the
 * most of them as typed, then the tightest (from its first hit to the first hit of each of its
 * tokens, in quarters of the window), then the earliest; `start` is where its first hit starts,
 * `lastEnd` where its last hit's token ends (at least: a longer form of the word may end later).
 * Tight words are the sentence that holds them, with room after it for what it says: a window
 * opened by a stray mention of a word (a page's `announcing "Super Mario Run"` before `will launch
 * … for a flat fee of $9.99`) ended on the words and cut off the answer after them. Among windows
 * as tight, the earliest is a word's first mention (a definition, the page's opening), not a later
 * passage repeating it.
 */
function bestWindow(hits: readonly Hit[], windowChars: number): { start: number; lastEnd: number } | null {
  let best: { start: number; lastEnd: number } | null = null;
  let bestRank = [0, 0, 0, Number.NEGATIVE_INFINITY];
  let end = 0;
  // Hits per token in the window: all of them, those as typed, and the query's phrases shown whole.
  const counts = new Map<string, number>();
  const exactCounts = new Map<string, number>();
  const phraseCounts = new Map<string, number>();
  const add = (map: Map<string, number>, token: string, by: number) => {
    const left = (map.get(token) ?? 0) + by;
    if (left === 0) map.delete(token);
    else map.set(token, left);
  };
  const count = (hit: Hit, by: number) => {
    if (hit.phrase) return add(phraseCounts, hit.token, by);
    add(counts, hit.token, by);
    if (hit.exact) add(exactCounts, hit.token, by);
  };
  for (let begin = 0; begin < hits.length; begin++) {
    const start = hits[begin]!.start;
    // A hit is in the window when it fits after the first one, between the two ellipses: the lead
    // before the first hit is shortened to show it (see cut).
    while (end < hits.length && hits[end]!.end <= start + windowChars - 2) {
      count(hits[end++]!, 1);
    }
    const distinct = [phraseCounts.size, counts.size, exactCounts.size];
    if (isBetter([...distinct, 0], bestRank)) {
      const rank = [...distinct, -Math.floor((coverSpan(hits, begin, end) * SPAN_PARTS) / windowChars)];
      if (isBetter(rank, bestRank)) {
        let lastEnd = start;
        for (let i = begin; i < end; i++) lastEnd = Math.max(lastEnd, hits[i]!.end);
        best = { start, lastEnd };
        bestRank = rank;
      }
    }
    count(hits[begin]!, -1);
  }
  return best;
}

/** Characters from `hits[begin]` to the end of the first hit of each token among `hits[begin..end)`. */
function coverSpan(hits: readonly Hit[], begin: number, end: number): number {
  const start = hits[begin]!.start;
  const seen = new Set<string>();
  let cover = 0;
  for (let i = begin; i < end; i++) {
    const hit = hits[i]!;
    const key = `${hit.phrase ? 'p' : 'w'}${hit.token}`;
    if (seen.has(key)) continue;
    seen.add(key);
    cover = hit.end - start;
  }
  return cover;
}

function isBetter(rank: readonly number[], than: readonly number[]): boolean {
  for (let i = 0; i < rank.length; i++) {
    if (rank[i] !== than[i]) return rank[i]! > than[i]!;
  }
  return false;
}

function cut(
  text: string,
  from: number,
  minChars: number,
  maxChars: number,
  before: boolean,
  after: boolean,
  hitAt: number,
  lastAt: number,
): string {
  let begin = from;
  if (!after && text.length - begin < maxChars - 1) {
    // Near the end of the text: start earlier so the snippet still fills maxChars, at the next word.
    begin = Math.max(0, text.length - (maxChars - 1));
    if (begin > 0) begin = wordStartAtOrAfter(text, begin, begin);
  } else if (begin > 0) {
    begin = wordStartAtOrAfter(text, begin, Math.max(0, begin - LEAD_CHARS));
    begin = sentenceStartAfter(text, begin, hitAt);
  }
  while (text[begin] === ' ') begin++;
  // Punctuation left of the cut (`. the method…`, `) and`) opens no snippet.
  if (begin > 0) begin = pastLoosePunctuation(text, begin);
  // The window's last hit, to the end of its word, must fit: the lead before the first hit (and a
  // word start moved back) may have pushed it past the end. Start later, at a word, never past the
  // first hit.
  const lastWordEnd = wordEndAtOrAfter(text, lastAt);
  const over = lastWordEnd - (begin + maxChars - 2);
  if (over > 0 && begin < hitAt) {
    begin = Math.min(hitAt, wordStartAtOrAfter(text, begin + over, begin + over));
    while (text[begin] === ' ') begin++;
  }
  const lead = begin > 0 || before ? ELLIPSIS : '';
  const budget = maxChars - lead.length;
  if (!after && text.length - begin <= budget) return lead + text.slice(begin);
  let end = wordEndAtOrBefore(text, begin + budget - 1, begin + Math.max(1, minChars - lead.length - 1));
  if (isHighSurrogate(text.charCodeAt(end - 1))) end--;
  return `${lead}${text.slice(begin, end).trimEnd()}${ELLIPSIS}`;
}

/** The end of a sentence: its mark (and a closing quote or bracket), then space. */
const SENTENCE_END = /[.!?。！？][)"'’”\]]?\s+|[。！？]/gu;

/**
 * The start of the last sentence that begins between `begin` and `limit` (where the first hit is,
 * so it stays in the snippet), or `begin`: a snippet reads better from where a sentence starts than
 * from the middle of the one before.
 */
function sentenceStartAfter(text: string, begin: number, limit: number): number {
  let start = begin;
  SENTENCE_END.lastIndex = begin;
  for (let m = SENTENCE_END.exec(text); m !== null && m.index + m[0].length <= limit; m = SENTENCE_END.exec(text)) {
    // `e.g. the`, `Fig. 3`, `3.5 m`: a mark before a lower-case word or a digit ends no sentence.
    const next = text[m.index + m[0].length] ?? '';
    if (/[\p{Lu}\p{Lo}]/u.test(next) || /[。！？]/u.test(m[0])) start = m.index + m[0].length;
  }
  return start;
}

/** Words of punctuation alone (`.`, `),`, `–`), each with the spaces after it. */
const LOOSE_PUNCTUATION = /(?:[^\p{L}\p{N}\s]+ +)+/uy;

/** Past words of punctuation alone at `at`, to the next word that has a letter or digit. */
function pastLoosePunctuation(text: string, at: number): number {
  LOOSE_PUNCTUATION.lastIndex = at;
  return LOOSE_PUNCTUATION.test(text) ? LOOSE_PUNCTUATION.lastIndex : at;
}

/** Moves `at` back to a word start (not below `floor`), so the first word is not cut. */
function wordStartAtOrAfter(text: string, at: number, floor: number): number {
  if (SPACE.test(text[at - 1] ?? ' ') || cutsAnywhere(text[at] ?? '')) return at;
  for (let i = at - 1; i >= floor; i--) {
    if (SPACE.test(text[i] ?? '')) return i + 1;
  }
  for (let i = at; i < text.length && i < at + LEAD_CHARS; i++) {
    if (SPACE.test(text[i] ?? '')) return i + 1;
  }
  return isLowSurrogate(text.charCodeAt(at)) ? at + 1 : at;
}

/** The end (exclusive) of the word going on at `at` (or `at` at a space); CJK ends at any character. */
function wordEndAtOrAfter(text: string, at: number): number {
  let end = at;
  while (end < text.length && !SPACE.test(text[end] ?? ' ') && !cutsAnywhere(text[end] ?? '')) end++;
  return end;
}

/** The end (exclusive) of the last whole word before `limit`, not below `floor`; CJK may be cut anywhere. */
function wordEndAtOrBefore(text: string, limit: number, floor: number): number {
  if (SPACE.test(text[limit] ?? ' ') || cutsAnywhere(text[limit - 1] ?? '')) return limit;
  for (let i = limit - 1; i >= floor; i--) {
    if (SPACE.test(text[i] ?? '') || cutsAnywhere(text[i] ?? '')) return i + 1;
  }
  return limit;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
