import type { IndexQuery, QueryNode } from '@quarry/core';
import { asksCharPrefix, isStopTerm, looseWords, questionWords, wordForms } from './fts-query.js';
import {
  filterMeetsPages,
  type LanguageFilter,
  type LanguageReading,
  languageForms,
  languageReadings,
} from './language-forms.js';
import { COLUMNS } from './rows.js';

/**
 * The fast plan of a query: the shapes nearly every search has (words joined by AND or OR, one
 * phrase, `intitle:` words, exclusions of words) as single engine queries. LanceDB 0.37 answers a
 * match query of several words, or a phrase, with block-max WAND in a few milliseconds, while any
 * boolean or boost query scores every match (100+ ms at 100,000 pages). Other shapes (a phrase
 * beside words, nested groups, exclusions of phrases) go through the general plan (`fts-query.ts`).
 */
export interface FastQuery {
  readonly kind: 'match' | 'phrase';
  readonly tokens: readonly string[];
  /** A match query: whether every token is required (`false`: any token, more and rarer rank higher). */
  readonly all: boolean;
  readonly column: string;
  /**
   * Runs of tokens a match must also hold in a row (phrases beside other words, words of several
   * tokens): the engine finds and scores the pages holding every token (a phrase's score is the
   * BM25 of its tokens), and the candidates are then checked for the runs.
   */
  readonly phrases?: readonly (readonly string[])[];
  /**
   * Only the pages of some languages, or of all but some; all when absent. A query of optional words
   * is asked of English pages, of the other pages, and of each stemmed language whose stems of them
   * are their own, apart (see formAlternatives); a query of required words of those languages'
   * pages in their stems (see language-forms.ts).
   */
  readonly languages?: LanguageFilter;
}

export interface FastPlan {
  /**
   * Queries whose matches together are the query's matches, each scored by BM25 on its own: the
   * stemmed forms (how English pages are indexed) and, where they differ, the forms as typed (every
   * other page). A page has one or the other, so the union ranks like one query.
   */
  readonly alternatives: readonly FastQuery[];
  /** Words no match may contain (any of them), or null. */
  readonly exclude: FastQuery | null;
  /**
   * The excluded words' stems in the stemmed languages that have their own (see language-forms.ts):
   * excluded too where pages of those languages are in the index (one query of the excluded words
   * cannot ask a form of some languages' pages only, so a page of another language holding such a
   * stem is left out too).
   */
  readonly excludedByLanguage?: readonly LanguageReading[];
  /**
   * With several alternatives (the stemmed and the typed forms, or one query of both forms asked of
   * English pages and of the others apart: see `languages`; and a language's stems), each of the
   * query's tokens in each alternative's form, in the alternatives' order (the English stem first,
   * then as typed, where they differ), by which their scores are brought to one scale (see
   * `fast-search.ts`, formScales).
   */
  readonly forms?: readonly (readonly string[])[];
}

/** The fast plan of a query, or null when it needs the general one. */
export function planFast(query: IndexQuery): FastPlan | null {
  const root = query.query.root;
  if (!root || hasCharPrefix(root)) return null;
  const any = query.match === 'any';
  if (root.type === 'or') return orPlan(root.children);
  const children = root.type === 'and' ? root.children : [root];
  const positives: QueryNode[] = [];
  const excluded: string[] = [];
  const excludedByLanguage: LanguageReading[] = [];
  for (const child of children) {
    if (child.type === 'not') {
      // Exclusions are checked against the body text; `-intitle:word` is the general plan's.
      if (child.child.type === 'term' && child.child.field === 'title') return null;
      const tokens = singleTokenForms(child.child);
      if (!tokens) return null;
      excluded.push(...tokens);
      excludedByLanguage.push(...languageReadings([tokens[0]!], [tokens.at(-1)!]));
    } else if (child.type === 'term' || child.type === 'phrase') positives.push(child);
    else return null;
  }
  if (positives.length === 0) return null;
  const exclude: FastQuery | null =
    excluded.length > 0 ? { kind: 'match', tokens: unique(excluded), all: false, column: COLUMNS.text } : null;
  const planned = any ? anyAlternatives(positives) : allAlternatives(positives);
  if (!planned) return null;
  return excludedByLanguage.length > 0 ? { ...planned, exclude, excludedByLanguage } : { ...planned, exclude };
}

/** A word's stemmed and typed form (the same token twice when stemming changes nothing). */
type FormPair = readonly [stemmed: string, typed: string];

/** Alternatives, and with a stemmed and a typed one, the form pairs of the query's tokens. */
type Planned = Pick<FastPlan, 'alternatives' | 'forms'>;

/** Alternatives of one form each, or of both: each token's forms from their tokens, in the same order. */
function aligned(alternatives: readonly FastQuery[]): Planned {
  const [first] = alternatives;
  if (alternatives.length < 2 || !first || alternatives.some((a) => a.tokens.length !== first.tokens.length)) {
    return { alternatives };
  }
  return { alternatives, forms: first.tokens.map((_, i) => alternatives.map((a) => a.tokens[i]!)) };
}

/**
 * Optional words: one query of every word, and where some of their forms differ, asked of the pages
 * indexed by English stems in those, of the other pages in both forms (a page written as typed may
 * hold either: `glacier`, `glaciers`), and of each group of stemmed languages with stems of their
 * own in those (see language-forms.ts), apart (pairs of a word's two forms; duplicates kept, as
 * query term frequency). Each list is ranked by
 * the engine and can then be rescaled as a whole (see `fast-search.ts`, formScales): in one list, a
 * German page holding the English word `computing` outranked English pages about computing, whose
 * text holds it only as the stem `comput` (the typed form is rare in an index where English pages
 * hold stems, and its IDF large). An English page is asked for stems only: a typed form it holds is
 * another word's stem (`nutritionally` is stemmed to `nutrition`, `nutrition` to `nutrit`), and
 * counting it gave such pages the word twice, the second time at the rare form's IDF. So is a page
 * of another stemmed language, in its language's stems.
 */
function formAlternatives(pairs: readonly FormPair[], all: boolean, column: string): Planned {
  const english = pairs.map(([s]) => s);
  const typed = pairs.map(([, t]) => t);
  const languages = languageForms(english, typed);
  const stemmed = pairs.some(([s, t]) => s !== t);
  if (!stemmed && languages.others.length === 0) {
    return { alternatives: [{ kind: 'match', tokens: english, all, column }] };
  }
  const own = languages.others.flatMap((reading) => reading.languages);
  const alternatives: FastQuery[] = [];
  const forms: string[][] = pairs.map(() => []);
  const add = (tokens: readonly string[], filter: LanguageFilter, formOf: (i: number) => string) => {
    alternatives.push({ kind: 'match', tokens, all, column, languages: filter });
    for (const [i, of] of forms.entries()) of.push(formOf(i));
  };
  if (stemmed) {
    add(english, { only: languages.english }, (i) => english[i]!);
    add(
      pairs.flatMap(([s, t]) => (s === t ? [s] : [s, t])),
      { except: [...languages.english, ...own] },
      (i) => typed[i]!,
    );
  } else add(english, { except: own }, (i) => english[i]!);
  for (const { languages: only, tokens } of languages.others) add(tokens, { only }, (i) => tokens[i]!);
  return { alternatives, forms };
}

/**
 * `a OR b OR c`: one query of every form of every word, any of them. Words sharing a stem
 * (`title`, `titles`) each keep it: the engine then weighs the stem twice, as the general plan's
 * boolean query does (BM25 with query term frequency; on CISI's long queries nDCG@10 is 0.349 with
 * it and 0.308 without).
 */
function orPlan(children: readonly QueryNode[]): FastPlan | null {
  const pairs: FormPair[] = [];
  const fields = new Set<string>();
  for (const child of looseWords(children)) {
    const forms = singleTokenForms(child);
    if (!forms || child.type !== 'term') return null;
    fields.add(child.field);
    pairs.push(formPair(forms));
  }
  if (pairs.length === 0 || fields.size !== 1) return null;
  const column = fields.has('title') ? COLUMNS.title : COLUMNS.text;
  return { ...formAlternatives(pairs, false, column), exclude: null };
}

/**
 * `match=any`: plain words are all optional (one query of every form). `intitle:` words and
 * phrases are hard constraints there, so only a query made of nothing else is planned here. Stop
 * words are left out unless the query has nothing else (see {@link questionWords}).
 */
function anyAlternatives(positives: readonly QueryNode[]): Planned | null {
  const plain = positives.every((node) => node.type === 'term' && node.field === 'any');
  // Only hard constraints (phrases, `intitle:` words): every one is required, as in an AND.
  if (!plain)
    return positives.every((node) => isTitleTerm(node) || node.type === 'phrase') ? allAlternatives(positives) : null;
  const pairs: FormPair[] = [];
  for (const node of questionWords(looseWords(positives))) {
    const forms = singleTokenForms(node);
    if (!forms) return null;
    pairs.push(formPair(forms));
  }
  return pairs.length === 0 ? null : formAlternatives(pairs, false, COLUMNS.text);
}

/**
 * `match=all`: one phrase (or one word that is a phrase of tokens: `re:invent`, CJK text) alone, or
 * words and phrases, all required. Stop words beside other words are left out: they only score in
 * an AND, and their weight (a word on nearly every page) is close to nothing.
 */
function allAlternatives(positives: readonly QueryNode[]): Planned | null {
  const fields = new Set(positives.map((node) => (node.type === 'not' ? '' : (node as { field: string }).field)));
  if (fields.size !== 1) return null;
  const column = fields.has('title') ? COLUMNS.title : COLUMNS.text;
  if (positives.length === 1) {
    const node = positives[0]!;
    if (node.type !== 'term' && node.type !== 'phrase') return null;
    const forms = wordForms(node.text);
    if (forms.length === 0) return null;
    const [english, typed] = [forms[0]!, forms.at(-1)!];
    // A word whose forms are single tokens: each form, asked of each kind of page apart.
    if (node.type === 'term' && english.length === 1) {
      return formAlternatives([[english[0]!, typed[0]!]], forms.length === 1, column);
    }
    const asked = (tokens: readonly string[]): FastQuery =>
      tokens.length === 1 && node.type === 'term'
        ? { kind: 'match', tokens, all: true, column }
        : { kind: 'phrase', tokens, all: true, column };
    return aligned([
      ...forms.map(asked),
      ...languageReadings(english, typed).map((reading) => ({
        ...asked(reading.tokens),
        languages: { only: reading.languages },
      })),
    ]);
  }
  // Words and phrases together: every token required, each phrase checked among the candidates.
  // Stop words outside phrases are left out unless the query has nothing else.
  const plain = positives.filter((node) => node.type === 'phrase' || (node.type === 'term' && !isStopTerm(node.text)));
  const words = plain.length > 0 ? plain : positives;
  const stemmed: string[] = [];
  const typed: string[] = [];
  /** Where each run of tokens (a phrase, a word of several tokens) starts, and its length. */
  const runs: (readonly [at: number, length: number])[] = [];
  for (const node of words) {
    const forms = wordForms((node as { text: string }).text);
    if (forms.length === 0) continue;
    const [stems, asTyped] = [forms[0]!, forms.at(-1)!];
    if (stems.length > 1) runs.push([stemmed.length, stems.length]);
    stemmed.push(...stems);
    typed.push(...asTyped);
  }
  if (stemmed.length === 0) return null;
  const query = (tokens: readonly string[], languages?: LanguageFilter): FastQuery => ({
    kind: 'match',
    tokens: unique(tokens),
    all: true,
    column,
    ...(runs.length > 0 ? { phrases: runs.map(([at, length]) => tokens.slice(at, at + length)) } : {}),
    ...(languages ? { languages } : {}),
  });
  const differ = typed.some((token, i) => token !== stemmed[i]);
  const readings = languageReadings(stemmed, typed);
  if (!differ && readings.length === 0) return { alternatives: [query(stemmed)] };
  return {
    alternatives: [
      query(stemmed),
      ...(differ ? [query(typed)] : []),
      ...readings.map((reading) => query(reading.tokens, { only: reading.languages })),
    ],
    forms: stemmed.map((token, i) => [
      token,
      ...(differ ? [typed[i]!] : []),
      ...readings.map((reading) => reading.tokens[i]!),
    ]),
  };
}

/**
 * Whether a word of the query is one CJK character, or ends in one after other tokens (`3月9日`),
 * searched as a prefix of pairs (see asksCharPrefix): a match of any of some 21,000 tokens, which
 * only the general plan asks.
 */
function hasCharPrefix(node: QueryNode): boolean {
  switch (node.type) {
    case 'term':
    case 'phrase':
      return asksCharPrefix(node.text);
    case 'not':
      return hasCharPrefix(node.child);
    case 'and':
    case 'or':
      return node.children.some(hasCharPrefix);
  }
}

function isTitleTerm(node: QueryNode): boolean {
  return node.type === 'term' && node.field === 'title';
}

/** Every form of a plain word when each is a single token; null for phrases and multi-token words. */
function singleTokenForms(node: QueryNode): string[] | null {
  if (node.type !== 'term') return null;
  const forms = wordForms(node.text);
  if (forms.length === 0 || forms.some((tokens) => tokens.length !== 1)) return null;
  return forms.map((tokens) => tokens[0]!);
}

/** A word's stemmed and typed form (see singleTokenForms): the same token twice when they agree. */
function formPair(forms: readonly string[]): FormPair {
  return [forms[0]!, forms.at(-1)!];
}

function unique(tokens: readonly string[]): string[] {
  return [...new Set(tokens)];
}

/**
 * Whether a plan asks its query of English pages, of the others and of some languages' pages apart
 * (optional words, see formAlternatives): each part is then found by one query of every form.
 */
export function isSplit(plan: FastPlan): boolean {
  return plan.alternatives.length > 1 && plan.alternatives.every((alternative) => alternative.languages);
}

/** A query without its language filter. */
function unfilteredQuery({ languages: _, ...query }: FastQuery): FastQuery {
  return query;
}

/** The excluded words with their stems in those languages that `wanted` keeps (see excludedByLanguage). */
function withExcludedStems(plan: FastPlan, wanted: (languages: readonly string[]) => boolean): FastQuery | null {
  const stems = (plan.excludedByLanguage ?? []).filter((reading) => wanted(reading.languages));
  if (!plan.exclude || stems.length === 0) return plan.exclude;
  const tokens = new Set([...plan.exclude.tokens, ...stems.flatMap((reading) => reading.tokens)]);
  return { ...plan.exclude, tokens: [...tokens] };
}

/**
 * The plan asked once of every page, for a scan of unfolded pages (which scores each part apart)
 * and to count the matches of a split plan: optional words in every form of every part, required
 * words in each of their forms without the language filters.
 */
export function unfiltered(plan: FastPlan): FastPlan {
  const exclude = withExcludedStems(plan, () => true);
  if (!isSplit(plan)) {
    const { excludedByLanguage: _, ...rest } = plan;
    return { ...rest, alternatives: plan.alternatives.map(unfilteredQuery), exclude };
  }
  const first = unfilteredQuery(plan.alternatives[0]!);
  // Each word's forms in a row, its English stem first (the typed form's part held them so), any
  // of them.
  const tokens = plan.forms ? plan.forms.flatMap((of) => [...new Set(of)]) : first.tokens;
  return { alternatives: [{ ...first, tokens, all: false }], exclude };
}

/**
 * The plan without the parts whose languages have no page among `present` (stemmed languages, and
 * UNSTEMMED for the others), its forms with them; a part left alone is asked of every page. With
 * `typedToo` (an index whose oldest pages predate the stems of languages other than English, see
 * LANGUAGES_STEMMED_SINCE), the other pages' part is asked of those languages' pages too, which may
 * hold their words as typed.
 */
export function forLanguages(plan: FastPlan, present: ReadonlySet<string>, typedToo = false): FastPlan {
  const exclude = withExcludedStems(plan, (languages) => languages.some((lang) => present.has(lang)));
  const own = new Set(
    plan.alternatives.flatMap(({ languages }) =>
      languages && 'only' in languages && !languages.only.includes('en') ? languages.only : [],
    ),
  );
  const asked = plan.alternatives.map((alternative) => {
    const filter = alternative.languages;
    if (!typedToo || !filter || !('except' in filter)) return alternative;
    return { ...alternative, languages: { except: filter.except.filter((lang) => !own.has(lang)) } };
  });
  const kept = asked.flatMap((alternative, i) => (filterMeetsPages(alternative.languages, present) ? [i] : []));
  if (kept.length <= 1) return { alternatives: [unfilteredQuery(asked[kept[0] ?? 0]!)], exclude };
  const alternatives = kept.map((i) => asked[i]!);
  const forms = plan.forms?.map((of) => kept.map((i) => of[i]!));
  return { alternatives, exclude, ...(forms ? { forms } : {}) };
}
