import robotsParserModule from 'robots-parser';

// robots-parser is `module.exports = fn` but its typings declare an ES default export, which
// NodeNext resolution reads as `{ default: fn }`; at run time the default import is the function.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/**
 * Longest robots.txt line considered, the rest is cut: Google's line buffer holds 8 × the
 * longest URL (2083) including its terminator, and a bound keeps hostile files cheap.
 */
const MAX_LINE_CHARS = 2083 * 8 - 1;

/** Misspellings of directive names that real robots.txt files use and major crawlers accept. */
const KEY_ALIASES: Readonly<Record<string, string>> = {
  useragent: 'user-agent',
  'user agent': 'user-agent',
  dissallow: 'disallow',
  dissalow: 'disallow',
  disalow: 'disallow',
  diasllow: 'disallow',
  disallaw: 'disallow',
  'crawl delay': 'crawl-delay',
  crawldelay: 'crawl-delay',
  'site-map': 'sitemap',
};

const KNOWN_KEYS = new Set(['user-agent', 'allow', 'disallow', 'sitemap', 'crawl-delay', 'host']);
const WITHOUT_COLON = /^\s*([A-Za-z-]+)\s+(\S.*)$/;

/**
 * `key: value` split at the first colon, or null without one. Done with indexOf: a regex for it
 * backtracked cubically on a long line of spaces (minutes for one 16 KB line).
 */
function splitAtColon(content: string): [key: string, value: string] | null {
  const colon = content.indexOf(':');
  return colon < 0 ? null : [content.slice(0, colon).trim(), content.slice(colon + 1)];
}

function splitAtSpace(content: string): [key: string, value: string] | null {
  const match = WITHOUT_COLON.exec(content);
  return match ? [match[1] ?? '', match[2] ?? ''] : null;
}

/** Splits a line into a known directive key and its value, or null for anything else. */
function directive(content: string): { key: string; value: string } | null {
  for (const split of [splitAtColon, splitAtSpace]) {
    const parts = split(content);
    if (!parts) continue;
    const rawKey = parts[0].toLowerCase().replace(/\s+/g, ' ');
    const key = KEY_ALIASES[rawKey] ?? rawKey;
    if (KNOWN_KEYS.has(key)) return { key, value: parts[1].trim() };
  }
  return null;
}

/**
 * The product token of a user-agent string, the part robots.txt groups match (RFC 9309:
 * letters, `_` and `-`). `*` stays `*`.
 *
 * @example productToken('QuarryBot/0.1 (+https://example.org)') // 'QuarryBot'
 */
export function productToken(userAgent: string): string {
  const value = userAgent.trim();
  // "* something" is still the global group (as Google reads it); "*foo" names nothing.
  if (/^\*(\s|$)/.test(value)) return '*';
  return /^[A-Za-z_-]*/.exec(value)?.[0] ?? '';
}

/**
 * Rewrites robots.txt into the strict form robots-parser reads, so that its matching follows
 * RFC 9309 and what major crawlers accept: user-agent values reduced to their product token
 * (`User-agent: Foo Bar` names `Foo`), a missing colon tolerated (`Disallow /`), common
 * misspellings of keys, over-long lines cut, a BOM dropped, and `Allow: /dir/index.html` also
 * allowing `/dir/` (a directory's index page is the directory).
 */
export function normalizeRobotsTxt(text: string): string {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const out: string[] = [];
  for (const rawLine of lines) {
    const line = rawLine.length > MAX_LINE_CHARS ? rawLine.slice(0, MAX_LINE_CHARS) : rawLine;
    // A comment runs from the first '#' to the end of the line. Not /#.*$/: its `.` stops at
    // U+2028, so a line of '#' followed by one backtracked quadratically and kept the comment.
    const hash = line.indexOf('#');
    const content = hash < 0 ? line : line.slice(0, hash);
    const parsed = directive(content);
    if (!parsed) {
      out.push(content);
      continue;
    }
    const { key, value } = parsed;
    if (key === 'user-agent') {
      out.push(`user-agent: ${productToken(value)}`);
      continue;
    }
    out.push(`${key}: ${value}`);
    const index = /^(.*\/)index\.html?$/i.exec(value);
    if (key === 'allow' && index?.[1]) out.push(`allow: ${index[1]}$`);
  }
  return out.join('\n');
}

/** A parsed robots.txt, answering for URLs of the origin it was fetched from. */
export interface ParsedRobots {
  /** Whether `userAgent` may fetch `url`; URLs on another origin are answered as allowed. */
  isAllowed(url: string, userAgent: string): boolean;
  /** The Crawl-delay of the group `userAgent` falls in, in seconds, or null when none is set. */
  crawlDelaySecs(userAgent: string): number | null;
  /** Sitemap URLs listed (absolute URLs only). */
  readonly sitemaps: readonly string[];
}

/** Parses robots.txt text fetched from `robotsUrl` (its origin is the one the rules govern). */
export function parseRobotsTxt(robotsUrl: string, text: string): ParsedRobots {
  const robots = robotsParser(robotsUrl, normalizeRobotsTxt(text));
  const origin = new URL(robotsUrl).origin;
  const sitemaps = robots.getSitemaps().filter((url) => {
    try {
      return ['http:', 'https:'].includes(new URL(url).protocol);
    } catch {
      return false;
    }
  });
  return {
    isAllowed(url, userAgent) {
      const target = new URL(url, `${origin}/`);
      if (target.origin !== origin) return true;
      // An empty token matches no named group; robots-parser treats undefined as "*" only.
      return robots.isAllowed(target.href, productToken(userAgent) || undefined) ?? true;
    },
    crawlDelaySecs(userAgent) {
      const delay = robots.getCrawlDelay(productToken(userAgent) || undefined);
      return delay === undefined || !Number.isFinite(delay) || delay < 0 ? null : delay;
    },
    sitemaps,
  };
}

/**
 * Whether robots.txt `robotsTxt` lets `userAgent` fetch `url` (RFC 9309: the group of the
 * user agent's product token, case-insensitive, else `*`; longest match wins, Allow on a tie).
 * A URL that is not absolute is read as a path on the robots.txt's own site; '' means '/'.
 *
 * @example robotsAllows('User-agent: *\nDisallow: /private', 'QuarryBot/0.1', 'https://a.org/private/x') // false
 */
export function robotsAllows(robotsTxt: string, userAgent: string, url: string): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    target = new URL(url === '' ? '/' : url, 'http://robots.invalid/');
  }
  return parseRobotsTxt(`${target.origin}/robots.txt`, robotsTxt).isAllowed(target.href, userAgent);
}
