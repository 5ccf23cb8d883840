import { createHash } from 'node:crypto';

/** Query parameters that only track the visitor and never change the page. */
const TRACKING_PARAM =
  /^(utm_[a-z0-9_]+|gclid|dclid|gbraid|wbraid|fbclid|msclkid|mc_cid|mc_eid|yclid|_ga|_gl|igshid|ref_src|ref_url|spm|__s|_hsenc|_hsmla|mkt_tok|oly_anon_id|oly_enc_id|vero_id|s_cid)$/i;

/**
 * Query parameters that only carry a visitor's session, by the names of the platforms that put them
 * in URLs when the client keeps no cookies (a crawler): PHP, Java servlets, ASP, osCommerce, Zen
 * Cart, ColdFusion. Each fetch gets a new one, so every link is new and a site never ends.
 */
const SESSION_PARAM = /^(phpsessid|jsessionid|aspsessionid[a-z]{8}|oscsid|zenid|cfid|cftoken)$/i;
/**
 * Names that hold a session on some sites (phpBB's and vBulletin's `sid` and `s`) and a real value
 * on others (`sid=5`, a conference's `session_id=12`): removed only when the value is a random token.
 */
const MAYBE_SESSION_PARAM = /^(sid|s|sessionid|session_id|sessid)$/i;
const SESSION_TOKEN = /^(?=[a-z]*[0-9])(?=[0-9]*[a-z])[0-9a-z]{16,}$/i;
/** A Java servlet's session in the path: `/item.jsp;jsessionid=0A1B2C?id=4`. */
const PATH_SESSION = /;jsessionid=[^/;?]*/gi;

/** Whether a query parameter only tracks the visitor or carries a session, never changing the page. */
function isVisitorParam(key: string, value: string): boolean {
  return (
    TRACKING_PARAM.test(key) || SESSION_PARAM.test(key) || (MAYBE_SESSION_PARAM.test(key) && SESSION_TOKEN.test(value))
  );
}

/**
 * Normalizes an http(s) URL so that the same page always gets the same string: lower-case scheme
 * and host (IDN as punycode), no default port, no fragment, no tracking or session parameters
 * (`PHPSESSID`, `;jsessionid=`, phpBB's `sid=<token>`), query parameters sorted, `/` for an empty
 * path. Throws a `TypeError` for anything that is not an
 * absolute http(s) URL.
 *
 * @example normalizeUrl('HTTP://Example.com:80/a?b=2&a=1&utm_source=x#top') // 'http://example.com/a?a=1&b=2'
 */
export function normalizeUrl(input: string): string {
  const url = new URL(input.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`not an http(s) URL: ${input}`);
  }
  url.hash = '';
  url.username = '';
  url.password = '';
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.slice(0, -1);
  if (url.pathname.includes(';')) url.pathname = url.pathname.replace(PATH_SESSION, '');
  url.search = normalizeQuery(url.search.slice(1));
  url.pathname = upperEscapes(url.pathname);
  return url.href;
}

/**
 * A query as written, its pairs sorted and visitor parameters removed, each pair kept byte for byte
 * but for the case of its escapes (`%3a` is `%3A`, RFC 3986 §6.2.2.1). Not decoded and encoded
 * again: that wrote `title=Special:Random` as `Special%3ARandom`, which a robots.txt rule for
 * `Special:` no longer matched, turned escapes of Latin-1 or Shift_JIS bytes into U+FFFD (other
 * queries, and several URLs one id) and `?print` into `?print=`.
 */
function normalizeQuery(query: string): string {
  const pairs: Array<{ key: string; value: string | null }> = [];
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = upperEscapes(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? null : upperEscapes(pair.slice(eq + 1));
    if (!isVisitorParam(formDecode(key), formDecode(value ?? ''))) pairs.push({ key, value });
  }
  pairs.sort((a, b) => (a.key === b.key ? cmp(a.value ?? '', b.value ?? '') : cmp(a.key, b.key)));
  return pairs.map(({ key, value }) => (value === null ? key : `${key}=${value}`)).join('&');
}

/** `%3a` as `%3A`: escapes differ only in case mean the same octet. */
function upperEscapes(text: string): string {
  return text.includes('%') ? text.replace(/%[0-9a-f]{2}/gi, (octet) => octet.toUpperCase()) : text;
}

/** A query component as a form reads it (`+` a space), or as written when its escapes are not UTF-8. */
function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether a string parses as an absolute http(s) URL. */
export function isHttpUrl(input: string): boolean {
  try {
    normalizeUrl(input);
    return true;
  } catch {
    return false;
  }
}

/**
 * The page id for a URL: the first 16 bytes of SHA-256 over the normalized URL, base64url (22
 * characters, URL-safe, never empty). Stable across recrawls.
 */
export function pageIdForUrl(url: string): string {
  return createHash('sha256').update(normalizeUrl(url)).digest('base64url').slice(0, 22);
}

/**
 * The ids a page named by its URL may be stored under: the URL's own, then that of the same URL
 * with the other scheme (a site moved to https, a user typing http). Empty for anything but an
 * absolute http(s) URL.
 */
export function pageIdsForUrl(url: string): string[] {
  if (!isHttpUrl(url)) return [];
  return [pageIdForUrl(url), pageIdForUrl(withOtherScheme(url.trim()))];
}

/** The URL with `http:` for `https:` and the reverse; anything else as it is. */
export function withOtherScheme(url: string): string {
  return url.replace(/^https?:/i, (scheme) => (scheme.toLowerCase() === 'https:' ? 'http:' : 'https:'));
}

/** Whether an id has the shape {@link pageIdForUrl} produces (cheap check before a lookup). */
export function isPageId(id: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(id);
}

/** The lower-case host of a URL (IPv6 without brackets). */
export function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** Longest `site` value taken: a host has at most 253 characters, a URL naming one rarely over 2,048. */
export const MAX_SITE_INPUT_CHARS = 2048;

/** Without leading and trailing dots; in linear time (`/\.+$/` tries again from every dot of a run). */
function trimDots(value: string): string {
  let end = value.length;
  while (end > 0 && value[end - 1] === '.') end--;
  return value.slice(0, end).replace(/^\.+/, '');
}

/**
 * Path segments a `site` value keeps (`site:github.com/owner/repo`): a page is labelled with the
 * first this many segments of its path (see {@link siteLabels}), and a deeper value is cut to them.
 */
export const MAX_SITE_PATH_SEGMENTS = 5;

/**
 * Normalizes a `site` value as users write it (`Example.com`, `https://example.com/docs/`,
 * `.example.com`, `*.example.com`, `example.com:8080/Docs`) to a lower-case host, with its port
 * unless that is 80 or 443 (`example.com:8080`: one site of several a host serves on its ports),
 * followed by the first {@link MAX_SITE_PATH_SEGMENTS} segments of its path when it names one
 * (`example.com:8080/docs`; query and fragment dropped, percent-encoded as in a URL, lower case); an
 * IPv6 address in brackets (`[2001:db8::1]`, as a URL's host); null when nothing host-like is left,
 * for a port out of range, or for a value longer than 2,048 characters.
 */
export function normalizeSite(input: string): string | null {
  // The value comes from requests: the patterns below cost more than linear time on a long one.
  if (input.length > MAX_SITE_INPUT_CHARS) return null;
  let value = input.trim().toLowerCase();
  value = value.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  // A line break inside leaves no host. Without one the next pattern is linear: `.` never stops
  // short of the end, which would have it tried again from every `/`.
  if (/[\n\r\u2028\u2029]/.test(value)) return null;
  const ipv6 = ipv6Site(value);
  if (ipv6 !== undefined) return ipv6;
  const hostEnd = value.search(/[/?#]/);
  const path = hostEnd >= 0 && value[hostEnd] === '/' ? value.slice(hostEnd).replace(/[?#].*$/, '') : '';
  value = hostEnd >= 0 ? value.slice(0, hostEnd) : value;
  const port = sitePort(value);
  if (port === null) return null;
  // `*.example.com`, as some search engines write "its subdomains": a site here includes them.
  value = trimDots(value.replace(/:\d*$/, '').replace(/^\*\./, ''));
  if (value === '' || value.length > 253) return null;
  // Letters of any script, digits, hyphens and dots: IDNs are allowed as typed.
  if (!/^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)*$/u.test(value)) return null;
  // A label neither starts nor ends with a hyphen (RFC 1123): `-` or `a.-` names no host.
  if (value.split('.').some((label) => label.startsWith('-') || label.endsWith('-'))) return null;
  return siteOfUrl(`http://${value}${port}${path}`);
}

/**
 * The port a `site` host ends with, as `:8080`; empty for none and for the web's own (80, 443),
 * which a page's URL never shows; null for a port out of range or a colon without one.
 */
function sitePort(host: string): string | null {
  const match = /:(\d*)$/.exec(host);
  if (!match) return '';
  const port = Number(match[1]);
  if (match[1] === '' || !Number.isInteger(port) || port < 1 || port > 65_535) return null;
  return port === 80 || port === 443 ? '' : `:${port}`;
}

/**
 * A normalized `site` value without its host's port (`example.com:8080/docs` → `example.com/docs`,
 * `[::1]:8080` → `[::1]`).
 */
export function siteWithoutPort(site: string): string {
  return site.replace(/^([^/]*?):\d+(?=\/|$)/, '$1');
}

/** A URL's host (with its port) and the first of its path's segments, as {@link normalizeSite} writes them; null when it does not parse. */
function siteOfUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    const segments = pathSegments(parsed.pathname);
    return segments.length === 0 ? parsed.host : `${parsed.host}/${segments.join('/')}`;
  } catch {
    return null;
  }
}

/** A bare IPv6 address (`2001:db8::1`, `::ffff:10.0.0.1`): hex digits and colons, at least two. */
const BARE_IPV6 = /^[\da-f]*:[\da-f]*:[\da-f:.]*$/;

/**
 * {@link normalizeSite} for an IPv6 address, bare (`2001:DB8::1`) or bracketed as in a URL, with a
 * port and a path (`[2001:db8::1]:8080/docs`): `[2001:db8::1]` (compressed, as a URL's host is
 * written) and the path's segments; null when the brackets hold no address; undefined when the
 * value is not written as an IPv6 address at all.
 */
function ipv6Site(value: string): string | null | undefined {
  let host: string;
  let rest = '';
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    if (close < 0) return null;
    host = value.slice(0, close + 1);
    rest = value.slice(close + 1);
    const port = sitePort(/^:\d*/.exec(rest)?.[0] ?? '');
    if (port === null) return null;
    rest = rest.replace(/^:\d*/, '');
    if (rest !== '' && !/^[/?#]/.test(rest)) return null;
    host += port;
  } else if (BARE_IPV6.test(value)) {
    host = `[${value}]`;
  } else {
    return undefined;
  }
  return siteOfUrl(`http://${host}${rest.replace(/[?#].*$/, '')}`);
}

/** The first {@link MAX_SITE_PATH_SEGMENTS} non-empty segments of a URL path, lower case. */
function pathSegments(pathname: string): string[] {
  return pathname
    .toLowerCase()
    .split('/')
    .filter((segment) => segment !== '')
    .slice(0, MAX_SITE_PATH_SEGMENTS);
}

/**
 * Whether `host` is `site` or one of its subdomains (`site` a bare host); a site with a port is that
 * host on that port alone, one without takes every port.
 */
export function hostMatchesSite(host: string, site: string): boolean {
  if (/:\d+$/.test(site)) return host === site;
  host = siteWithoutPort(host);
  return host === site || host.endsWith(`.${site}`);
}

/**
 * Whether every page within the normalized `site` value `inner` is within `outer` too:
 * `docs.example.com/api` is within `example.com` and `docs.example.com/api`, not `example.com/blog`.
 */
export function siteWithin(inner: string, outer: string): boolean {
  const [innerHost = '', ...innerPath] = inner.split('/');
  const [outerHost = '', ...outerPath] = outer.split('/');
  return hostMatchesSite(innerHost, outerHost) && outerPath.every((segment, i) => innerPath[i] === segment);
}

/**
 * Whether a page's URL is within a normalized `site` value (see {@link normalizeSite}): its host is
 * the value's host or a subdomain, and its path begins with the value's path segments, whole.
 */
export function urlMatchesSite(url: string, site: string): boolean {
  try {
    return siteLabels(url).includes(site);
  } catch {
    return false;
  }
}

/** `a.b.example.com` → `a.b.example.com`, `b.example.com`, `example.com`, `com`. */
export function hostAndParents(host: string): string[] {
  const labels = host
    .toLowerCase()
    .split('.')
    .filter((label) => label !== '');
  return labels.map((_, i) => labels.slice(i).join('.'));
}

/**
 * What a page answers to as a `site` value: its host and every parent domain (`a.b.example.com`,
 * `b.example.com`, `example.com`, `com`; an IP address alone), and each of those but the last
 * followed by every run of its path's first segments (`example.com/docs`, `example.com/docs/api`...;
 * see {@link normalizeSite}); on a port of its own, the host with the port too, alone and with
 * those paths (`127.0.0.1:8901`, `127.0.0.1:8901/docs`). Throws on a URL that does not parse.
 */
export function siteLabels(url: string): string[] {
  const parsed = new URL(url);
  // An IP address is one name: its parts are not domains.
  const ip = /^[\d.]+$|^\[/.test(parsed.hostname);
  const hosts = ip ? [parsed.hostname] : hostAndParents(parsed.hostname);
  const segments = pathSegments(parsed.pathname);
  const scoped: string[] = [];
  const withPort = parsed.port === '' ? [] : [parsed.host];
  for (const host of [...(hosts.length === 1 ? hosts : hosts.slice(0, -1)), ...withPort]) {
    for (let n = 1; n <= segments.length; n++) scoped.push(`${host}/${segments.slice(0, n).join('/')}`);
  }
  return [...hosts, ...withPort, ...scoped];
}

/** File names that servers answer for a bare directory (`/docs/` serves `/docs/index.html`). */
const DIRECTORY_INDEX = /\/(?:index\.html?|index\.php|default\.aspx?)$/i;

/**
 * The directory URL a directory-index URL may stand for: `http://a.test/docs/index.html` →
 * `http://a.test/docs/` (also `index.htm`, `index.php`, `default.aspx`); null for any other URL
 * and for one with a query (`/w/index.php?title=X` is an application, not a directory page). Only
 * a candidate: some sites serve different things at the two, so the crawler fetches both and
 * stores them once only when their text is the same.
 */
export function directoryIndexParent(url: string): string | null {
  const parsed = new URL(normalizeUrl(url));
  if (parsed.search !== '' || !DIRECTORY_INDEX.test(parsed.pathname)) return null;
  parsed.pathname = parsed.pathname.replace(DIRECTORY_INDEX, '/');
  return parsed.href;
}

/** An absolute URL's path: after the scheme and authority, before a query or fragment. */
const URL_PATH = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*([^?#]*)/i;
/** A run of path segments seen this many times in a row marks a path a crawler should not follow. */
const MAX_SEGMENT_REPEATS = 2;
/** Longest run of segments checked for repeats (`/a/b/c/a/b/c/a/b/c/`). */
const MAX_REPEATED_RUN = 3;

/**
 * Whether a URL's path repeats one segment, or one run of up to three segments, more than twice in
 * a row: `/docs/docs/docs/x`, `/a/b/a/b/a/b/`. Such paths come from relative links on pages a server
 * answers at any path, and they never end; twice is left alone (`/news/2024/news/2024/` happens on
 * real sites). The rule is Heritrix's pathological-path rule.
 *
 * @example isPathologicalPath('https://example.com/en/en/en/about') // true
 */
export function isPathologicalPath(url: string): boolean {
  // The crawler asks this of every link it has just normalized: the path is read off the string.
  const path = URL_PATH.exec(url)?.[1] ?? '';
  const segments = path.split('/').filter((segment) => segment !== '');
  for (let run = 1; run <= MAX_REPEATED_RUN; run += 1) {
    for (let start = 0; start + run * (MAX_SEGMENT_REPEATS + 1) <= segments.length; start += 1) {
      let repeats = 1;
      while (repeats <= MAX_SEGMENT_REPEATS && sameRun(segments, start, start + run * repeats, run)) repeats += 1;
      if (repeats > MAX_SEGMENT_REPEATS) return true;
    }
  }
  return false;
}

function sameRun(segments: readonly string[], a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i += 1) if (segments[a + i] !== segments[b + i]) return false;
  return true;
}
