import { blockText } from './text.js';

/** Elements that are page chrome wherever they appear (HTML5 sectioning and ARIA landmarks). */
const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'form', 'menu', 'dialog', 'template']);
const CHROME_ROLES = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
]);
/**
 * Class and id words of blocks that are not the content on any kind of page: comment threads under
 * an article, related or recommended links, share bars, newsletter and cookie prompts, breadcrumbs,
 * sidebars. Whole words only (`comment-list`, `related_posts`), never inside a longer word.
 */
const CHROME_WORDS =
  /(?:^|[\s_-])(?:comments?|comment-list|commentlist|related|recommended|share|sharing|social|newsletter|subscribe|cookie|consent|breadcrumbs?|sidebar|widget|popup|modal|banner|advert|ads|promo|skip-link|visually-hidden|sr-only|screen-reader-text)(?:$|[\s_-])/i;
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/** The main region a page declares: `<main>` or `role="main"`, when there is exactly one. */
function declaredMain(body: Element): Element | null {
  const found = Array.from(body.querySelectorAll('main, [role="main"]'));
  const outer = found.filter((el) => !found.some((other) => other !== el && other.contains(el)));
  return outer.length === 1 ? (outer[0] ?? null) : null;
}

function isChrome(el: Element, name: string): boolean {
  if (CHROME_TAGS.has(name)) return true;
  const role = el.getAttribute('role');
  if (role !== null && CHROME_ROLES.has(role)) return true;
  if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return true;
  const style = el.getAttribute('style');
  if (style !== null && HIDDEN_STYLE.test(style)) return true;
  const cls = el.getAttribute('class');
  if (cls !== null && cls.length < 200 && CHROME_WORDS.test(cls)) return true;
  const id = el.getAttribute('id');
  return id !== null && id.length < 100 && CHROME_WORDS.test(id);
}

/** Removes chrome below `root` (never `root` itself); walks without recursion. */
function removeChrome(root: Element): void {
  const doomed: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    for (let child = el.firstElementChild; child !== null; child = child.nextElementSibling) {
      if (isChrome(child, child.localName.toLowerCase())) doomed.push(child);
      else stack.push(child);
    }
  }
  for (const el of doomed) el.remove();
}

/** Elements whose content is never visible text (as in text.ts). */
const INVISIBLE = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'title',
  'svg',
  'iframe',
  'select',
  'textarea',
  'button',
]);

/** Characters of a string that are not whitespace. */
export function visibleChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 0xa0) n++;
  }
  return n;
}

/** Size of the region {@link mainRegion} would keep: non-whitespace characters, and those in links. */
export interface RegionSize {
  chars: number;
  linkChars: number;
}

/**
 * The size of {@link mainRegion}, read without editing the document (so it can run before
 * Readability, which edits it): decides whether the region is worth building.
 */
export function mainRegionSize(doc: Document): RegionSize {
  const size = { chars: 0, linkChars: 0 };
  const body = doc.body;
  if (!body) return size;
  const stack: Array<[Node, boolean]> = [[declaredMain(body) ?? body, false]];
  while (stack.length > 0) {
    const [node, inLink] = stack.pop() as [Node, boolean];
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const n = visibleChars(child.nodeValue ?? '');
        size.chars += n;
        if (inLink) size.linkChars += n;
      } else if (child.nodeType === 1) {
        const el = child as Element;
        const name = el.localName.toLowerCase();
        if (!INVISIBLE.has(name) && !isChrome(el, name)) stack.push([el, inLink || name === 'a']);
      }
    }
  }
  return size;
}

/** A candidate for the main content: the element, its plain text and its share of link text. */
export interface ContentCandidate {
  element: Element;
  text: string;
}

/**
 * The page's main region without chrome, from a document nobody has edited (Readability edits the
 * one it reads): the declared `<main>` when the page has one, else the body, with navigation,
 * headers, footers, asides, forms, hidden blocks and comment/related/share/sidebar blocks removed.
 * Null when the document has no body.
 */
export function mainRegion(doc: Document): ContentCandidate | null {
  const body = doc.body;
  if (!body) return null;
  const root = declaredMain(body) ?? body;
  removeChrome(root);
  return { element: root, text: blockText(root) };
}
