/**
 * Meilisearch responses (plain or federated search, as documented) to `IndexSearchResult`. Pure.
 * Scores: `_federation.weightedRankingScore` for federated hits (the score that ordered them),
 * else `_rankingScore` (0 to 1); both are made strictly positive. Snippets: the cropped body from
 * `_formatted`, bounded to the API's 160 to 320 characters around the query terms by
 * `@quarry/text`'s `makeSnippet`; the stored start of the body when no crop came back.
 */
import type { IndexHit, IndexSearchResult } from '@quarry/core';
import { makeSnippet } from '@quarry/text';
import { BODY_FIELDS, TITLE_FIELDS } from './fields.js';

/** The smallest score a hit gets: the API promises positive scores, and ties keep Meilisearch's order. */
export const MIN_SCORE = 1e-6;

/** The parts of a Meilisearch search response this module reads. */
export interface MeiliResponseLike {
  readonly hits: readonly Record<string, unknown>[];
  readonly estimatedTotalHits?: number;
  readonly totalHits?: number;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function firstText(record: Record<string, unknown> | undefined, fields: readonly string[]): string | null {
  if (record === undefined) return null;
  for (const field of fields) {
    const value = record[field];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** The hit's score: the federation's weighted score, else the ranking score; always positive and finite. */
export function hitScore(hit: Record<string, unknown>): number {
  const federation = asRecord(hit._federation);
  const weighted = federation?.weightedRankingScore;
  const raw = typeof weighted === 'number' ? weighted : hit._rankingScore;
  return typeof raw === 'number' && Number.isFinite(raw) && raw > MIN_SCORE ? raw : MIN_SCORE;
}

/** Maps one hit; `snippetTerms` are the positive clause texts the snippet is centred on. */
export function toIndexHit(hit: Record<string, unknown>, snippetTerms: readonly string[]): IndexHit {
  const cropped = firstText(asRecord(hit._formatted), BODY_FIELDS);
  const source = cropped ?? text(hit.lead);
  return {
    id: text(hit.id),
    url: text(hit.url),
    title: firstText(hit, TITLE_FIELDS) ?? '',
    snippet: makeSnippet(
      source,
      snippetTerms.map((t) => ({ text: t })),
    ),
    domain: text(hit.domain),
    site_name: textOrNull(hit.site_name),
    lang: text(hit.lang) || 'und',
    score: hitScore(hit),
    has_llms_txt: hit.has_llms_txt === true,
    published_at: textOrNull(hit.published_at),
    crawled_at: text(hit.crawled_at),
    filetype: text(hit.filetype) || 'html',
    ...(typeof hit.simhash === 'string' && hit.simhash !== '' ? { simhash: hit.simhash } : {}),
  };
}

/** What {@link toSearchResult} needs to know about the request. */
export interface ResultContext {
  readonly offset: number;
  /** Positive clause texts the snippets are centred on. */
  readonly snippetTerms: readonly string[];
  /** The index's `pagination.maxTotalHits`: a plain search's count stops there. */
  readonly maxTotalHits: number;
}

/**
 * Maps a response. `total` is `estimatedTotalHits`: for a keyword search Meilisearch resolves the
 * whole candidate set before ranking, and reports its size (a plain search caps it at
 * `maxTotalHits`; a federated search reports the union of its queries' candidates). So it is exact
 * below the cap and `totalIsEstimate` is true only at or above it. An exhaustive `totalHits` is
 * exact. Never less than the hits up to this page when it has hits. Duplicate ids (which
 * federation already merges) are dropped defensively.
 */
export function toSearchResult(response: MeiliResponseLike, context: ResultContext): IndexSearchResult {
  const { offset, snippetTerms, maxTotalHits } = context;
  const seen = new Set<string>();
  const hits: IndexHit[] = [];
  for (const raw of response.hits) {
    const hit = toIndexHit(raw, snippetTerms);
    if (hit.id === '' || seen.has(hit.id)) continue;
    seen.add(hit.id);
    hits.push(hit);
  }
  const exact = typeof response.totalHits === 'number';
  const reported = exact ? response.totalHits : response.estimatedTotalHits;
  const counted = typeof reported === 'number' && Number.isFinite(reported) ? Math.max(0, Math.floor(reported)) : 0;
  // A page past the end says nothing about the count; a page with hits proves at least this many.
  const total = hits.length > 0 ? Math.max(counted, offset + hits.length) : counted;
  return { total, totalIsEstimate: !exact && counted >= maxTotalHits, hits };
}

/** The result of a search that cannot match anything. */
export const EMPTY_RESULT: IndexSearchResult = { total: 0, totalIsEstimate: false, hits: [] };
