import { blockText } from './text.js';

/** Elements that are page chrome wherever they appear (HTML5 sectioning and ARIA landmarks). */
const CHROME_TAGS = new Set(['nav', 'header', 'footer', 'aside', 'menu', 'dialog', 'template']);
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

/** Not chrome; chrome whatever its size; chrome unless it holds most of the region's text. */
enum Chrome {
  None = 0,
  Always = 1,
  Small = 2,
}
/**
 * A `<form>` or a block named `comments` holds the posts of many forums (vBulletin, Invision):
 * such soft chrome is kept when it holds more than this share of the region's text.
 */
const SOFT_CHROME_MAX_SHARE = 0.4;

function chromeOf(el: Element, name: string): Chrome {
  if (CHROME_TAGS.has(name)) return Chrome.Always;
  const role = el.getAttribute('role');
  if (role !== null && CHROME_ROLES.has(role)) return Chrome.Always;
  if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return Chrome.Always;
  const style = el.getAttribute('style');
  if (style !== null && HIDDEN_STYLE.test(style)) return Chrome.Always;
  if (name === 'form') return Chrome.Small;
  const cls = el.getAttribute('class');
  if (cls !== null && cls.length < 200 && CHROME_WORDS.test(cls)) return Chrome.Small;
  const id = el.getAttribute('id');
  return id !== null && id.length < 100 && CHROME_WORDS.test(id) ? Chrome.Small : Chrome.None;
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

/** Text size of one element of the region: characters, those in links, and its links. */
interface Stats extends RegionSize {
  links: number;
  headings: number;
  chrome: Chrome;
}
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Containers that are navigation when nearly all their text is in several links. */
const LINK_BLOCKS = new Set(['ul', 'ol', 'dl', 'div', 'section', 'table', 'tbody', 'p', 'span', 'li', 'article']);
/** Share of link text above which a block with {@link MIN_NAV_LINKS} links is navigation. */
const NAV_LINK_SHARE = 0.8;
const MIN_NAV_LINKS = 3;
/**
 * Menus name pages in a word or two; the titles of a listing's items are longer. Blocks whose
 * links average at least this many visible characters are kept whatever their link share.
 */
const MAX_NAV_LINK_CHARS = 20;

/**
 * Per element below `root`, its visible text size and whether it is chrome; invisible elements
 * are left out of the map. One pass in document order, then sizes are summed children first.
 */
function measure(root: Element): Map<Element, Stats> {
  const stats = new Map<Element, Stats>();
  const order: Element[] = [];
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    order.push(el);
    const own: Stats = {
      chars: 0,
      linkChars: 0,
      links: el.localName === 'a' && el.hasAttribute('href') ? 1 : 0,
      headings: HEADINGS.has(el.localName) ? 1 : 0,
      chrome: el === root ? Chrome.None : chromeOf(el, el.localName.toLowerCase()),
    };
    stats.set(el, own);
    for (let child = el.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === 3) own.chars += visibleChars(child.nodeValue ?? '');
      else if (child.nodeType === 1) {
        const c = child as Element;
        const name = c.localName.toLowerCase();
        if (!INVISIBLE.has(name)) stack.push(c);
      }
    }
    if (own.links > 0) own.linkChars = own.chars;
  }
  for (let i = order.length - 1; i > 0; i--) {
    const el = order[i] as Element;
    const own = stats.get(el) as Stats;
    const parent = stats.get(el.parentElement as Element);
    if (!parent) continue;
    parent.chars += own.chars;
    parent.links += own.links;
    parent.headings += own.headings;
    // Text inside a link counts as link text however deep it sits.
    parent.linkChars += el.localName === 'a' && el.hasAttribute('href') ? own.chars : own.linkChars;
  }
  return stats;
}

/**
 * A block of several links with little else: a menu, a tag cloud, a list of related pages. A block
 * with headings is a list of items (product cards, posts), kept.
 */
function isNavigation(el: Element, s: Stats): boolean {
  return (
    s.headings === 0 &&
    s.links >= MIN_NAV_LINKS &&
    s.linkChars > NAV_LINK_SHARE * s.chars &&
    s.linkChars < MAX_NAV_LINK_CHARS * s.links &&
    LINK_BLOCKS.has(el.localName.toLowerCase())
  );
}

/**
 * Walks the measured region from `root` down, calling `drop` for each navigation block (not
 * descending into it); returns the size of what is kept.
 */
function prune(root: Element, stats: Map<Element, Stats>, drop: (el: Element) => void): RegionSize {
  const rootStats = stats.get(root) as Stats;
  const kept = { chars: rootStats.chars, linkChars: rootStats.linkChars };
  const maxSoftChars = SOFT_CHROME_MAX_SHARE * rootStats.chars;
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    for (let child = el.firstElementChild; child !== null; child = child.nextElementSibling) {
      const s = stats.get(child);
      if (!s) {
        drop(child);
        continue;
      }
      const chrome = s.chrome === Chrome.Always || (s.chrome === Chrome.Small && s.chars <= maxSoftChars);
      if (chrome || isNavigation(child, s)) {
        kept.chars -= s.chars;
        kept.linkChars -= s.linkChars;
        drop(child);
      } else if (s.chars > 0) stack.push(child);
    }
  }
  return kept;
}

/**
 * The size of {@link mainRegion}, read without editing the document (so it can run before
 * Readability, which edits it): decides whether the region is worth building.
 */
export function mainRegionSize(doc: Document): RegionSize {
  const body = doc.body;
  if (!body) return { chars: 0, linkChars: 0 };
  const root = declaredMain(body) ?? body;
  return prune(root, measure(root), () => {});
}

/** A candidate for the main content: the element and its plain text. */
export interface ContentCandidate {
  element: Element;
  text: string;
}

/**
 * The page's main region without chrome, from a document nobody has edited (Readability edits the
 * one it reads): the declared `<main>` when the page has one, else the body, with navigation,
 * headers, footers, asides, forms, hidden blocks, comment/related/share/sidebar blocks and
 * link-dense blocks (menus not marked as such) removed. Null when the document has no body.
 */
export function mainRegion(doc: Document): ContentCandidate | null {
  const body = doc.body;
  if (!body) return null;
  const root = declaredMain(body) ?? body;
  const doomed: Element[] = [];
  prune(root, measure(root), (el) => doomed.push(el));
  for (const el of doomed) el.remove();
  const focused = focus(root);
  return { element: focused, text: blockText(focused) };
}

/** Share of the region's text that a block must hold to become the region. */
const FOCUS_SHARE = 0.9;

/**
 * The smallest block that holds nearly all the text of `root` (already pruned of navigation): page
 * headers and footers without semantic tags fall outside it.
 */
function focus(root: Element): Element {
  const stats = measure(root);
  const plain = (s: Stats): number => s.chars;
  let at = root;
  for (;;) {
    const total = plain(stats.get(at) as Stats);
    let best: Element | null = null;
    for (let child = at.firstElementChild; child !== null; child = child.nextElementSibling) {
      const s = stats.get(child);
      if (s && plain(s) >= FOCUS_SHARE * total) best = child;
    }
    if (best === null || total === 0) return at;
    at = best;
  }
}
