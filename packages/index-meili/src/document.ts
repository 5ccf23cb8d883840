/**
 * `PageDocument` → the document Meilisearch stores. Bounded: the body is cut to
 * `maxIndexedBodyChars` (the full text lives in the blob store), the title word list to
 * {@link MAX_TITLE_WORDS}.
 */
import { type PageDocument, pageSiteLabels } from '@quarry/core';
import { tokenize } from '@quarry/text';
import { localeSuffix } from './fields.js';

/** Distinct title tokens kept for `intitle:` filters; titles rarely have a tenth as many. */
export const MAX_TITLE_WORDS = 128;
/** Characters of the body kept unsearchable as the snippet of last resort. */
export const LEAD_CHARS = 400;

/** A Meilisearch document as Quarry writes it. */
export interface MeiliDocument {
  readonly id: string;
  readonly url: string;
  /** Exactly one of `title`, `title_zh`, `title_ja` (and of the bodies): the locale picks the tokenizer. */
  readonly title?: string;
  readonly title_zh?: string;
  readonly title_ja?: string;
  readonly body?: string;
  readonly body_zh?: string;
  readonly body_ja?: string;
  readonly lead: string;
  readonly site_name: string | null;
  readonly domain: string;
  readonly site_hosts: readonly string[];
  readonly title_words: readonly string[];
  readonly lang: string;
  readonly filetype: string;
  readonly crawled_at: string;
  readonly crawled_at_secs: number | null;
  readonly published_at: string | null;
  readonly published_at_secs: number | null;
  readonly has_llms_txt: boolean;
  /** The page's SimHash (16 hex digits), returned with hits so the API can collapse near-copies. */
  readonly simhash: string | null;
}

type LocalizedField = 'title' | 'title_zh' | 'title_ja' | 'body' | 'body_zh' | 'body_ja';

/** Meilisearch document ids: 1 to 511 ASCII letters, digits, `-` and `_`. */
export function isMeiliDocumentId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,511}$/.test(id);
}

/** The first `maxChars` UTF-16 units, never splitting a surrogate pair. */
export function truncateChars(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const end = /[\uD800-\uDBFF]/.test(text[maxChars - 1] ?? '') ? maxChars - 1 : maxChars;
  return text.slice(0, end);
}

function epochSecs(iso: string | null): number | null {
  if (iso === null) return null;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/** The stored form of a page (see the module comment for its bounds). */
export function toMeiliDocument(page: PageDocument, maxIndexedBodyChars: number): MeiliDocument {
  const suffix = localeSuffix(page.lang);
  const body = truncateChars(page.body_text, maxIndexedBodyChars);
  const localized: Pick<MeiliDocument, LocalizedField> = { [`title${suffix}`]: page.title, [`body${suffix}`]: body };
  return {
    id: page.id,
    url: page.url,
    ...localized,
    lead: truncateChars(body.replace(/\s+/g, ' ').trim(), LEAD_CHARS),
    site_name: page.site_name,
    domain: page.domain,
    site_hosts: pageSiteLabels(page),
    title_words: [...new Set(tokenize(page.title))].slice(0, MAX_TITLE_WORDS),
    lang: page.lang,
    filetype: page.filetype,
    crawled_at: page.crawled_at,
    crawled_at_secs: epochSecs(page.crawled_at),
    published_at: page.published_at,
    published_at_secs: epochSecs(page.published_at),
    has_llms_txt: page.has_llms_txt,
    simhash: page.simhash ?? null,
  };
}
