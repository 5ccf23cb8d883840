import { Readable } from 'node:stream';
import { XMLParser } from 'fast-xml-parser';
import { readLimitedBody } from './body.js';
import type { Fetcher, FetchResult } from './fetcher.js';

/** Options of {@link fetchSitemapUrls}. */
export interface SitemapOptions {
  readonly fetcher: Pick<Fetcher, 'fetch'>;
  /** Page URLs returned at most. @defaultValue 50_000 */
  readonly maxUrls?: number;
  /** Sitemap files fetched at most (the root included). @defaultValue 50 */
  readonly maxSitemaps?: number;
  /** Levels of sitemap indexes followed below the root. @defaultValue 3 */
  readonly maxDepth?: number;
  /** Largest sitemap kept, after decompression (the protocol's own limit is 50 MB). @defaultValue 52_428_800 */
  readonly maxBodyBytes?: number;
  readonly signal?: AbortSignal;
}

/** What one sitemap file lists. */
export interface SitemapContent {
  /** Page URLs (`<urlset><url><loc>`, plain-text lines, or a feed's items' links). */
  readonly urls: string[];
  /** Child sitemaps (`<sitemapindex><sitemap><loc>`). */
  readonly sitemaps: string[];
}

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the XML predefined and numeric entities; DTD entities are never expanded (no bombs). */
function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return safeCodePoint(Number.parseInt(name.slice(2), 16), whole);
    if (name.startsWith('#')) return safeCodePoint(Number.parseInt(name.slice(1), 10), whole);
    return XML_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

function httpUrl(raw: unknown, base: string): string | null {
  if (typeof raw !== 'string' && typeof raw !== 'number') return null;
  const text = decodeXmlEntities(String(raw).trim());
  try {
    const url = new URL(text, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function locs(entries: unknown, base: string): string[] {
  const out: string[] = [];
  for (const entry of asArray(entries)) {
    const loc = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>).loc : undefined;
    const url = httpUrl(asArray(loc)[0], base);
    if (url) out.push(url);
  }
  return out;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  processEntities: false,
  parseTagValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/** Feeds keep their links in attributes (Atom's `<link href>`). */
const feedParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  processEntities: false,
  parseTagValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/**
 * The links of a feed's items, as the sitemap protocol accepts feeds in place of a sitemap: RSS
 * 2.0 (`<item><link>`), RSS 1.0 (RDF) and Atom (`<entry><link href>`, the `alternate` one when
 * several). Null when `doc` is not a feed.
 */
function feedLinks(text: string, doc: Record<string, unknown>, baseUrl: string): string[] | null {
  if (!doc.rss && !doc.RDF && !doc.feed) return null;
  const parsed = feedParser.parse(text) as Record<string, unknown>;
  const field = (node: unknown, name: string): unknown =>
    typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[name] : undefined;
  const textOf = (node: unknown): unknown => (typeof node === 'object' && node !== null ? field(node, '#text') : node);
  const links: unknown[] = [];
  if (parsed.feed) {
    for (const entry of asArray(field(parsed.feed, 'entry'))) {
      const candidates = asArray(field(entry, 'link'));
      const alternate = candidates.find((link) => (field(link, 'rel') ?? 'alternate') === 'alternate') ?? candidates[0];
      links.push(field(alternate, 'href'));
    }
  } else {
    // RSS 2.0 has its items inside the channel, RSS 1.0 beside it.
    const holder = parsed.rss ? field(parsed.rss, 'channel') : parsed.RDF;
    for (const item of asArray(field(holder, 'item'))) links.push(textOf(field(item, 'link')));
  }
  return links.map((link) => httpUrl(textOf(link), baseUrl)).filter((url): url is string => url !== null);
}

/** Above this many characters a sitemap (not a feed) is scanned rather than parsed (see parseSitemap). */
const LARGE_SITEMAP_CHARS = 2 * 1024 * 1024;
/** A body whose root element is a `<urlset>` or a `<sitemapindex>`, after the XML declaration and comments. */
const SITEMAP_ROOT = /^(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:\w+:)?(?:urlset|sitemapindex)\b/;

/**
 * Parses one sitemap body: XML urlset, XML sitemap index, a feed (RSS or Atom), or a plain-text
 * list of URLs. Broken XML is tolerated: whatever `<loc>` elements can be found are returned.
 */
export function parseSitemap(text: string, baseUrl: string): SitemapContent {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (!trimmed.startsWith('<')) {
    const urls = trimmed
      .split(/\r\n|\r|\n/)
      .filter((line) => /^\s*https?:\/\//i.test(line))
      .map((line) => httpUrl(line, baseUrl))
      .filter((url): url is string => url !== null);
    return { urls, sitemaps: [] };
  }
  // A large urlset or index is read by one pass over its tags: its parsed tree took about seven
  // times its size in heap (a sitemap of 48 MB ran an extraction thread's 256 MiB out, and held the
  // main thread 4.3 s).
  if (trimmed.length > LARGE_SITEMAP_CHARS && SITEMAP_ROOT.test(trimmed.slice(0, 4096)))
    return scanLocs(trimmed, baseUrl);
  try {
    const doc = parser.parse(trimmed) as Record<string, unknown>;
    const items = feedLinks(trimmed, doc, baseUrl);
    if (items !== null) return { urls: items, sitemaps: [] };
    const urlset = doc.urlset as Record<string, unknown> | undefined;
    const index = doc.sitemapindex as Record<string, unknown> | undefined;
    const content = { urls: locs(urlset?.url, baseUrl), sitemaps: locs(index?.sitemap, baseUrl) };
    if (content.urls.length > 0 || content.sitemaps.length > 0 || urlset || index) return content;
  } catch {
    // Fall through to the lenient scan below.
  }
  return scanLocs(trimmed, baseUrl);
}

/**
 * Last resort for malformed XML: `<loc>` elements, classified by the element they sit in (the
 * `<url>` or `<sitemap>` opened last before them; one `<loc>` each, as the parser reads it).
 * One pass over the tags: a single pattern from the element to its `<loc>` backtracked
 * quadratically on a body of `<url>` tags without one (10 s for 320 KB).
 */
function scanLocs(text: string, baseUrl: string): SitemapContent {
  const urls: string[] = [];
  const sitemaps: string[] = [];
  const tags = /<(?:\w+:)?(url|sitemap|loc)\b[^<>]*>/gi;
  const locEnd = /<\/(?:\w+:)?loc>/gi;
  let element: string | null = null;
  for (let tag = tags.exec(text); tag !== null; tag = tags.exec(text)) {
    const name = tag[1]?.toLowerCase() ?? '';
    if (name !== 'loc') {
      element = name;
      continue;
    }
    if (element === null) continue;
    locEnd.lastIndex = tags.lastIndex;
    const end = locEnd.exec(text);
    // No `</loc>` here means none further on either, so nothing more can be read.
    if (end === null) break;
    const url = httpUrl(text.slice(tags.lastIndex, end.index).replace(/^<!\[CDATA\[|\]\]>$/g, ''), baseUrl);
    if (url) (element === 'sitemap' ? sitemaps : urls).push(url);
    element = null;
    tags.lastIndex = locEnd.lastIndex;
  }
  return { urls, sitemaps };
}

function isGzip(body: Buffer): boolean {
  return body[0] === 0x1f && body[1] === 0x8b;
}

/**
 * What a fetched sitemap lists: its body parsed (see {@link parseSitemap}), unpacked first when it
 * is gzip content (a `.gz` sitemap is a gzip file, not a gzip content-coding, so the fetcher leaves
 * it packed), within `maxBodyBytes` once unpacked. Throws when the gzip cannot be read.
 */
export async function readSitemapResponse(
  response: Pick<FetchResult, 'body' | 'finalUrl'>,
  maxBodyBytes: number,
): Promise<SitemapContent> {
  let body = response.body;
  if (isGzip(body)) body = (await readLimitedBody(Readable.from([body]), 'gzip', maxBodyBytes, true)).body;
  return parseSitemap(new TextDecoder('utf-8').decode(body), response.finalUrl);
}

function sameHost(url: string, host: string): boolean {
  try {
    return new URL(url).host === host;
  } catch {
    return false;
  }
}

/**
 * Collects page URLs from a sitemap: urlset, sitemap index (followed recursively, bounded by
 * `maxDepth` and `maxSitemaps`; only its own host's child sitemaps), gzip files (`.gz` or gzip content) and plain-text sitemaps.
 * Returns unique URLs, at most `maxUrls`. A failing child sitemap is skipped; a failing root
 * throws the fetcher's error.
 */
export async function fetchSitemapUrls(url: string, options: SitemapOptions): Promise<string[]> {
  const maxUrls = options.maxUrls ?? 50_000;
  const maxSitemaps = options.maxSitemaps ?? 50;
  const maxDepth = options.maxDepth ?? 3;
  const maxBodyBytes = options.maxBodyBytes ?? 50 * 1024 * 1024;
  const found = new Set<string>();
  const visited = new Set<string>();
  const queue: { url: string; depth: number }[] = [{ url, depth: 0 }];
  while (queue.length > 0 && visited.size < maxSitemaps && found.size < maxUrls) {
    const next = queue.shift();
    if (!next || visited.has(next.url)) continue;
    visited.add(next.url);
    let content: SitemapContent;
    try {
      const response = await options.fetcher.fetch(next.url, {
        accept: 'application/xml, text/xml;q=0.9, text/plain;q=0.8, */*;q=0.5',
        maxBodyBytes,
        truncateBody: true,
        rejectBinaryText: false,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      content = await readSitemapResponse(response, maxBodyBytes);
    } catch (error) {
      if (next.depth === 0) throw error;
      continue;
    }
    for (const page of content.urls) {
      if (found.size >= maxUrls) break;
      found.add(page);
    }
    if (next.depth < maxDepth) {
      // The sitemap protocol allows an index to list only sitemaps of its own host; one listing
      // other hosts' would send the crawler at them.
      const host = new URL(next.url).host;
      for (const child of content.sitemaps) {
        if (!visited.has(child) && sameHost(child, host)) queue.push({ url: child, depth: next.depth + 1 });
      }
    }
  }
  return [...found];
}
