/** Link URLs longer than this are dropped: no real page needs them and they bloat the frontier. */
const MAX_LINK_URL_CHARS = 2_048;

/** What the page's robots meta tags (`robots`, `googlebot`) forbid. */
export interface RobotsDirectives {
  noindex: boolean;
  nofollow: boolean;
}

/** The fragment of a link's `href`, decoded where it can be; null when it has none. */
export function fragmentOf(anchor: Element): string | null {
  const href = anchor.getAttribute('href');
  const at = href?.indexOf('#') ?? -1;
  if (href === null || href === undefined || at < 0 || at === href.length - 1) return null;
  const raw = href.slice(at + 1);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The URL relative links resolve against: `<base href>` (itself resolved), else the page URL. */
export function baseUrlOf(baseHref: string | null, pageUrl: string): string {
  const href = baseHref;
  if (href) {
    const base = resolveHttp(href, pageUrl);
    if (base) return base;
  }
  return pageUrl;
}

/**
 * Absolute http(s) URLs of the page's `<a href>` links in document order: resolved against the
 * base URL, fragment removed, deduplicated, at most `maxLinks`. Links the page does not vouch for
 * are left out: `rel="nofollow"`, and `sponsored` (paid) and `ugc` (written by its users: comments,
 * forum posts), which the major search engines read as hints not to follow either.
 */
export function extractLinks(anchors: readonly Element[], baseUrl: string, maxLinks: number): string[] {
  const links = new Set<string>();
  for (const a of anchors) {
    if (links.size >= maxLinks) break;
    const href = a.getAttribute('href');
    if (!href) continue;
    const rel = a.getAttribute('rel');
    if (rel && /(?:^|\s)(?:nofollow|sponsored|ugc)(?:\s|$)/i.test(rel)) continue;
    const url = resolveHttp(href, baseUrl);
    if (url) links.add(url);
  }
  return [...links];
}

/**
 * The `<link>` elements that lead to other pages a crawler should see: the page in other languages
 * (`rel="alternate" hreflang="zh"`, often behind a script-built language menu) and the next and
 * previous pages of a series (`rel="next"`, `rel="prev"`). Read like anchors by {@link extractLinks}.
 */
export function pageLinkElements(linkElements: readonly Element[]): Element[] {
  return linkElements.filter((link) => {
    const rel = ` ${(link.getAttribute('rel') ?? '').toLowerCase().replace(/\s+/g, ' ')} `;
    if (rel.includes(' next ') || rel.includes(' prev ') || rel.includes(' previous ')) return true;
    return rel.includes(' alternate ') && link.hasAttribute('hreflang') && !link.hasAttribute('type');
  });
}

/**
 * `<link rel="canonical">` as an absolute http(s) URL, or null. A page naming two different
 * canonicals names none (as search engines read it, and as the HTTP `Link` header is read): a
 * template's canonical beside a plugin's is a mistake, and following the first dropped the page.
 */
export function canonicalUrlOf(linkElements: readonly Element[], baseUrl: string): string | null {
  let canonical: string | null = null;
  for (const link of linkElements) {
    const rel = link.getAttribute('rel');
    if (!rel || !/(?:^|\s)canonical(?:\s|$)/i.test(rel)) continue;
    const url = resolveHttp(link.getAttribute('href') ?? '', baseUrl);
    if (url === null) continue;
    if (canonical !== null && canonical !== url) return null;
    canonical = url;
  }
  return canonical;
}

/** Feeds a page declares at most. */
const MAX_FEEDS = 5;
const FEED_TYPE = /^application\/(?:rss|atom)\+xml$/i;

/**
 * The RSS and Atom feeds the page declares (`<link rel="alternate" type="application/rss+xml">`),
 * as absolute http(s) URLs, at most {@link MAX_FEEDS}.
 */
export function feedUrlsOf(linkElements: readonly Element[], baseUrl: string): string[] {
  const feeds = new Set<string>();
  for (const link of linkElements) {
    if (feeds.size >= MAX_FEEDS) break;
    const rel = link.getAttribute('rel');
    if (!rel || !/(?:^|\s)alternate(?:\s|$)/i.test(rel) || !FEED_TYPE.test(link.getAttribute('type')?.trim() ?? '')) {
      continue;
    }
    const url = resolveHttp(link.getAttribute('href') ?? '', baseUrl);
    if (url) feeds.add(url);
  }
  return [...feeds];
}

/**
 * Reads `<meta name="robots">`, `<meta name="googlebot">` (a site that keeps a page out of Google
 * means search engines) and a meta named after `agent`, the crawler's own bot name; `none` means both.
 */
export function robotsOf(metas: readonly Element[], agent?: string): RobotsDirectives {
  const result = { noindex: false, nofollow: false };
  const own = agent?.toLowerCase();
  for (const el of metas) {
    const name = el.getAttribute('name')?.trim().toLowerCase();
    if (name !== 'robots' && name !== 'googlebot' && (!own || name !== own)) continue;
    const tokens = (el.getAttribute('content') ?? '').toLowerCase().split(/[\s,]+/);
    if (tokens.includes('noindex') || tokens.includes('none')) result.noindex = true;
    if (tokens.includes('nofollow') || tokens.includes('none')) result.nofollow = true;
  }
  return result;
}

/** A page's `<meta http-equiv="refresh">` that leads elsewhere: where, and after how many seconds. */
export interface MetaRefresh {
  readonly url: string;
  readonly delaySecs: number;
}

/**
 * `5`, `0; url=/next`, `0;URL='/next'`, `3, /next`: the delay, then an optional target. The target
 * runs to the end, line breaks included: with `.` a line break left `\s*` and `.*` to retry every
 * split of the blanks before it (quadratic: 100 K tabs took 12 s).
 */
const REFRESH = /^\s*(\d+)(?:\.[\d.]*)?\s*(?:[;,]\s*(?:url\s*=\s*)?([\s\S]*))?$/i;
/** A longer value is ignored: a target we keep has at most 2,048 characters. */
const MAX_REFRESH_CHARS = 4_096;

/**
 * The target of the page's `<meta http-equiv="refresh">`, parsed as the HTML standard's shared
 * declarative refresh steps do (quotes around the URL dropped); null when it has none, or only
 * reloads the page itself.
 */
export function metaRefreshOf(metas: readonly Element[], baseUrl: string, pageUrl: string): MetaRefresh | null {
  for (const el of metas) {
    if (el.getAttribute('http-equiv')?.trim().toLowerCase() !== 'refresh') continue;
    const content = el.getAttribute('content') ?? '';
    const match = content.length > MAX_REFRESH_CHARS ? null : REFRESH.exec(content);
    if (!match) return null;
    let target = (match[2] ?? '').trim();
    const quote = target[0];
    if (quote === '"' || quote === "'") {
      const end = target.indexOf(quote, 1);
      target = target.slice(1, end < 0 ? undefined : end);
    }
    const url = target === '' ? null : resolveHttp(target, baseUrl);
    return url === null || url === resolveHttp(pageUrl, pageUrl) ? null : { url, delaySecs: Number(match[1]) };
  }
  return null;
}

function resolveHttp(href: string, base: string): string | null {
  const trimmed = href.trim();
  if (trimmed === '' || trimmed.startsWith('#') || trimmed.length > MAX_LINK_URL_CHARS) return null;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url.href.length > MAX_LINK_URL_CHARS ? null : url.href;
}
