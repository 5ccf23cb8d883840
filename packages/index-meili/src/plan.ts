/**
 * The query translation: an `IndexQuery` (parsed `q` plus the API's filters) becomes one Meilisearch
 * search request or one federated multi-search. Pure: no I/O, so every rule is unit-tested.
 *
 * - Filters (site, `site:`, `filetype:`, lang, time_range) are one filter expression ANDed into
 *   every query; values are validated, then quoted (see `filter.ts`).
 * - OR: the tree is expanded to conjunctions (`dnf.ts`); one conjunction is a plain search, several
 *   are the queries of a federated search, merged by Meilisearch by ranking score. A document that
 *   several queries match appears once, with its best score.
 * - lang_priority (a boost, not a filter, and only when no hard `lang` filter makes it moot): each
 *   conjunction runs twice, `lang = X` with federation weight `langPriorityWeight` and `lang != X`
 *   with weight 1. Weighted scores are comparable across queries, so results in X move up by that
 *   factor over the whole result set and pagination stays consistent.
 * - Pagination: offset (0 to 990) and limit (1 to 100) on the search, or on the federation.
 * - Snippets: the body attributes are cropped (`attributesToCrop`, marker `…`, no highlight tags).
 */
import { type IndexQuery, ValidationError } from '@quarry/core';
import { positiveClauses } from '@quarry/query';
import type { FederatedMultiSearchParams, MultiSearchQueryWithFederation, SearchParams } from 'meilisearch';
import { type ConjunctionQuery, translateConjunction } from './conjunction.js';
import { toDnf } from './dnf.js';
import { BODY_FIELDS, FIELD, RETRIEVED_FIELDS } from './fields.js';
import {
  allOf,
  crawledAfterCondition,
  equals,
  filetypeCondition,
  notEquals,
  siteCondition,
  validLang,
  validSite,
} from './filter.js';
import { TRANSLATION_DEFAULTS, type TranslationOptions } from './options.js';

/** Largest `limit` the API allows (spec 4.1). */
export const MAX_LIMIT = 100;
/** Largest `offset` the API allows (spec 4.1). */
export const MAX_OFFSET = 990;

/** How to run a search: nothing (no conjunction can match), one search, or a federated multi-search. */
export type SearchPlan =
  | { readonly kind: 'none'; readonly snippetTerms: readonly string[] }
  | {
      readonly kind: 'single';
      readonly q: string;
      readonly params: SearchParams;
      readonly snippetTerms: readonly string[];
    }
  | {
      readonly kind: 'federated';
      readonly request: FederatedMultiSearchParams;
      readonly snippetTerms: readonly string[];
    };

function checkInteger(value: number, min: number, max: number, param: string): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(`${param} must be an integer from ${min} to ${max}.`, param);
  }
}

/** The filter conditions every query of the search shares. */
export function sharedConditions(query: IndexQuery): string[] {
  const conditions: string[] = [];
  if (query.site !== undefined) conditions.push(siteCondition([validSite(query.site, 'site')]));
  if (query.query.sites.length > 0) {
    conditions.push(siteCondition([...new Set(query.query.sites.map((site) => validSite(site, 'q')))]));
  }
  if (query.query.filetypes.length > 0) conditions.push(filetypeCondition(query.query.filetypes));
  if (query.lang !== undefined) conditions.push(equals(FIELD.lang, validLang(query.lang, 'lang')));
  if (query.crawledAfter !== undefined) conditions.push(crawledAfterCondition(query.crawledAfter));
  return conditions;
}

/** Meilisearch's tokenizer guesses a query's language; a hard language filter or kana settle it. */
function queryLocales(lang: string | undefined, q: string): string[] | undefined {
  if (lang === 'zh') return ['cmn'];
  if (lang === 'ja' || /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(q)) return ['jpn'];
  return undefined;
}

function baseParams(
  branch: ConjunctionQuery,
  filter: string | undefined,
  lang: string | undefined,
  options: Required<TranslationOptions> & { readonly match: 'all' | 'any' },
): SearchParams {
  const params: SearchParams = {
    // `any`: Meilisearch's `frequency` strategy first returns pages holding every word, then drops the
    // most frequent words one at a time, so pages matching more and rarer words rank first. Phrases,
    // exclusions and field operators are filters or quoted terms, which no strategy drops.
    matchingStrategy: options.match === 'any' ? 'frequency' : 'all',
    attributesToRetrieve: [...RETRIEVED_FIELDS],
    attributesToCrop: BODY_FIELDS.map((field) =>
      field === 'body' ? `${field}:${options.cropLengthWords}` : `${field}:${options.cjkCropLengthWords}`,
    ),
    cropMarker: '…',
    showRankingScore: true,
  };
  if (filter !== undefined) params.filter = filter;
  if (branch.attributesToSearchOn !== undefined) params.attributesToSearchOn = [...branch.attributesToSearchOn];
  const locales = queryLocales(lang, branch.q);
  if (locales !== undefined) params.locales = locales;
  return params;
}

/**
 * Translates a search into a plan for the index `indexUid`. Throws a `ValidationError` for an
 * out-of-range limit or offset, an invalid site, language or time, or an OR expansion beyond
 * `maxOrBranches`.
 */
export function planSearch(indexUid: string, query: IndexQuery, options: TranslationOptions = {}): SearchPlan {
  const opts = { ...TRANSLATION_DEFAULTS, ...options, match: query.match ?? 'all' };
  checkInteger(query.limit, 1, MAX_LIMIT, 'limit');
  checkInteger(query.offset, 0, MAX_OFFSET, 'offset');
  const snippetTerms = positiveClauses(query.query).map((clause) => clause.text);
  const shared = sharedConditions(query);
  const lang = query.lang === undefined ? undefined : validLang(query.lang, 'lang');
  const priority = query.langPriority === undefined ? undefined : validLang(query.langPriority, 'lang_priority');
  // With a hard language filter every result has that language, so a priority changes nothing.
  const boost = priority !== undefined && lang === undefined ? priority : undefined;

  const branches = toDnf(query.query.root, opts.maxOrBranches)
    .map(translateConjunction)
    .filter((branch) => branch !== null);
  if (branches.length === 0) return { kind: 'none', snippetTerms };

  if (branches.length === 1 && boost === undefined) {
    const branch = branches[0]!;
    const params = baseParams(branch, allOf([...shared, ...branch.conditions]), lang, opts);
    return {
      kind: 'single',
      q: branch.q,
      params: { ...params, offset: query.offset, limit: query.limit },
      snippetTerms,
    };
  }

  const queries: MultiSearchQueryWithFederation[] = [];
  for (const branch of branches) {
    const conditions = [...shared, ...branch.conditions];
    if (boost === undefined) {
      queries.push({ indexUid, q: branch.q, ...baseParams(branch, allOf(conditions), lang, opts) });
      continue;
    }
    const inPriority = allOf([...conditions, equals(FIELD.lang, boost)]);
    const outside = allOf([...conditions, notEquals(FIELD.lang, boost)]);
    queries.push(
      {
        indexUid,
        q: branch.q,
        ...baseParams(branch, inPriority, lang, opts),
        federationOptions: { weight: opts.langPriorityWeight },
      },
      { indexUid, q: branch.q, ...baseParams(branch, outside, lang, opts), federationOptions: { weight: 1 } },
    );
  }
  return {
    kind: 'federated',
    request: { federation: { offset: query.offset, limit: query.limit }, queries },
    snippetTerms,
  };
}
