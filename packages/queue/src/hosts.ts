/** What `CrawlQueue.hosts` can order by: a count, most first, or the last URL finished, newest first. */
export type HostSort = 'queued' | 'done' | 'skipped' | 'failed' | 'last';

/** Every {@link HostSort}, the default first. */
export const HOST_SORTS: readonly HostSort[] = ['queued', 'done', 'skipped', 'failed', 'last'];

/** Bounds of a {@link HostQuery}: one page of hosts, not the whole crawl. */
export const HOST_QUERY_LIMITS = {
  /** Most hosts on one page. */
  maxLimit: 100,
  /** Deepest offset: a crawl of more hosts is found by its filter, not by paging 1,000 pages. */
  maxOffset: 100_000,
  /** Longest filter: a host name has at most 253 characters. */
  maxFilterChars: 253,
} as const;

/**
 * Characters a host filter may hold: those of host names as the queue keeps them (lower case,
 * punycode, IPv6 without brackets). None is a LIKE or glob wildcard, so neither backend escapes.
 */
export const HOST_FILTER_PATTERN = /^[a-z0-9.:_-]+$/;

/** Reasons listed per state and host in {@link HostCounts.reasons}. */
export const HOST_REASONS_LISTED = 3;

/** One page of `CrawlQueue.hosts`. */
export interface HostQuery {
  readonly sort: HostSort;
  /** Hosts on the page, 1 to {@link HOST_QUERY_LIMITS}.maxLimit. */
  readonly limit: number;
  /** Hosts skipped before the page, 0 to {@link HOST_QUERY_LIMITS}.maxOffset. */
  readonly offset: number;
  /** Only hosts whose name contains this (lower case, {@link HOST_FILTER_PATTERN}). */
  readonly q?: string;
}

/** One host's crawl, as `CrawlQueue.hosts` lists it. */
export interface HostCounts {
  /** The host name, as crawled: data, to show as text. */
  readonly host: string;
  /** URLs waiting: queued, or waiting for a retry. */
  readonly queued: number;
  /** URLs being crawled now (the distributed queue: politeness slots held). */
  readonly inFlight: number;
  readonly done: number;
  readonly skipped: number;
  readonly failed: number;
  /** The most frequent reasons, {@link HOST_REASONS_LISTED} per state at most, most frequent first. */
  readonly reasons: readonly {
    readonly state: 'skipped' | 'failed';
    readonly reason: string;
    readonly count: number;
  }[];
  /** When a URL of the host last ended (done, skipped or failed), epoch ms; null before any did. */
  readonly lastFinishedMs: number | null;
}

/** A page of hosts and how many hosts match in all. */
export interface HostPage {
  /** Hosts matching the filter, listed or not. */
  readonly total: number;
  readonly hosts: readonly HostCounts[];
  /**
   * What done, skipped and failed count. `urls`: the host's URLs in that state now (the embedded
   * queue, as its totals). `outcomes`: outcomes recorded since the counters were introduced
   * (the distributed queue, 2026-12-05): a page crawled again counts again.
   */
  readonly counting: 'urls' | 'outcomes';
}

/** Checks a {@link HostQuery}; throws a RangeError naming the first bad field. */
export function checkHostQuery(query: HostQuery): HostQuery {
  const { sort, limit, offset, q } = query;
  if (!HOST_SORTS.includes(sort)) throw new RangeError(`sort must be one of ${HOST_SORTS.join(', ')}`);
  if (!Number.isInteger(limit) || limit < 1 || limit > HOST_QUERY_LIMITS.maxLimit) {
    throw new RangeError(`limit must be an integer from 1 to ${HOST_QUERY_LIMITS.maxLimit}`);
  }
  if (!Number.isInteger(offset) || offset < 0 || offset > HOST_QUERY_LIMITS.maxOffset) {
    throw new RangeError(`offset must be an integer from 0 to ${HOST_QUERY_LIMITS.maxOffset}`);
  }
  if (
    q !== undefined &&
    (q.length < 1 || q.length > HOST_QUERY_LIMITS.maxFilterChars || !HOST_FILTER_PATTERN.test(q))
  ) {
    throw new RangeError('q must be part of a host name: 1 to 253 of a-z 0-9 . : _ -');
  }
  return query;
}

/** The top reasons per state of one host, from (state, reason, count) rows in any order. */
export function topHostReasons(rows: readonly HostCounts['reasons'][number][]): HostCounts['reasons'] {
  return (['skipped', 'failed'] as const).flatMap((state) =>
    rows
      .filter((r) => r.state === state && r.count > 0)
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason))
      .slice(0, HOST_REASONS_LISTED),
  );
}
