import type { FallbackRequest, SearchResult } from '@quarry/core';
import {
  FILETYPE_FAMILY,
  type Filetype,
  filetypeFromUrl,
  hostOf,
  normalizeLang,
  normalizeUrl,
  parseTimestamp,
  TIME_RANGES_MS,
  toIsoUtc,
  UNKNOWN_LANG,
  urlMatchesSite,
} from '@quarry/core';
import { htmlToText } from './html-text.js';
import { mayBeInLanguage } from './script.js';
import { shownToMismatch } from './shown-match.js';
import { effectiveSites } from './translate.js';

/** One provider hit, already validated, before it becomes a {@link SearchResult}. */
export interface ProviderHit {
  readonly url: string;
  readonly title: string;
  /** HTML-ish description; tags and entities are removed here. */
  readonly description?: string | undefined;
  readonly siteName?: string | undefined;
  /** The provider's language tag for the page. */
  readonly lang?: string | undefined;
  /** The provider's date for the page (ISO 8601; a naive one is read as UTC). */
  readonly date?: string | null | undefined;
}

/** Bounds of fields copied from a provider. */
const MAX_URL_CHARS = 2048;
const MAX_TITLE_CHARS = 300;
const MAX_SNIPPET_CHARS = 320;
const MAX_SITE_NAME_CHARS = 100;

/**
 * Turns provider hits (in the provider's rank order) into complete external results, their URLs
 * normalized as local pages' are (`normalizeUrl`: no `utm_` parameters or fragment): skips hits
 * without a usable http(s) URL, duplicates by normalized URL, hits outside the requested sites,
 * not of a requested filetype (by the URL's extension: a provider may not know `filetype:`), in
 * another language than the requested one (as the provider says, or, when it says none, as the
 * script of the title and snippet shows: see {@link mayBeInLanguage}), dated before the
 * requested time range, or whose title or snippet shows an excluded word or lacks an `intitle:`
 * one (see {@link shownToMismatch}); scores decrease with rank and stay in (0, 1).
 */
export function toSearchResults(
  hits: readonly ProviderHit[],
  request: FallbackRequest,
  now: Date = new Date(),
): SearchResult[] {
  const sites = effectiveSites(request) ?? [];
  const filetypes = new Set<Filetype>(request.query.filetypes.flatMap((value) => FILETYPE_FAMILY[value]));
  const wantedLang = normalizeLang(request.lang);
  const rangeMs = request.timeRange === undefined ? null : (TIME_RANGES_MS[request.timeRange] ?? null);
  const oldestMs = rangeMs === null ? null : now.getTime() - rangeMs;
  const seen = new Set<string>();
  const results: SearchResult[] = [];
  for (const hit of hits) {
    if (results.length >= request.count) break;
    const url = httpUrl(hit.url);
    if (url === null) continue;
    const key = normalizeUrl(url);
    if (seen.has(key)) continue;
    const domain = hostOf(url);
    if (sites.length > 0 && !sites.some((site) => urlMatchesSite(url, site))) continue;
    if (filetypes.size > 0 && !filetypes.has(filetypeFromUrl(url) ?? 'html')) continue;
    const hitLang = normalizeLang(hit.lang);
    if (wantedLang !== null && hitLang !== null && hitLang !== wantedLang) continue;
    const publishedAt = providerDate(hit.date, now);
    if (oldestMs !== null && publishedAt !== null && Date.parse(publishedAt) < oldestMs) continue;
    const title = htmlToText(hit.title, MAX_TITLE_CHARS);
    const snippet = htmlToText(hit.description ?? '', MAX_SNIPPET_CHARS);
    if (wantedLang !== null && hitLang === null && !mayBeInLanguage(`${title} ${snippet}`, wantedLang)) continue;
    if (request.query.root !== null && shownToMismatch(request.query.root, { title, snippet })) continue;
    seen.add(key);
    const siteName = hit.siteName ? htmlToText(hit.siteName, MAX_SITE_NAME_CHARS) : '';
    results.push({
      id: '',
      // As local results' URLs are: no tracking parameters or fragment, parameters sorted.
      url: key,
      title: title || domain,
      snippet,
      domain,
      ...(siteName ? { site_name: siteName } : {}),
      lang: hitLang ?? wantedLang ?? UNKNOWN_LANG,
      score: rankScore(results.length),
      source: 'external',
      has_llms_txt: false,
      published_at: publishedAt,
      crawled_at: publishedAt ?? toIsoUtc(now),
    });
  }
  return results;
}

/** 1/2, 1/3, 1/4, ...: positive, below 1, strictly decreasing with rank. */
function rankScore(rank: number): number {
  return 1 / (rank + 2);
}

function httpUrl(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_URL_CHARS) return null;
  try {
    const url = new URL(trimmed);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return null;
    if (url.username !== '' || url.password !== '') return null;
    return url.href;
  } catch {
    return null;
  }
}

function providerDate(value: string | null | undefined, now: Date): string | null {
  if (!value) return null;
  const trimmed = value.trim();
  // Both providers send naive ISO times (`2024-05-01T10:00:00`); JavaScript would read those as local time.
  const naiveIso = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(trimmed);
  return parseTimestamp(naiveIso ? `${trimmed}Z` : trimmed, now);
}
