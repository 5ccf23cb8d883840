import type { IndexQuery, ParsedQuery, QueryNode, SearchIndex, TermNode } from '@quarry/core';
import { foldText, isStopWord, stemToken, tokenize } from '@quarry/text';
import { FEW_FOUND, plainWordCount, plainWords, type RelaxedSearch } from './relax.js';
import { pagesHolding } from './word-counts.js';

/**
 * Spelling: a word no page holds (`travle`, `insurrance`) found nothing, or, its words optional,
 * was left out of the ranking. It is searched as a word one letter away (a letter added, left out,
 * changed, or two swapped) that pages hold with the query's other words (see likeliestVariant),
 * when there is one; the response says so (see {@link CORRECTED_WORDS_HEADER}). A word in quotes
 * is searched as typed.
 *
 * Words shorter than this are left as typed: too many words lie one letter from them (`cats`,
 * `bats`, `cuts`), and a short word no page holds is more often a name or a code than a slip.
 */
export const MIN_CORRECTED_LENGTH = 5;
/**
 * Words longer than this are left as typed. A word of n letters has about 53n spellings one letter
 * away, each n letters long: a 4,096-letter word made 217,000 strings of 4 KB, took the API 18 s
 * and 3 GB, and failed. English words this long are rare (`internationalization` is 20 letters);
 * a longer one is a name, a code or junk.
 */
export const MAX_CORRECTED_LENGTH = 30;
/** Words of one query corrected at most; the others stay as typed. */
export const MAX_CORRECTED_WORDS = 3;
/**
 * Plain words from which a query is not corrected: a paragraph pasted whole, whose words no page
 * holds are names and terms of art more often than slips.
 */
export const MAX_SPELLED_WORDS = 12;
/**
 * Variants held by pages that are weighed at most. A word's variants share stems with other words
 * (`hatring` is held where `hatred` is: both are `hatr`), so more are held than are words.
 */
const MAX_WEIGHED_VARIANTS = 16;
/** What a word is made of to be corrected: Latin letters only, once folded (no digits: `rtx4090`). */
const LATIN_WORD = /^[a-z]+$/;
/**
 * A letter beyond a-z as typed (`ä`, `ß`, `é`, `ø`, a combining accent): the word is another
 * language's, which folding only brings to a-z. Its spellings one letter away are a-z words, most
 * of them English: `Straße` was searched as `stresse` (English pages about stress).
 */
const TYPED_BEYOND_A_Z = /\p{M}|(?![A-Za-z])\p{L}/u;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';
/**
 * Pages a variant must be held by to be a correction: one page's word is as often its own slip or
 * a name (`cloudn`, one letter from `cloudy`, a word no page holds but a word all the same).
 */
const MIN_VARIANT_PAGES = 2;
/** Last letters that make an English word of another (see inflectionStems). */
const INFLECTING_ENDINGS = ['s', 'y', 'd', 'r'];

/** The response header naming the words searched in another spelling: `travle=travel, insurrance=insurance`. */
export const CORRECTED_WORDS_HEADER = 'Quarry-Corrected-Words';

/** A word of the query searched in another spelling. */
export interface Correction {
  /** As typed, folded (lower case, without accents). */
  readonly typed: string;
  readonly corrected: string;
}

/** The header value of corrections: `typed=corrected` pairs, comma-separated (a-z only, safe in a header). */
export function correctionsHeader(corrections: readonly Correction[]): string {
  return corrections.map(({ typed, corrected }) => `${typed}=${corrected}`).join(', ');
}

/**
 * A search spelled again: `found` (the search of `query` as typed) when its words are all held by
 * some page or none has a spelling one letter away; else the search of the query with those words
 * corrected (`again`), when it finds pages. Only a search that found few pages (fewer than
 * {@link FEW_FOUND}), or whose words were optional, looks: one that found many found what it asked.
 */
export async function spelledSearch(
  index: SearchIndex,
  query: IndexQuery,
  found: RelaxedSearch,
  again: (query: IndexQuery) => Promise<RelaxedSearch>,
): Promise<{ found: RelaxedSearch; query: IndexQuery; corrections: readonly Correction[] }> {
  const unchanged = { found, query, corrections: [] };
  const optional = found.relaxed || query.match === 'any';
  if (!optional && found.result.total >= FEW_FOUND) return unchanged;
  const corrections = await correctionsOf(index, query.query);
  if (corrections.length === 0) return unchanged;
  const corrected = { ...query, query: withCorrections(query.query, corrections) };
  const spelled = await again(corrected);
  // Fewer pages may be the better answer: the corrected words found together need no relaxing.
  if (spelled.result.total === 0) return unchanged;
  return { found: spelled, query: corrected, corrections };
}

/**
 * The corrections of `query`'s plain words that no page holds (see {@link MIN_CORRECTED_LENGTH},
 * {@link MAX_CORRECTED_WORDS}, {@link MAX_SPELLED_WORDS}): each with its likeliest variant one
 * letter away (see {@link likeliestVariant}), when some page holds one.
 */
export async function correctionsOf(index: SearchIndex, query: ParsedQuery): Promise<Correction[]> {
  if (index.heldSpellings === undefined || plainWordCount(query) > MAX_SPELLED_WORDS) return [];
  const words = correctableWords(query);
  if (words.length === 0) return [];
  // The words the index names at once as held need no count (one engine query, not one search a word).
  const seen = new Set(await index.heldSpellings(words));
  const held = await Promise.all(words.map((word) => (seen.has(word) ? 1 : pagesHolding(index, word))));
  const unknown = words.filter((_, i) => held[i] === 0).slice(0, MAX_CORRECTED_WORDS);
  // The words pages hold, which tell which variant the query means.
  const others = plainWords(query).filter((word) => !unknown.includes(correctable(word) ?? ''));
  const found = await Promise.all(unknown.map((word) => likeliestVariant(index, word, others)));
  return unknown.flatMap((typed, i) => {
    const corrected = found[i];
    return corrected ? [{ typed, corrected }] : [];
  });
}

/** Every spelling one letter from `word` (a-z): a letter left out, added, changed, or two neighbours swapped. */
export function variantsOf(word: string): Set<string> {
  const variants = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    if (i < word.length) variants.add(head + word.slice(i + 1));
    if (i < word.length - 1) variants.add(head + word.charAt(i + 1) + word.charAt(i) + word.slice(i + 2));
    for (const letter of ALPHABET) {
      variants.add(head + letter + word.slice(i));
      if (i < word.length) variants.add(head + letter + word.slice(i + 1));
    }
  }
  variants.delete(word);
  return variants;
}

/**
 * The variant of `word` that pages hold and the query means, or null when pages hold none: the
 * index names the variants its pages hold ({@link SearchIndex.heldSpellings}); of those, the one
 * the most pages hold together with all the query's `others` words, then with one of them at
 * least, then alone. `catring trends` is `catering trends`, though more pages hold `caring` (as
 * `care`, its stem); a rare variant (a page's own slip, `recive`) does not win over the word most
 * pages spell so.
 */
async function likeliestVariant(index: SearchIndex, word: string, others: readonly string[]): Promise<string | null> {
  const inflected = inflectionStems(word);
  const held = ((await index.heldSpellings?.([...variantsOf(word)])) ?? [])
    .filter((variant) => !inflected.has(stemToken(variant)))
    .slice(0, MAX_WEIGHED_VARIANTS);
  if (held.length === 0) return null;
  const weighed = await Promise.all(
    held.map(async (variant) => {
      // With one other word, all of them and one of them are the same count: asked once.
      const [all, any, alone] = await Promise.all([
        others.length === 0 ? 0 : pagesWith(index, variant, others, 'and'),
        others.length < 2 ? null : pagesWith(index, variant, others, 'or'),
        pagesHolding(index, variant),
      ]);
      const weight = slipWeight(word, variant);
      return { variant, alone, counts: [all * weight, (any ?? all) * weight, alone * weight] };
    }),
  );
  const byCounts = (a: { counts: number[] }, b: { counts: number[] }) =>
    b.counts.reduce((order, count, i) => order || count - (a.counts[i] ?? 0), 0);
  // With other words, only a variant some page holds with all of them: a word no page holds is
  // often a word all the same (`cloudy`), and one letter from it lies a stranger to the question.
  const fits = ({ alone, counts }: (typeof weighed)[number]) =>
    alone >= MIN_VARIANT_PAGES && (others.length === 0 || (counts[0] ?? 0) > 0);
  const best = weighed.filter(fits).sort(byCounts)[0];
  return best?.variant ?? null;
}

/**
 * How likely a typist's slip turns `variant` into `typed`, relative to the others: two letters
 * swapped, or a letter doubled or left single (`realy` for `really`), the commonest slips, weigh 1;
 * any other letter added, left out or changed weighs half (`realy` is not as likely `ready`).
 */
export function slipWeight(typed: string, variant: string): number {
  const LIKELY = 1;
  const OTHER = 0.5;
  if (typed.length === variant.length) {
    const at = [...typed].findIndex((letter, i) => letter !== variant[i]);
    const swapped = at >= 0 && typed[at] === variant[at + 1] && typed[at + 1] === variant[at];
    return swapped ? LIKELY : OTHER;
  }
  const [longer, shorter] = typed.length > variant.length ? [typed, variant] : [variant, typed];
  const at = [...shorter].findIndex((letter, i) => letter !== longer[i]);
  const extra = at < 0 ? longer.length - 1 : at;
  const letter = longer[extra];
  return letter === longer[extra - 1] || letter === longer[extra + 1] ? LIKELY : OTHER;
}

/**
 * The stems of the words `word` is made of or makes with an ending (`cloudy`: `cloud`; `cloud`:
 * `clouds`, `cloudy`, `clouded`). A word no page holds that way is a word all the same, not a slip:
 * its variants searched as those stems (`cloud`, or `cloude`, which the stemmer makes `cloud` too)
 * are no correction of it (the stemmer leaves `cloudy` as `cloudi`, apart from `cloud`).
 */
function inflectionStems(word: string): Set<string> {
  const partners = INFLECTING_ENDINGS.map((ending) => word + ending);
  if (INFLECTING_ENDINGS.includes(word.slice(-1))) partners.push(word.slice(0, -1));
  return new Set(partners.map(stemToken));
}

/** How many pages hold `word` and all (`and`) or one at least (`or`) of `others`. */
async function pagesWith(
  index: SearchIndex,
  word: string,
  others: readonly string[],
  type: 'and' | 'or',
): Promise<number> {
  const term = (text: string): TermNode => ({ type: 'term', text, field: 'any' });
  const other: QueryNode = others.length === 1 ? term(others[0]!) : { type, children: others.map(term) };
  const query: ParsedQuery = { root: { type: 'and', children: [term(word), other] }, sites: [], filetypes: [] };
  return (await index.search({ query, limit: 1, offset: 0, snippets: false })).total;
}

/**
 * The distinct plain words of `query` that may be corrected, folded: outside phrases, `intitle:`,
 * exclusions and OR groups, typed in the letters a-z only (punctuation around them aside), at least
 * {@link MIN_CORRECTED_LENGTH} long, no stop word.
 */
function correctableWords(query: ParsedQuery): string[] {
  const words = new Set<string>();
  for (const term of plainTerms(query.root)) {
    const word = correctable(term.text);
    if (word !== null) words.add(word);
  }
  return [...words];
}

/** The term nodes of a query's plain words (those {@link correctableWords} reads). */
function plainTerms(node: QueryNode | null): TermNode[] {
  if (node === null) return [];
  if (node.type === 'and') return node.children.flatMap(plainTerms);
  return node.type === 'term' && node.field === 'any' ? [node] : [];
}

/** The folded word a term's text is, when it may be corrected; else null. */
function correctable(text: string): string | null {
  const tokens = tokenize(text);
  if (tokens.length !== 1 || TYPED_BEYOND_A_Z.test(text)) return null;
  const word = foldText(tokens[0] ?? '');
  const sized = word.length >= MIN_CORRECTED_LENGTH && word.length <= MAX_CORRECTED_LENGTH;
  return sized && LATIN_WORD.test(word) && !isStopWord(word) ? word : null;
}

/** `query` with each corrected word's terms searched in its correction (punctuation around it kept). */
function withCorrections(query: ParsedQuery, corrections: readonly Correction[]): ParsedQuery {
  const by = new Map(corrections.map(({ typed, corrected }) => [typed, corrected]));
  const rewrite = (node: QueryNode): QueryNode => {
    if (node.type === 'and') return { ...node, children: node.children.map(rewrite) };
    if (node.type !== 'term' || node.field !== 'any') return node;
    const word = correctable(node.text);
    const corrected = word === null ? undefined : by.get(word);
    if (corrected === undefined) return node;
    // The word's letters replaced, what surrounds them (a question mark) kept.
    return { ...node, text: node.text.replace(/[\p{L}\p{M}]+/u, corrected) };
  };
  return query.root === null ? query : { ...query, root: rewrite(query.root) };
}
