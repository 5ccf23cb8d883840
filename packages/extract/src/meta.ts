import { squash } from './text.js';

/** What a page's `<meta>` tags and JSON-LD blocks say, read once before Readability edits the DOM. */
export interface PageMeta {
  /** First non-empty `content` of a meta tag by lower-case name, property, itemprop or http-equiv. */
  meta: ReadonlyMap<string, string>;
  /**
   * Every `citation_author` in the page's order (Highwire Press tags, which Google Scholar reads: one
   * tag per author of a paper, often `Last, First`).
   */
  citationAuthors: readonly string[];
  jsonLd: JsonLdFacts;
}

/** The JSON-LD fields extraction uses; each null when absent. */
export interface JsonLdFacts {
  headline: string | null;
  author: string | null;
  datePublished: string | null;
  publisherName: string | null;
  websiteName: string | null;
  description: string | null;
  /** Whether an object is typed as an article or blog post (not a forum post, product or page). */
  declaresArticle: boolean;
  /** How many objects are products on sale (see {@link isOfferedProduct}): one on a product's own page. */
  products: number;
  /**
   * The `description` of the one product on sale, as given (it may hold HTML; one written
   * percent-encoded, without a space, is decoded); null when there is not exactly one.
   */
  productDescription: string | null;
}

const PRODUCT_TYPE = /^(?:Product|ProductGroup)$/;
const SALE_KEYS = ['offers', 'hasVariant', 'sku', 'mpn', 'gtin', 'gtin8', 'gtin12', 'gtin13', 'gtin14'];
/** JSON-LD blocks bigger than this are skipped rather than parsed. */
const MAX_JSON_LD_CHARS = 1_000_000;
const ARTICLE_TYPE = /Article|Posting|Report|Blog|Review|Recipe|Story/i;
/** schema.org's types of a page as a whole (WebPage, ItemPage, CollectionPage, FAQPage...) and WebSite. */
const PAGE_TYPE = /^(?:\w*Page|WebSite)$/;
/** The schema.org types that say "this page is one article" (a forum thread or product is not). */
const STRICT_ARTICLE_TYPE = /^(?:\w*NewsArticle|Article|BlogPosting|TechArticle|ScholarlyArticle|Report)$/;

/** Reads the meta tags and JSON-LD blocks (the elements {@link readDomFacts} collected). */
export function readPageMeta(metas: readonly Element[], jsonLdScripts: readonly Element[]): PageMeta {
  const meta = new Map<string, string>();
  const citationAuthors: string[] = [];
  for (const el of metas) {
    const content = squash(el.getAttribute('content'));
    if (content === '') continue;
    if (el.getAttribute('name')?.trim().toLowerCase() === 'citation_author') citationAuthors.push(content);
    for (const attr of ['property', 'name', 'itemprop', 'http-equiv']) {
      const key = el.getAttribute(attr)?.trim().toLowerCase();
      if (key && !meta.has(key)) meta.set(key, content);
    }
  }
  const objects: Record<string, unknown>[] = [];
  for (const script of jsonLdScripts) {
    const text = script.textContent ?? '';
    if (text.length > MAX_JSON_LD_CHARS) continue;
    try {
      collectObjects(JSON.parse(text.replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, '')), objects, 0);
    } catch {
      // Broken JSON-LD is common and carries nothing we could trust.
    }
  }
  return { meta, citationAuthors, jsonLd: jsonLdFacts(objects) };
}

/** How many of a paper's authors are named; a byline of more would not be read as names. */
const MAX_CITATION_AUTHORS = 10;

/**
 * A paper's authors as a byline (`Emery D. Berger, Jane Doe`): each `Last, First` turned around,
 * the first {@link MAX_CITATION_AUTHORS}; null when there are none.
 */
export function citationByline(authors: readonly string[]): string | null {
  if (authors.length === 0) return null;
  const names = authors.slice(0, MAX_CITATION_AUTHORS).map((name) => {
    const parts = name.split(/\s*,\s*/);
    return parts.length === 2 && parts[0] && parts[1] ? `${parts[1]} ${parts[0]}` : name;
  });
  return names.join(', ');
}

/**
 * A meta name that says "published" in a vendor's own words: `published`, `publish_date`,
 * `og:publish_date`, `published-date`, `PublishedDate`, `published_at`, `cXenseParse:publishtime`,
 * `shareaholic:article_published_time`, `article:first_published_time`, `w-published-date`.
 * `publisher` names who published, not when.
 */
const PUBLISHED_NAME =
  /(?:^|[:._-])(?:article[:._-]?)?(?:first[:._-]?)?publish(?:ed)?(?:[:._-]?(?:date|time|datetime|at|on))?$/;
/** ...unless the name says it is another event's: `cdc:last_published`, `unpublish_date`. */
const OTHER_EVENT_NAME = /last|modif|updat|expir|revis|unpub|end/;

/**
 * The contents of meta tags named as a publication's date in a vendor's words (see
 * {@link PUBLISHED_NAME}), in the page's order; what they hold may not be a date at all
 * (`auto-publish` `timely`, `publish_time` `17:00`).
 */
export function publishedMetaValues(meta: ReadonlyMap<string, string>): string[] {
  const values: string[] = [];
  for (const [name, content] of meta) {
    if (PUBLISHED_NAME.test(name) && !OTHER_EVENT_NAME.test(name)) values.push(content);
  }
  return values;
}

/** A Twitter card's label for the name beside it (Yoast SEO writes `Written by`). */
const WRITTEN_BY_LABEL = /^(?:written by|posted by|by|authors?)$/i;

/**
 * The name a Twitter card's label/data pair gives as the writer (`twitter:label1` `Written by`,
 * `twitter:data1` `Jane Doe`: WordPress with Yoast SEO, and others, for link previews); null when no
 * label says so (`Reading time`, `Est. reading time` label other data).
 */
export function twitterWrittenBy(meta: ReadonlyMap<string, string>): string | null {
  for (let n = 1; n <= 4; n++) {
    const label = meta.get(`twitter:label${n}`);
    if (label !== undefined && WRITTEN_BY_LABEL.test(label.trim())) return meta.get(`twitter:data${n}`) ?? null;
  }
  return null;
}

function collectObjects(value: unknown, out: Record<string, unknown>[], depth: number): void {
  if (depth > 4 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collectObjects(item, out, depth + 1);
    return;
  }
  const obj = value as Record<string, unknown>;
  out.push(obj);
  if (Array.isArray(obj['@graph'])) collectObjects(obj['@graph'], out, depth + 1);
  // A WebPage's `mainEntity` is what the page is about (XenForo's thread: its
  // DiscussionForumPosting, with the thread's own headline, author and date).
  if (obj.mainEntity !== null && typeof obj.mainEntity === 'object') collectObjects(obj.mainEntity, out, depth + 1);
}

function typesOf(obj: Record<string, unknown>): string[] {
  const type = obj['@type'];
  return (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string');
}

function jsonLdFacts(objects: Record<string, unknown>[]): JsonLdFacts {
  const article =
    objects.find((o) => typesOf(o).some((t) => ARTICLE_TYPE.test(t))) ??
    objects.find((o) => typeof o.headline === 'string');
  const website = objects.find((o) => typesOf(o).includes('WebSite'));
  const offered = objects.filter(isOfferedProduct);
  // A WebPage's (or ItemPage's...) datePublished is when its CMS record was made: content
  // management plugins give one to every page, products and services too.
  const dated =
    article?.datePublished !== undefined
      ? article
      : objects.find((o) => o.datePublished !== undefined && !typesOf(o).some((t) => PAGE_TYPE.test(t)));
  return {
    headline: str(article?.headline) ?? (article ? str(article.name) : null),
    author: article ? namesOf(article.author) : null,
    datePublished: str(dated?.datePublished),
    publisherName: article ? namesOf(article.publisher) : null,
    websiteName: website ? str(website.name) : null,
    description: str(article?.description),
    declaresArticle: objects.some((o) => typesOf(o).some((t) => STRICT_ARTICLE_TYPE.test(t))),
    products: offered.length,
    productDescription: offered.length === 1 ? declaredDescription(offered[0]!.description) : null,
  };
}

/** A description as written, a percent-encoded one (`An%20elegant%20sofa`) decoded; null if none. */
function declaredDescription(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  if (/\s/.test(value) || !/%20/.test(value)) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A product on sale: typed `Product` or `ProductGroup`, with offers, variants or an identifier a
 * shop gives the things it sells (SKU, MPN, GTIN). Sites that only want review stars in search
 * results mark up a `Product` with a name and reviews.
 */
function isOfferedProduct(obj: Record<string, unknown>): boolean {
  return typesOf(obj).some((t) => PRODUCT_TYPE.test(t)) && SALE_KEYS.some((key) => obj[key] !== undefined);
}

function str(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = squash(value);
  return text === '' ? null : text;
}

/** `"Jane"`, `{ name: "Jane" }` or an array of those → `"Jane"` / `"Jane, Joe"`. */
function namesOf(value: unknown): string | null {
  const list = Array.isArray(value) ? value : [value];
  const names = list
    .map((item) =>
      typeof item === 'string'
        ? str(item)
        : item && typeof item === 'object'
          ? str((item as Record<string, unknown>).name)
          : null,
    )
    .filter((name): name is string => name !== null);
  return names.length > 0 ? [...new Set(names)].join(', ') : null;
}
