import { Readability } from '@mozilla/readability';
import { restorePostHeaders } from './forum-posts.js';
import { dropSignInPrompts, dropTemplateExpressions } from './interface-text.js';
import { withCheapChecksFirst } from './readability-checks.js';
import { dropQuotedCopies } from './repeated-text.js';
import { sparePosts } from './spare-posts.js';
import { appendChildrenOf, blockText, squash } from './text.js';

/** What Readability found in a page; each text null when it found nothing. */
export interface ArticleFacts {
  text: string;
  /** The element Readability built around the article (its HTML is the cleaned article), or null. */
  content: Element | null;
  title: string | null;
  byline: string | null;
  excerpt: string | null;
  siteName: string | null;
  publishedTime: string | null;
}

/**
 * The document preparation Readability 0.6 does before its article search (private methods of the
 * pinned version, checked before use): re-run on a restored body so it is what the search saw.
 */
interface ReadabilityPreparation {
  _unwrapNoscriptImages(doc: Document): void;
  _removeScripts(doc: Document): void;
  _prepDocument(): void;
}

/** What Readability stores instead of the body's HTML; setting it back restores the body. */
const LAZY_SNAPSHOT = '<!-- quarry: body restored by re-parsing -->';

/**
 * Runs Readability on a parsed document (which it edits) and returns the article's plain text and
 * metadata. With `reparse` (a fresh parse of the same HTML), the body snapshot Readability takes
 * before its search is deferred: it serializes the whole body to HTML on every page only to parse
 * it back on the few pages whose first search finds too little text (about 6% of extraction time).
 * With `postDates` (a thread's, see forum-posts.ts `postDates`), posts the article took without
 * their headers get them back, and none is dropped as link-dense (see spare-posts.ts).
 */
export function runReadability(
  doc: Document,
  reparse?: () => Document,
  postDates: ReadonlyMap<string, string> | null = null,
): ArticleFacts {
  // Readability's search drops an element whose class or id reads as chrome (`sidebar`, `header`,
  // `menu`...), sparing only <body> and links: on an <html> so classed (mdBook's `sidebar-visible`,
  // Avada's `avada-html-header-position-top`, XenForo's `sidebarNav--active`) it dropped the whole
  // page and searched again with no such rule, taking the sidebar and menus with the article.
  // The root's class and id say how the page is styled, never where its content is.
  doc.documentElement?.removeAttribute('class');
  doc.documentElement?.removeAttribute('id');
  const reader = new Readability<Node>(doc, { serializer: (node) => node });
  withCheapChecksFirst(reader);
  // A thread's posts are its content, however many links they hold (see spare-posts.ts).
  if (postDates !== null) sparePosts(reader);
  const restore = reparse ? deferBodySnapshot(doc, reader as unknown as ReadabilityPreparation, reparse) : null;
  let article: ReturnType<typeof reader.parse>;
  try {
    article = reader.parse();
  } finally {
    restore?.();
  }
  const nonEmpty = (value: string | null | undefined): string | null => {
    const text = squash(value);
    return text === '' ? null : text;
  };
  const content = (article?.content as Element | null | undefined) ?? null;
  if (content) {
    dropQuotedCopies(content);
    dropTemplateExpressions(content);
    dropSignInPrompts(content);
    if (postDates !== null) restorePostHeaders(content, postDates);
  }
  return {
    text: content ? blockText(content) : '',
    content,
    title: nonEmpty(article?.title),
    byline: nonEmpty(article?.byline),
    excerpt: nonEmpty(article?.excerpt),
    siteName: nonEmpty(article?.siteName),
    publishedTime: nonEmpty(article?.publishedTime),
  };
}

/**
 * Makes the body's `innerHTML` return a marker instead of serializing, and setting the marker back
 * rebuild the body from a fresh parse plus Readability's own preparation. Returns the undo, or null
 * (Readability keeps its own snapshot) when this Readability lacks the expected preparation steps.
 */
function deferBodySnapshot(
  doc: Document,
  reader: ReadabilityPreparation,
  reparse: () => Document,
): (() => void) | null {
  const body = doc.body;
  const native = findAccessor(body, 'innerHTML');
  const prepares =
    typeof reader._unwrapNoscriptImages === 'function' &&
    typeof reader._removeScripts === 'function' &&
    typeof reader._prepDocument === 'function';
  if (!body || !native?.set || !prepares) return null;
  const setNative = native.set;
  Object.defineProperty(body, 'innerHTML', {
    configurable: true,
    get: () => LAZY_SNAPSHOT,
    set: (html: string) => {
      if (html !== LAZY_SNAPSHOT) {
        setNative.call(body, html);
        return;
      }
      const fresh = reparse().body;
      body.textContent = '';
      if (fresh) appendChildrenOf(fresh, body);
      reader._unwrapNoscriptImages(doc);
      reader._removeScripts(doc);
      reader._prepDocument();
    },
  });
  return () => {
    Reflect.deleteProperty(body, 'innerHTML');
  };
}

function findAccessor(target: object | null, name: string): PropertyDescriptor | undefined {
  for (let proto = target; proto !== null; proto = Object.getPrototypeOf(proto)) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (descriptor) return descriptor;
  }
  return undefined;
}
