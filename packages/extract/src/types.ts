import type { DomImpl } from './dom.js';
import type { MetaRefresh, RobotsDirectives } from './links.js';

/** Options of {@link extractHtml}. */
export interface ExtractHtmlOptions {
  /** The page's final URL: base for relative links, source of URL dates. */
  url: string;
  /** The HTTP Content-Language header, a language hint weaker than `<html lang>`. */
  contentLanguage?: string | null;
  /**
   * The crawler's own bot name (its user agent's product token): a `<meta name>` of that name is
   * read like `<meta name="robots">`.
   */
  robotsAgent?: string;
  /**
   * Most links returned.
   * @defaultValue 1000
   */
  maxLinks?: number;
  /**
   * DOM implementation; `jsdom` is the reference, `linkedom` the fast default (equal quality on
   * the golden tests). A linkedom failure is retried with jsdom.
   * @defaultValue 'linkedom'
   */
  dom?: DomImpl;
  /**
   * HTML beyond this many characters is ignored (bounds parse time and memory).
   * @defaultValue 5_000_000
   */
  maxHtmlChars?: number;
  /**
   * When Readability finds no article or one shorter than this, the visible text of the body
   * (minus nav, header, footer, aside, forms) is used instead when it is not empty.
   * @defaultValue 250
   */
  minArticleChars?: number;
  /**
   * Whether to convert the main content to Markdown (`body_markdown`; about a fifth of the
   * extraction time). When false, `body_markdown` is ''.
   * @defaultValue true
   */
  markdown?: boolean;
  /**
   * Read the page plainly: no Readability and none of the readings of page chrome, forums,
   * products and pages of items; the main content is the body's visible text minus nav, header,
   * footer, aside, forms and menus (its markdown that text's paragraphs). Title, author, date,
   * language, links and robots are read as always. Linear in the page's size: what the crawler
   * falls back to when a page's full extraction runs past its time or memory.
   * @defaultValue false
   */
  plain?: boolean;
}

/** The defaults of {@link ExtractHtmlOptions}, in one place. */
export const EXTRACT_DEFAULTS = {
  maxLinks: 1000,
  dom: 'linkedom',
  maxHtmlChars: 5_000_000,
  minArticleChars: 250,
  markdown: true,
  plain: false,
} as const satisfies Required<Omit<ExtractHtmlOptions, 'url' | 'contentLanguage' | 'robotsAgent'>>;

/** What {@link extractHtml} finds in a page: the metadata of a PageDocument plus crawl hints. */
export interface ExtractedPage {
  title: string;
  /** Plain text, paragraphs separated by a blank line. */
  body_text: string;
  /**
   * The same main content as Markdown (headings, paragraphs, lists, links, code blocks, tables,
   * image alt text); '' when the page has no main content.
   */
  body_markdown: string;
  /** A short description (meta description, else the start of the text), at most 300 characters. */
  excerpt: string;
  author: string | null;
  /** ISO 8601 UTC, null when the page gives no date. */
  published_at: string | null;
  /** Primary language subtag, lower case, `und` when unknown. */
  lang: string;
  /** The site's own name; null when the page does not say (the crawler falls back to the domain). */
  site_name: string | null;
  word_count: number;
  /** The quality prior, in (0, 1]: below 1 for a link-list page (see quality-prior.ts). */
  quality: number;
  /** Absolute http(s) links to follow; empty when the page's robots meta says nofollow. */
  links: string[];
  /** The RSS and Atom feeds it declares (`<link rel="alternate">`); empty when it says nofollow. */
  feeds: string[];
  /** Where its `<meta http-equiv="refresh">` sends a reader, and after how long; null when nowhere. */
  refresh: MetaRefresh | null;
  canonicalUrl: string | null;
  robots: RobotsDirectives;
  /** Characters of `body_text`. */
  textLength: number;
  /** Set when the page was read plainly (see ExtractHtmlOptions.plain). */
  plain?: true;
}
