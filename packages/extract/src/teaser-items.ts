/**
 * Whether a schema.org microdata item is a teaser of another page (a "related article" card, one of
 * a list of posts) rather than the page's own: its properties (`datePublished`, `description`...)
 * describe that other page.
 */
export type TeaserTest = (item: Element | null) => boolean;

/**
 * schema.org's replies (Comment, and its Answer): a post on this page, never a teaser of another;
 * a forum's first post (XenForo marks each post a Comment) dates the thread.
 */
const REPLY_TYPE = /schema\.org\/(?:Comment|Answer)$/i;

/**
 * A {@link TeaserTest} for one document, remembering each item's answer. An item is a teaser when
 * - it is a link or sits inside one (`<a href itemscope itemtype="…/NewsArticle">`): a card that
 *   leads to the page it describes;
 * - it is one of several items of its type side by side (sibling elements with the same
 *   `itemtype`): a list of cards;
 * - it names its own URL (`itemprop="url"`) and that is not the page's (the document's URL, its
 *   canonical or `og:url`, `pageUrls`), unless it is the `<html>` or `<body>` element.
 * A reply (a Comment or an Answer, see {@link REPLY_TYPE}) is none, nor is an element with no
 * item (null): loose `itemprop`s are read as the page's.
 */
export function teaserTest(pageUrls: () => readonly string[], baseUrl: () => string): TeaserTest {
  const known = new Map<Element, boolean>();
  /** Per parent element: how many of its children are items of each type. */
  const typesUnder = new Map<Element, Map<string, number>>();
  let pageKeys: Set<string> | null = null;
  const siblingsOfType = (item: Element, type: string): number => {
    const parent = item.parentElement;
    if (parent === null) return 1;
    let counts = typesUnder.get(parent);
    if (counts === undefined) {
      counts = new Map();
      for (let child = parent.firstElementChild; child !== null; child = child.nextElementSibling) {
        const childType = itemTypeOf(child);
        if (childType !== '') counts.set(childType, (counts.get(childType) ?? 0) + 1);
      }
      typesUnder.set(parent, counts);
    }
    return counts.get(type) ?? 1;
  };
  const foreignUrl = (item: Element): boolean => {
    const own = ownUrlOf(item);
    if (own === null) return false;
    const key = urlKey(own, baseUrl());
    if (key === null) return false;
    pageKeys ??= new Set(
      pageUrls()
        .map((url) => urlKey(url, baseUrl()))
        .filter((k): k is string => k !== null),
    );
    return pageKeys.size > 0 && !pageKeys.has(key);
  };
  return (item) => {
    if (item === null) return false;
    let teaser = known.get(item);
    if (teaser === undefined) {
      const type = itemTypeOf(item);
      const tag = item.localName.toLowerCase();
      teaser =
        !REPLY_TYPE.test(type) &&
        (insideLink(item) ||
          (type !== '' && siblingsOfType(item, type) > 1) ||
          (tag !== 'html' && tag !== 'body' && foreignUrl(item)));
      known.set(item, teaser);
    }
    return teaser;
  };
}

/** An item's `itemtype`, trimmed; '' for an element that is no item or names no type. */
function itemTypeOf(el: Element): string {
  return el.hasAttribute('itemscope') ? (el.getAttribute('itemtype') ?? '').trim() : '';
}

/** Whether an element is a link (`<a href>`) or sits inside one. */
function insideLink(el: Element): boolean {
  for (let at: Element | null = el; at !== null; at = at.parentElement) {
    if (at.localName.toLowerCase() === 'a' && at.hasAttribute('href')) return true;
  }
  return false;
}

/**
 * The first `url` property of the item itself (not of an item nested in it): a `<meta>`'s
 * `content`, a link's `href`; null when it has none.
 */
function ownUrlOf(item: Element): string | null {
  for (const el of Array.from(item.querySelectorAll('[itemprop]'))) {
    if (!(el.getAttribute('itemprop') ?? '').split(/\s+/).includes('url')) continue;
    let scope = el.parentElement;
    while (scope !== null && !scope.hasAttribute('itemscope')) scope = scope.parentElement;
    if (scope !== item) continue;
    const value = el.getAttribute('href') ?? el.getAttribute('content');
    if (value !== null && value.trim() !== '') return value;
  }
  return null;
}

/**
 * What tells two URLs of one page apart from another page's: host without `www.`, path without a
 * trailing slash, and query; the scheme and fragment are left out. Null when it is no http(s) URL.
 */
function urlKey(href: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return `${url.hostname.replace(/^www\./, '')}${url.pathname.replace(/\/+$/, '')}${url.search}`;
}
