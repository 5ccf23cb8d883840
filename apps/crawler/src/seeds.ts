import { readFile } from 'node:fs/promises';
import { isPathologicalPath, normalizeUrl, ValidationError, withOtherScheme } from '@quarry/core';
import type { CrawlTask, NewCrawlTask } from '@quarry/queue';

/** How far a crawl may wander from its seed. */
export type CrawlScope = 'host' | 'domain' | 'prefix' | 'any';
export type RenderMode = 'auto' | 'always' | 'never';

/** One seed with its per-seed settings (a seeds-file line like `https://a.org depth=2 pages=500`). */
export interface Seed {
  readonly url: string;
  /** Link depth followed from the seed. @defaultValue 3 */
  readonly maxDepth: number;
  /** Pages fetched within the seed's scope. @defaultValue 1000 */
  readonly maxPages: number;
  /** Render with Chromium: `auto` when static HTML yields too little text. @defaultValue auto */
  readonly render: RenderMode;
  /** `host` (the seed's host), `domain` (host and subdomains of the seed's registrable part as
   * written, minus `www.`), `prefix` (URLs under the seed's path), `any`. @defaultValue host */
  readonly scope: CrawlScope;
}

export const SEED_DEFAULTS = { maxDepth: 3, maxPages: 1000, render: 'auto', scope: 'host' } as const;

const SETTING = /^(depth|pages|render|scope)=(.+)$/;

/** The longest URL the crawler queues, a seed's or a found link's (the fetcher's bound too). */
const MAX_URL_CHARS = 2048;

/** Parses one seed (a URL plus optional `key=value` settings); throws ValidationError with the reason. */
export function parseSeed(line: string, defaults: Partial<Seed> = {}): Seed {
  const [rawUrl, ...settings] = line.trim().split(/\s+/);
  if (!rawUrl) throw new ValidationError('empty seed');
  let url: string;
  try {
    url = normalizeUrl(rawUrl);
  } catch {
    throw new ValidationError(`not an absolute http(s) URL: ${rawUrl}`);
  }
  if (url.length > MAX_URL_CHARS) {
    throw new ValidationError(`URL longer than ${MAX_URL_CHARS} characters (${url.length})`);
  }
  const parsed = new URL(url);
  // Normalizing drops credentials: a seed naming some would be crawled without them, silently.
  const given = URL.canParse(rawUrl) ? new URL(rawUrl) : parsed;
  if (given.username !== '' || given.password !== '') {
    throw new ValidationError(`a seed URL holds no user name or password (${parsed.host}); Quarry crawls public pages`);
  }
  const hostProblem = hostNameProblem(parsed.hostname);
  if (hostProblem !== null) throw new ValidationError(hostProblem);
  const seed: { -readonly [K in keyof Seed]: Seed[K] } = { ...SEED_DEFAULTS, ...defaults, url };
  for (const setting of settings) {
    const match = SETTING.exec(setting);
    if (!match) {
      // A word with no `=` after the URL is most often the rest of a URL with a space in it.
      const hint = setting.includes('=') ? '' : `; a URL cannot hold a space (write it %20): "${rawUrl} ${setting}"`;
      throw new ValidationError(`unknown setting "${setting}" (depth=, pages=, render=, scope=)${hint}`);
    }
    const [, key, value = ''] = match;
    if (key === 'depth' || key === 'pages') {
      const n = Number(value);
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || (key === 'pages' && n < 1)) {
        throw new ValidationError(
          `${key}= needs a whole number${key === 'pages' ? ' ≥ 1' : ', 0 or more'}, not "${value}"`,
        );
      }
      if (key === 'depth') seed.maxDepth = n;
      else seed.maxPages = n;
    } else if (key === 'render') {
      if (value !== 'auto' && value !== 'always' && value !== 'never') {
        throw new ValidationError(`render= must be auto, always or never, not "${value}"`);
      }
      seed.render = value;
    } else if (key === 'scope') {
      if (value !== 'host' && value !== 'domain' && value !== 'prefix' && value !== 'any') {
        throw new ValidationError(`scope= must be host, domain, prefix or any, not "${value}"`);
      }
      seed.scope = value;
    }
  }
  return seed;
}

/**
 * Why a seed's host name can be no DNS name (RFC 1035's lengths: 253 in all, 63 a label), or null.
 * The URL parser takes `exa..mple.com` and `.example.com`; a seed with such a host would only fail
 * at its lookup, after it was reported queued. Other characters (`_`) are left to DNS.
 */
function hostNameProblem(hostname: string): string | null {
  if (hostname.startsWith('[')) return null; // an IPv6 literal, checked by the URL parser
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (name.length > 253) return `host name longer than 253 characters (${name.length})`;
  const labels = name.split('.');
  if (labels.some((label) => label === '')) {
    return `host name "${hostname}" has an empty label (two dots in a row, or a leading dot)`;
  }
  if (labels.some((label) => label.length > 63)) return `host name "${hostname}" has a label longer than 63 characters`;
  return null;
}

/** A seeds file: one seed per line, `#` starts a comment, blank lines ignored. Errors name the line. */
export function parseSeedsText(text: string, defaults: Partial<Seed> = {}): Seed[] {
  return parseSeedLines(text, defaults).map(({ seed }) => seed);
}

/** A seeds file's seeds with their line numbers (1-based), as {@link parseSeedsText} reads them. */
export function parseSeedLines(text: string, defaults: Partial<Seed> = {}): { seed: Seed; line: number }[] {
  const seeds: { seed: Seed; line: number }[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') return;
    try {
      seeds.push({ seed: parseSeed(line, defaults), line: i + 1 });
    } catch (error) {
      problems.push(`line ${i + 1}: ${(error as Error).message}`);
    }
  });
  if (problems.length > 0) throw new SeedsError(problems);
  return seeds;
}

/** Bad seeds: `problems` has one entry per bad line (`line 4: not an absolute http(s) URL: ftp://b.org`). */
export class SeedsError extends ValidationError {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`bad seeds:\n  ${problems.join('\n  ')}`);
    this.problems = problems;
  }
}

/** Reads and parses a seeds file (see {@link parseSeedsText}); throws {@link SeedsError} for bad lines. */
export async function readSeedsFile(path: string, defaults: Partial<Seed> = {}): Promise<Seed[]> {
  return parseSeedsText(await readFile(path, 'utf8'), defaults);
}

/**
 * Whether two URLs are on one host (port included) or on a host and its `www.` twin
 * (`example.org`, `www.example.org`); false when either is not a URL.
 */
export function sameHostOrTwin(a: string, b: string): boolean {
  const bare = (url: string) => new URL(url).host.replace(/^www\./, '');
  try {
    return bare(a) === bare(b);
  } catch {
    return false;
  }
}

/** The budget key and membership test for a seed's scope. */
export function scopeOf(seed: Seed): { key: string; contains(url: string): boolean } {
  const seedUrl = new URL(seed.url);
  const host = seedUrl.hostname;
  switch (seed.scope) {
    case 'any':
      return { key: `any:${host}`, contains: () => true };
    case 'domain': {
      const base = host.replace(/^www\./, '');
      return {
        key: `domain:${base}`,
        contains: (url) => {
          const h = new URL(url).hostname;
          return h === base || h.endsWith(`.${base}`);
        },
      };
    }
    case 'prefix': {
      const prefix = seed.url.replace(/[?#].*$/, '').replace(/[^/]*$/, '');
      // Either scheme: a site moving to https: keeps its paths (as the other scopes, by host).
      return {
        key: `prefix:${prefix}`,
        contains: (url) => url.startsWith(prefix) || withOtherScheme(url).startsWith(prefix),
      };
    }
    default:
      // A host and its `www.` twin are one site: a seed of `example.org` that redirects to
      // `www.example.org` (as most sites do, or the reverse) crawls the site it lands on.
      return { key: `host:${seedUrl.host}`, contains: (url) => sameHostOrTwin(url, seed.url) };
  }
}

/** The per-seed settings a task carries in its `meta`, so any worker process can apply them. */
export function seedMeta(seed: Seed): Record<string, string> {
  return { maxDepth: String(seed.maxDepth), maxPages: String(seed.maxPages), scope: seed.scope, render: seed.render };
}

/** Scopes from the narrowest: a path's pages, a host's, a domain's, any site's. */
const SCOPE_WIDTH: Readonly<Record<CrawlScope, number>> = { prefix: 0, host: 1, domain: 2, any: 3 };

/**
 * Whether `seed` reaches further than the settings `meta` carries (see {@link seedMeta}; a task
 * without them has the defaults): a larger page budget or depth, or a wider scope. A seed given
 * again so is crawled again under its new settings; one that asks for as much or less is not.
 */
export function reachesFurther(meta: Readonly<Record<string, string>> | undefined, seed: Seed): boolean {
  const before = seedOf({ url: seed.url, seed: seed.url, depth: 0, scope: '', attempt: 1, meta: meta ?? {} });
  return (
    seed.maxPages > before.maxPages ||
    seed.maxDepth > before.maxDepth ||
    (SCOPE_WIDTH[seed.scope] ?? 1) > (SCOPE_WIDTH[before.scope] ?? 1)
  );
}

/** The seed a task was queued for, from the settings its `meta` carries (see {@link seedMeta}). */
export function seedOf(task: CrawlTask): Seed {
  const meta = task.meta ?? {};
  return {
    url: task.seed,
    maxDepth: Number(meta.maxDepth ?? 3),
    maxPages: Number(meta.maxPages ?? 1000),
    scope: (meta.scope ?? 'host') as CrawlScope,
    render: (task.render ?? meta.render ?? 'auto') as RenderMode,
  };
}

/** Tasks for URLs found on a page (or in a sitemap), filtered by scope and depth. */
export function followUps(urls: readonly string[], seed: Seed, depth: number): NewCrawlTask[] {
  if (depth > seed.maxDepth) return [];
  const scope = scopeOf(seed);
  const tasks: NewCrawlTask[] = [];
  for (const raw of urls) {
    let url: string;
    try {
      url = normalizeUrl(raw);
    } catch {
      continue;
    }
    if (url.length > MAX_URL_CHARS || !scope.contains(url) || isPathologicalPath(url)) continue;
    tasks.push({
      url,
      depth,
      scope: scope.key,
      seed: seed.url,
      render: seed.render,
      meta: seedMeta(seed),
      maxPagesInScope: seed.maxPages,
    });
  }
  return tasks;
}
