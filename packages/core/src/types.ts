/**
 * File types the index records; `filetype:` accepts pdf, doc, ppt and xls, each matching its
 * family: the OOXML (docx, pptx, xlsx) and OpenDocument (odt, odp, ods) formats of the same kind.
 * Pages are html, txt (plain text) or md (markdown files).
 */
export const FILETYPES = [
  'html',
  'pdf',
  'doc',
  'docx',
  'ppt',
  'pptx',
  'xls',
  'xlsx',
  'txt',
  'odt',
  'odp',
  'ods',
  'md',
] as const;
export type Filetype = (typeof FILETYPES)[number];

/** Values accepted by the `filetype:` operator (spec 4.1.1). */
export const FILETYPE_OPERATOR_VALUES = ['pdf', 'doc', 'ppt', 'xls'] as const;
export type FiletypeOperatorValue = (typeof FILETYPE_OPERATOR_VALUES)[number];

/**
 * Which stored filetypes an operator value matches: `doc` any word-processing document (doc, docx,
 * odt), `ppt` any presentation, `xls` any spreadsheet.
 */
export const FILETYPE_FAMILY: Readonly<Record<FiletypeOperatorValue, readonly Filetype[]>> = {
  pdf: ['pdf'],
  doc: ['doc', 'docx', 'odt'],
  ppt: ['ppt', 'pptx', 'odp'],
  xls: ['xls', 'xlsx', 'ods'],
};

/** The `filetype:` family a stored filetype belongs to (`odt` → `doc`); null for a page's. */
export function filetypeFamily(filetype: string): FiletypeOperatorValue | null {
  return (
    FILETYPE_OPERATOR_VALUES.find((value) => (FILETYPE_FAMILY[value] as readonly string[]).includes(filetype)) ?? null
  );
}

/** Path extensions that name a filetype. */
const EXTENSIONS: Readonly<Record<string, Filetype>> = {
  pdf: 'pdf',
  doc: 'doc',
  docx: 'docx',
  ppt: 'ppt',
  pptx: 'pptx',
  xls: 'xls',
  xlsx: 'xlsx',
  odt: 'odt',
  odp: 'odp',
  ods: 'ods',
  txt: 'txt',
  md: 'md',
  markdown: 'md',
  htm: 'html',
  html: 'html',
  xhtml: 'html',
};

/**
 * The filetype the URL's path extension names (query and fragment ignored), or null when the
 * path has no known extension.
 *
 * @example filetypeFromUrl('https://example.com/Report.PDF?download=1') // 'pdf'
 */
export function filetypeFromUrl(url: string): Filetype | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const match = /\.([a-z0-9]{1,5})$/i.exec(path);
  return match?.[1] ? (EXTENSIONS[match[1].toLowerCase()] ?? null) : null;
}

/**
 * One indexed page: what the crawler or `quarry import` produces, what the blob store keeps in full
 * and what the index keeps for search. Times are ISO 8601 UTC strings (`2026-11-22T08:15:00Z`).
 */
export interface PageDocument {
  /** Derived from the normalized URL with {@link pageIdForUrl}; stable across recrawls. */
  id: string;
  url: string;
  title: string;
  body_text: string;
  /** Primary language subtag, lower case (`en`, `zh`), `und` when unknown. */
  lang: string;
  author: string | null;
  published_at: string | null;
  crawled_at: string;
  site_name: string | null;
  has_llms_txt: boolean;
  filetype: Filetype;
  /** Host of the URL, lower case, without `www.` stripping. */
  domain: string;
  word_count: number;
  /**
   * The main content as markdown (headings, lists, links, code, tables), kept in the blob store for
   * `?format=markdown` and passage chunking; never indexed. Absent for documents imported as text.
   */
  body_markdown?: string;
  /**
   * Quality prior in (0, 1]: 1 for an article, lower for a page where extraction found no article
   * (home pages, tag lists, link lists). Index backends rank such pages below otherwise equal ones,
   * before the result page is cut. Absent means 1.
   */
  quality?: number;
  /**
   * 64-bit SimHash of the normalized body text as 16 lower-case hex digits; results whose hashes
   * differ in at most a few bits are near-copies and are collapsed at query time. Absent: never
   * collapsed.
   */
  simhash?: string;
}

/** The content endpoint's response: exactly the spec's fields (spec 2.3). */
export interface ContentResponse {
  id: string;
  url: string;
  title: string;
  body_text: string;
  author: string | null;
  published_at: string | null;
  lang: string;
  word_count: number;
  crawled_at: string;
  has_llms_txt: boolean;
}

/** Exactly the spec 2.3 fields of a stored page; internal columns never leave the server. */
export function toContentResponse(doc: PageDocument): ContentResponse {
  return {
    id: doc.id,
    url: doc.url,
    title: doc.title,
    body_text: doc.body_text,
    author: doc.author,
    published_at: doc.published_at,
    lang: doc.lang,
    word_count: doc.word_count,
    crawled_at: doc.crawled_at,
    has_llms_txt: doc.has_llms_txt,
  };
}

/** One search result (spec 2.2). `site_name` is omitted when unknown. */
export interface SearchResult {
  id: string;
  url: string;
  title: string;
  snippet: string;
  domain: string;
  site_name?: string;
  lang: string;
  score: number;
  source: 'local' | 'external';
  has_llms_txt: boolean;
  published_at: string | null;
  crawled_at: string;
}

/** The search endpoint's response (spec 2.1). */
export interface SearchResponse {
  total: number;
  took_ms: number;
  results: SearchResult[];
}

/**
 * A host the crawler is backing off from (a retryable failure: 429, 503, a timeout): why (the
 * failure's code: `http_429`, `http_503`, `timeout`, `robots_unreachable`...) and until when, at
 * the latest, epoch milliseconds. The crawler's progress line and the dashboard show them.
 */
export interface HostBackoff {
  readonly host: string;
  readonly reason: string;
  readonly untilMs: number;
}
