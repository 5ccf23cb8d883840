/** One search result (spec 2.2). */
export interface SearchResult {
  /** Page id for `content()`; empty for external results, which have no stored text. */
  id: string;
  url: string;
  title: string;
  /** Plain text around the query words. */
  snippet: string;
  domain: string;
  /** The site's display name; absent when unknown (fall back to `domain`). */
  site_name?: string;
  /** Primary language subtag (`en`, `zh`), `und` when unknown. */
  lang: string;
  /** Higher is better; comparable within one response. */
  score: number;
  source: 'local' | 'external';
  has_llms_txt: boolean;
  /** ISO 8601 UTC, null when unknown. */
  published_at: string | null;
  /** ISO 8601 UTC. */
  crawled_at: string;
}

/** The search response (spec 2.1). */
export interface SearchResponse {
  total: number;
  took_ms: number;
  results: SearchResult[];
}

/** Options of `QuarryClient.search` (the query parameters of `GET /api/v1/search`). */
export interface SearchOptions {
  /** 1 to 100. @defaultValue 10 */
  limit?: number;
  /** 0 to 990. @defaultValue 0 */
  offset?: number;
  /** Only pages in this language (`en`, `zh-CN`). */
  lang?: string;
  /** Rank this language a little higher without hiding others. */
  lang_priority?: string;
  /** Only this host and its subdomains. */
  site?: string;
  /** Only pages crawled within this period. */
  time_range?: '1d' | '7d' | '30d' | '1y' | 'all';
  /** `all`: every word must occur (server default). `any`: words optional, more matches rank first. */
  match?: 'all' | 'any';
  signal?: AbortSignal;
}

/** A part of a page: `body_text.slice(start, end) === text`. */
export interface Passage {
  text: string;
  /** Offset in `body_text` (UTF-16 code units, as JavaScript strings index). */
  start: number;
  end: number;
  /** BM25 among the page's passages; 0 when no query word occurs. */
  score: number;
  /** Headings above the passage, outermost first. */
  heading_path: string[];
}

/** The content response (spec 2.3) and the extras a request asked for. */
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
  /** Present with `format: 'markdown'`. */
  body_markdown?: string;
  /** Present with `query`: the most relevant passages within `max_tokens`, in page order. */
  passages?: Passage[];
}

/** Where a portion sits in the whole page (in the format read): `whole.slice(start, end)` is it. */
export interface PortionPlace {
  start: number;
  /** Offset just past the portion: the `start` to read on from; equals `length` at the page's end. */
  end: number;
  /** Characters of the whole page in the format read. */
  length: number;
  /** Tokens of the portion (o200k_base). */
  tokens: number;
}

/**
 * A portion of a page (`QuarryClient.portion`): the content response's fields, but that the format
 * read holds only the portion: `body_text`, or `body_markdown` (then without `body_text`).
 */
export interface PortionResponse extends Omit<ContentResponse, 'body_text' | 'body_markdown' | 'passages'> {
  body_text?: string;
  body_markdown?: string;
  portion: PortionPlace;
}

/** Options of `QuarryClient.portion`. */
export interface PortionOptions {
  /** Which text to read: `markdown` reads `body_markdown`. @defaultValue 'text' */
  format?: 'text' | 'markdown';
  /** Offset to read from: 0, then the `portion.end` of the portion before. @defaultValue 0 */
  start?: number;
  /** Token budget of the portion (o200k_base), 16 to 32,000. @defaultValue 1000 (server) */
  max_tokens?: number;
  signal?: AbortSignal;
}

/** Options of `QuarryClient.content`. */
export interface ContentOptions {
  /** `markdown` adds `body_markdown`. @defaultValue 'text' */
  format?: 'text' | 'markdown';
  /** Adds `passages`: the parts of the page most relevant to this question. */
  query?: string;
  /** Token budget of the passages together (o200k_base), 16 to 32,000. @defaultValue 1000 (server) */
  max_tokens?: number;
  signal?: AbortSignal;
}
