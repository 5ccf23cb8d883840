import type { IndexQuery, ParsedQuery } from '@quarry/core';
import { normalizeLang, normalizeSite, TIME_RANGES_MS, toIsoUtc, ValidationError } from '@quarry/core';
import { MAX_QUERY_LENGTH, parseQuery } from '@quarry/query';
import type { RequestHandler } from 'express';

/** Bounds of the search parameters (spec 4.1 and 8). */
export const SEARCH_BOUNDS = {
  limit: { min: 1, max: 100, default: 10 },
  offset: { min: 0, max: 990, default: 0 },
} as const;

type IndexMatch = NonNullable<IndexQuery['match']>;

/** The `match` values: `all` (default, every word must occur) or `any` (words optional, more rank higher). */
export const MATCH_VALUES: readonly IndexMatch[] = ['all', 'any'];

/** The `time_range` values, in the order the docs list them. */
export const TIME_RANGE_VALUES = Object.keys(TIME_RANGES_MS);

/** A validated search request: what the index is asked, plus what the fallback needs. */
export interface SearchParams {
  readonly q: string;
  readonly query: ParsedQuery;
  readonly timeRange: string | undefined;
  readonly indexQuery: IndexQuery;
}

type RawQuery = Readonly<Record<string, unknown>>;

/**
 * Validates and normalizes the query string of `GET /api/v1/search`. Throws a `ValidationError`
 * naming the parameter for anything off-spec: repeated parameters, non-decimal or out-of-range
 * integers, unknown `time_range`, malformed language codes or sites.
 */
export function parseSearchParams(raw: RawQuery, now: Date): SearchParams {
  const q = single(raw, 'q');
  if (q === undefined) throw new ValidationError('q is required', 'q');
  if ([...q].length > MAX_QUERY_LENGTH) {
    throw new ValidationError(`q must be at most ${MAX_QUERY_LENGTH} characters`, 'q');
  }
  if (q.trim() === '') throw new ValidationError('q must not be empty', 'q');
  // Exclusions alone (`-draft`) are a query within the `site` parameter's pages, as with `site:`.
  const query = parseQuery(q, { filtered: raw.site !== undefined });
  const limit = integer(raw, 'limit', SEARCH_BOUNDS.limit);
  const offset = integer(raw, 'offset', SEARCH_BOUNDS.offset);
  const lang = language(raw, 'lang');
  const langPriority = language(raw, 'lang_priority');
  const timeRange = single(raw, 'time_range');
  let crawledAfter: string | undefined;
  if (timeRange !== undefined) {
    if (!Object.hasOwn(TIME_RANGES_MS, timeRange)) {
      throw new ValidationError(`time_range must be one of ${TIME_RANGE_VALUES.join(', ')}`, 'time_range');
    }
    const rangeMs = TIME_RANGES_MS[timeRange];
    if (typeof rangeMs === 'number') crawledAfter = toIsoUtc(new Date(now.getTime() - rangeMs));
  }
  const siteRaw = single(raw, 'site');
  let site: string | undefined;
  if (siteRaw !== undefined) {
    site = normalizeSite(siteRaw) ?? undefined;
    if (site === undefined)
      throw new ValidationError(
        'site must be a domain such as example.com, or a domain and path such as example.com/docs',
        'site',
      );
  }
  const match = single(raw, 'match');
  if (match !== undefined && !MATCH_VALUES.includes(match as IndexMatch)) {
    throw new ValidationError(`match must be one of ${MATCH_VALUES.join(', ')}`, 'match');
  }
  const indexQuery: IndexQuery = {
    query,
    ...(match === undefined ? {} : { match: match as IndexMatch }),
    limit,
    offset,
    ...(lang ? { lang } : {}),
    ...(langPriority ? { langPriority } : {}),
    ...(site ? { site } : {}),
    ...(crawledAfter ? { crawledAfter } : {}),
  };
  return { q, query, timeRange, indexQuery };
}

function single(raw: RawQuery, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ValidationError(`${name} must be given once`, name);
  return value;
}

// Digits only: `1e2`, `10.5`, `+5`, `-1`, ` 5` and hex are refused rather than coerced. Six
// digits bound the work before the range check.
const DECIMAL = /^[0-9]{1,6}$/;

function integer(raw: RawQuery, name: string, bounds: { min: number; max: number; default: number }): number {
  const value = single(raw, name);
  if (value === undefined) return bounds.default;
  const n = DECIMAL.test(value) ? Number(value) : Number.NaN;
  if (!(n >= bounds.min && n <= bounds.max)) {
    throw new ValidationError(`${name} must be an integer from ${bounds.min} to ${bounds.max}`, name);
  }
  return n;
}

function language(raw: RawQuery, name: string): string | undefined {
  const value = single(raw, name);
  if (value === undefined) return undefined;
  const lang = normalizeLang(value);
  if (lang === null || !/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/.test(value.trim())) {
    throw new ValidationError(`${name} must be a language code such as en or zh-CN`, name);
  }
  return lang;
}

const MAX_PARAM_NAME_CHARS = 64;
const PERCENT_ESCAPES = /%(?![0-9A-Fa-f]{2})/;

/**
 * Refuses a query string with a broken percent escape (`%ZZ`, a lone `%`) or escapes that do not
 * decode to UTF-8, instead of letting the lenient parser pass the raw text on as a query. Also
 * refuses, naming the parameter, any parameter given twice and any bracketed name (`q[]=a`,
 * `offset[$gt]=1`, `a[b]=c`): array- or object-shaped input is never silently ignored or coerced.
 */
export const rejectMalformedQueryString: RequestHandler = (req, _res, next) => {
  const at = req.originalUrl.indexOf('?');
  if (at === -1) return next();
  const seen = new Set<string>();
  for (const pair of req.originalUrl.slice(at + 1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const name = safeDecode(rawName)?.slice(0, MAX_PARAM_NAME_CHARS);
    if (PERCENT_ESCAPES.test(pair) || safeDecode(pair.slice(eq + 1)) === null || name === undefined) {
      return next(new ValidationError('malformed percent-encoding in the query string', name));
    }
    if (/[[\]]/.test(name)) {
      return next(new ValidationError(`${name}: array- or object-shaped parameters are not accepted`, name));
    }
    if (seen.has(name)) return next(new ValidationError(`${name} must be given once`, name));
    seen.add(name);
  }
  next();
};

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}
