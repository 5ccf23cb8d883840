import { type PageDocument, pageSiteLabels } from '@quarry/core';
import { indexTokens, joinedTokens } from '@quarry/text';
import { Field, Float32, Float64, Int32, List, Schema, Utf8 } from 'apache-arrow';

/**
 * The table's columns. Display fields are stored as given; the `t_*` columns hold the analysed
 * tokens (`@quarry/text`'s `indexTokens`: folded, CJK as character pairs, stemmed by the page's language) joined by
 * spaces, and the engine's full-text indexes split them on whitespace only, so that Quarry, not the
 * engine, decides what a word is (the engine's own analysers drop stop words and stem every language
 * as English).
 *
 * Searches read one column: `t_text` holds the title (repeated, which weights it in BM25), the site
 * name and the body, separated by {@link SECTION_BREAK} so that no phrase spans two of them. One
 * column means one posting list a word, and the engine answers a single match query of several
 * words with block-max WAND, where a boolean query of per-column queries scores every match.
 */
export const COLUMNS = {
  id: 'id',
  /** What a hit shows of the page ({@link StoredHit}), as JSON: one column read a hit. */
  hit: 'hit',
  /** The title alone, for `intitle:`. */
  title: 't_title',
  /** Title (repeated), site name and body: what a search reads. */
  text: 't_text',
  /**
   * `t_text` for the pages of one sample bucket (bucket 0), empty for the others: its full-text index
   * counts a query's matches in a 1/{@link SAMPLE_BUCKETS} sample to estimate large totals.
   */
  sample: 't_sample',
  /** Tokens for the engine's boolean queries: {@link META_ALL} (every page) and the language. */
  meta: 'meta',
  lang: 'lang',
  filetype: 'filetype',
  crawledMs: 'crawled_ms',
  /** The page's host and every parent domain, for `site:` with subdomains through a label-list index. */
  sites: 'sites',
  /** When the row was written (ms, increasing): rows written after the last fold are not indexed yet. */
  seq: 'seq',
  /** 0 to {@link SAMPLE_BUCKETS} − 1 from a hash of the id: a fixed random sample for estimating totals. */
  bucket: 'bucket',
} as const;

/** Separates the title, site name and body in `t_text` (never a token of analysed text). */
export const SECTION_BREAK = '¶';

/** A token every page's meta column has. */
export const META_ALL = '_all';

/** The meta token of a language. */
export function langMetaToken(lang: string): string {
  return `_l_${lang}`;
}

/**
 * Quality buckets: the score of a page whose quality prior (`PageDocument.quality`) is below 1 is
 * multiplied by the factor of the first bucket it falls under.
 */
export const QUALITY_BUCKETS: readonly { readonly below: number; readonly factor: number }[] = [
  { below: 0.375, factor: 0.25 },
  { below: 0.625, factor: 0.5 },
  { below: 0.875, factor: 0.75 },
];

/** The full-text-indexed columns. */
export const FTS_COLUMNS = [COLUMNS.title, COLUMNS.text, COLUMNS.sample, COLUMNS.meta] as const;

/**
 * The engine's column metadata for text stored as it is. The long text columns (the analysed text
 * and the hit with its snippet source, about 15 KB a page) are not compressed: compressing them took 40% of the
 * engine's CPU time per written page, and every fold pays it again for the whole table, because
 * compaction rewrites each file under the engine's target size (a million rows). They take about
 * 50% more room on disk (data files 0.81 → 1.4 GB at 100,000 pages).
 */
const UNCOMPRESSED = new Map([['lance-encoding:compression', 'none']]);

/** Arrow schema of the `pages` table. */
export function pagesSchema(): Schema {
  const text = (name: string, nullable = false, metadata?: Map<string, string>) =>
    new Field(name, new Utf8(), nullable, metadata);
  return new Schema([
    text(COLUMNS.id),
    text(COLUMNS.lang),
    new Field(COLUMNS.crawledMs, new Float64(), false),
    new Field(COLUMNS.seq, new Float64(), false),
    new Field(COLUMNS.bucket, new Int32(), false),
    text(COLUMNS.filetype),
    new Field('quality', new Float32(), false),
    text(COLUMNS.hit, false, UNCOMPRESSED),
    new Field(COLUMNS.sites, new List(new Field('item', new Utf8(), true)), false),
    text(COLUMNS.title),
    text(COLUMNS.text, false, UNCOMPRESSED),
    text(COLUMNS.sample, false, UNCOMPRESSED),
    text(COLUMNS.meta),
  ]);
}

/**
 * What a hit shows of a page, with the start of its body for snippets. Stored as one JSON column:
 * the engine reads a row's columns one by one, and reading a page of hits as eleven columns took
 * twice as long as reading one column of about the same bytes (5.7 against 3.0 ms for 20 rows at
 * 100,000 pages).
 */
export interface StoredHit {
  id: string;
  url: string;
  title: string;
  domain: string;
  site_name: string | null;
  lang: string;
  published_at: string | null;
  crawled_at: string;
  filetype: string;
  has_llms_txt: boolean;
  simhash: string | null;
  snippet_src: string;
  /** The body's length: longer than `snippet_src` when that was cut (absent in rows written before 2026-11-27). */
  body_chars?: number;
}

/** One stored row. */
export interface PageRow {
  id: string;
  lang: string;
  crawled_ms: number;
  /** Set when the row is written. */
  seq: number;
  bucket: number;
  filetype: string;
  quality: number;
  /** The page's {@link StoredHit} as JSON. */
  hit: string;
  sites: string[];
  t_title: string;
  t_text: string;
  t_sample: string;
  meta: string;
}

/** Limits of what one row keeps. */
export interface RowLimits {
  /** Body characters kept for snippets (the full text lives in the blob store). */
  readonly snippetSourceChars: number;
  /** Body characters analysed and indexed; longer bodies are indexed up to this. */
  readonly maxIndexedChars: number;
  /** Times the title is written into `t_text` (its BM25 weight relative to the body). */
  readonly titleRepeat: number;
}

/** The row of a page. */
export function toRow(doc: PageDocument, limits: RowLimits): PageRow {
  const lang = doc.lang || 'und';
  const quality = Number.isFinite(doc.quality) ? Math.min(1, Math.max(0, doc.quality!)) : 1;
  const body =
    doc.body_text.length > limits.maxIndexedChars ? doc.body_text.slice(0, limits.maxIndexedChars) : doc.body_text;
  const meta = [META_ALL, langMetaToken(lang)];
  const crawledMs = Date.parse(doc.crawled_at);
  // Each hyphenated word's joined spelling after the text's own tokens (see joinedTokens).
  const title = [...indexTokens(doc.title, lang), ...joinedTokens(doc.title, lang)].join(' ');
  const siteName = doc.site_name ? indexTokens(doc.site_name, lang).join(' ') : '';
  const bodyTokens = [...indexTokens(body, lang), ...joinedTokens(body, lang)];
  const text = searchText(title, siteName, bodyTokens.join(' '), limits.titleRepeat);
  const bucket = sampleBucket(doc.id);
  const hit: StoredHit = {
    id: doc.id,
    url: doc.url,
    title: doc.title,
    domain: doc.domain,
    site_name: doc.site_name,
    lang,
    published_at: doc.published_at,
    crawled_at: doc.crawled_at,
    filetype: doc.filetype,
    has_llms_txt: doc.has_llms_txt,
    simhash: doc.simhash ?? null,
    snippet_src: doc.body_text.slice(0, limits.snippetSourceChars),
    body_chars: doc.body_text.length,
  };
  return {
    id: doc.id,
    lang,
    crawled_ms: Number.isFinite(crawledMs) ? crawledMs : 0,
    seq: 0,
    bucket,
    filetype: doc.filetype,
    quality,
    hit: JSON.stringify(hit),
    sites: pageSiteLabels(doc),
    t_title: title,
    t_text: text,
    t_sample: bucket === 0 ? text : '',
    meta: meta.join(' '),
  };
}

/** `t_text`: the title `repeat` times, the site name, the body, each section closed by a break. */
function searchText(title: string, siteName: string, body: string, repeat: number): string {
  const sections = Array.from({ length: Math.max(1, repeat) }, () => title);
  if (siteName !== '') sections.push(siteName);
  sections.push(body);
  return sections.filter((section) => section !== '').join(` ${SECTION_BREAK} `);
}

/** How many buckets rows are spread over; one of them is the sample that estimates large totals. */
export const SAMPLE_BUCKETS = 64;

/** FNV-1a of the id, modulo {@link SAMPLE_BUCKETS}: stable, and spread evenly whatever the ids look like. */
export function sampleBucket(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % SAMPLE_BUCKETS;
}
