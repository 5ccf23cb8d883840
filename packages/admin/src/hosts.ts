import { type HostBackoff, toIsoUtc } from '@quarry/core';
import {
  type CrawlQueue,
  HOST_FILTER_PATTERN,
  HOST_QUERY_LIMITS,
  HOST_SORTS,
  type HostCounts,
  type HostPage,
  type HostQuery,
  type HostSort,
  listsRead,
} from '@quarry/queue';
import { StatsTimeoutError } from './stats.js';

/** Hosts a page lists when the request names no `limit`. */
export const DEFAULT_HOSTS_LIMIT = 50;

/** One host in `GET /admin/api/hosts`. */
export interface AdminHost extends Omit<HostCounts, 'lastFinishedMs'> {
  /**
   * Pages skipped: `skipped` without {@link listsRead}, as the dashboard's Skipped tile counts them
   * (`skippedPages` of `/admin/api/stats`), so that the hosts' add up to it.
   */
  readonly skippedPages: number;
  /**
   * Sitemaps and feeds read (and a seed's sitemap tried and missing): skipped URLs, not pages. Told
   * apart by the host's reasons, of which only the most frequent are listed: lists rarer than those
   * count as pages.
   */
  readonly listsRead: number;
  /** When a URL of the host last ended (done, skipped or failed), ISO 8601 UTC; null before any did. */
  readonly lastFinishedAt: string | null;
  /**
   * Why and until when this process's crawler backs off from the host; null when it does not, or
   * when the process runs no crawler (then {@link AdminHosts.backoffKnown} is false).
   */
  readonly backingOff: { readonly reason: string; readonly until: string } | null;
}

/** The body of `GET /admin/api/hosts`. */
export interface AdminHosts {
  readonly sort: HostSort;
  readonly limit: number;
  readonly offset: number;
  /** The host filter, or null. */
  readonly q: string | null;
  /** Hosts matching the filter, listed or not. */
  readonly total: number;
  /** `urls`: the host's URLs in each state now (embedded); `outcomes`: outcomes recorded (distributed). */
  readonly counting: HostPage['counting'];
  /** Whether `backingOff` is known: false where the process runs no crawler (`quarry serve`). */
  readonly backoffKnown: boolean;
  readonly hosts: readonly AdminHost[];
  /** When the counts were read, ISO 8601 UTC. */
  readonly at: string;
}

/** A query parameter the hosts view refuses, with what to send instead. */
export class BadHostsParam extends Error {
  readonly param: string;
  constructor(param: string, message: string) {
    super(message);
    this.param = param;
    this.name = 'BadHostsParam';
  }
}

/**
 * Reads the hosts view's parameters (`sort`, `limit`, `offset`, `q`) from a request's query; an
 * empty `q` (an empty filter field) is no filter. Throws {@link BadHostsParam} for a bad one.
 */
export function parseHostsQuery(query: Record<string, unknown>): HostQuery {
  const one = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new BadHostsParam(name, `Give ${name} once, as text.`);
    return value;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = one(name);
    if (raw === undefined) return fallback;
    const n = /^\d{1,7}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(n >= min && n <= max)) throw new BadHostsParam(name, `${name} must be an integer from ${min} to ${max}.`);
    return n;
  };
  const sortRaw = one('sort') ?? HOST_SORTS[0];
  const sort = HOST_SORTS.find((s) => s === sortRaw);
  if (!sort) throw new BadHostsParam('sort', `sort must be one of ${HOST_SORTS.join(', ')}.`);
  const limit = integer('limit', DEFAULT_HOSTS_LIMIT, 1, HOST_QUERY_LIMITS.maxLimit);
  const offset = integer('offset', 0, 0, HOST_QUERY_LIMITS.maxOffset);
  const q = one('q')?.trim().toLowerCase();
  if (q === undefined || q === '') return { sort, limit, offset };
  if (q.length > HOST_QUERY_LIMITS.maxFilterChars || !HOST_FILTER_PATTERN.test(q)) {
    throw new BadHostsParam('q', 'q must be part of a host name: up to 253 of a-z 0-9 . : _ -');
  }
  return { sort, limit, offset, q };
}

/** Reads one page of hosts within `timeoutMs`, each with this process's back-off from it. */
export async function collectHosts(
  sources: {
    crawl: CrawlQueue;
    backingOff?: (() => readonly HostBackoff[] | Promise<readonly HostBackoff[]>) | undefined;
  },
  query: HostQuery,
  timeoutMs: number,
): Promise<AdminHosts> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new StatsTimeoutError(timeoutMs)), timeoutMs);
  });
  try {
    const [page, backingOff] = await Promise.race([
      Promise.all([sources.crawl.hosts(query), sources.backingOff?.() ?? []]),
      timeout,
    ]);
    const backoffs = new Map(backingOff.map((b) => [b.host, b]));
    return {
      sort: query.sort,
      limit: query.limit,
      offset: query.offset,
      q: query.q ?? null,
      total: page.total,
      counting: page.counting,
      backoffKnown: sources.backingOff !== undefined,
      hosts: page.hosts.map(({ lastFinishedMs, ...counts }) => {
        const backoff = backoffs.get(counts.host);
        const lists = hostListsRead(counts);
        return {
          ...counts,
          skippedPages: counts.skipped - lists,
          listsRead: lists,
          lastFinishedAt: lastFinishedMs === null ? null : toIsoUtc(new Date(lastFinishedMs)),
          backingOff: backoff ? { reason: backoff.reason, until: toIsoUtc(new Date(backoff.untilMs)) } : null,
        };
      }),
      at: toIsoUtc(new Date()),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The sitemaps and feeds among a host's skipped URLs, by its reasons, as `listsRead` finds them among the crawl's. */
function hostListsRead(counts: Omit<HostCounts, 'lastFinishedMs'>): number {
  return listsRead({ ...counts, topFailures: [], reasons: counts.reasons.map((r) => ({ ...r, examples: [] })) });
}
