import { adminTokenProblem, type BlobStore, type HostBackoff, type SearchIndex } from '@quarry/core';
import type { CrawlQueue, IndexQueue } from '@quarry/queue';
import type { Queue } from 'bullmq';
import type { RequestHandler } from 'express';

/** What {@link createAdminRouter} needs; every tunable has its default in {@link ADMIN_DEFAULTS}. */
export interface AdminRouterOptions {
  /** The admin token (QUARRY_ADMIN_TOKEN), as its configuration checks it; the area never opens without one. */
  readonly token: string;
  readonly crawl: CrawlQueue;
  readonly index: IndexQueue;
  readonly searchIndex: SearchIndex;
  /** The page store, from which a forgotten site's pages are removed with it; without it they stay. */
  readonly blobs?: BlobStore;
  /**
   * The hosts the crawler is backing off from: `quarry start` passes its crawler's `backingOff()`,
   * and in distributed mode every process the shared board's (`Queues.backoffs`). Absent where
   * nothing knows them (`quarry serve` of an embedded crawl), which the stats then say
   * (`backingOff: null`) rather than showing an empty list.
   */
  readonly backingOff?: () => readonly HostBackoff[] | Promise<readonly HostBackoff[]>;
  /**
   * What the queue backend asks the operator to act on (`Queues.notices`: in distributed mode, a
   * loss of Redis's data noticed in the last 7 days), shown with the search index's notices.
   */
  readonly queueNotices?: () => Promise<readonly string[]>;
  /** BullMQ queues shown by Bull Board at `/queues` (distributed mode); absent in embedded mode. */
  readonly bullQueues?: readonly Queue[];
  /**
   * Bull Board without pause, retry, clean, empty or remove buttons. Read-only by default: those
   * act on BullMQ's jobs behind Quarry's own bookkeeping (a retried failed job was crawled again and
   * counted failed twice; an emptied queue dropped URLs the crawl had seen, never to crawl them).
   * @defaultValue true
   */
  readonly bullBoardReadOnly?: boolean;
  /**
   * Counts wrong admin tokens per client, the login form's and bearers', before they are compared,
   * and refuses (429) once they are spent. Give the limiter the other routes taking the admin token
   * count with (the API's `adminGuesses`, for `/metrics` and `/mcp`), so that one lockout covers
   * them all; it must leave out requests marked by `acceptCredential` or answering under 400, and
   * answer through `spentGuessesAnswer` when a route set one.
   * @defaultValue a limiter of the router's own, {@link maxFailedLogins} per {@link failedLoginWindowMs}
   */
  readonly guessLimiter?: RequestHandler;
  /**
   * A file keeping logged-out sessions until they would have expired, so that a logout outlasts a
   * restart and reaches every process serving the dashboard from the same data dir (`quarry start`
   * and `quarry serve` pass `admin-logouts.json` in it). Without it, logouts are kept in memory.
   */
  readonly revokedSessionsFile?: string;
  /** Lifetime of a login session cookie. @defaultValue 43200000 (12 hours) */
  readonly sessionTtlMs?: number;
  /** Failed logins (form or bearer) per client IP per window before 429, without a {@link guessLimiter}. @defaultValue 10 */
  readonly maxFailedLogins?: number;
  /** Window of {@link maxFailedLogins}. @defaultValue 900000 (15 minutes) */
  readonly failedLoginWindowMs?: number;
  /** How long the stats, or a Bull Board request, may take before the answer is a 503. @defaultValue 5000 */
  readonly statsTimeoutMs?: number;
  /** How often the dashboard page polls the stats. @defaultValue 5000 */
  readonly refreshIntervalMs?: number;
  /** Called with backend errors behind a 503, so the caller can log them. @defaultValue ignore */
  readonly onError?: (err: unknown) => void;
}

/** Defaults of every {@link AdminRouterOptions} tunable, in one place. */
export const ADMIN_DEFAULTS = {
  bullBoardReadOnly: true,
  sessionTtlMs: 12 * 3_600_000,
  maxFailedLogins: 10,
  failedLoginWindowMs: 15 * 60_000,
  statsTimeoutMs: 5000,
  refreshIntervalMs: 5000,
} as const;

/** Options with every default applied. */
type OptionalAdminOption =
  | 'bullQueues'
  | 'backingOff'
  | 'blobs'
  | 'guessLimiter'
  | 'revokedSessionsFile'
  | 'queueNotices';
export type ResolvedAdminOptions = Required<Omit<AdminRouterOptions, OptionalAdminOption>> &
  Pick<AdminRouterOptions, OptionalAdminOption>;

const ignore = (): void => {};

/** Applies the defaults; throws for a token QUARRY_ADMIN_TOKEN would refuse and for non-positive durations. */
export function resolveAdminOptions(options: AdminRouterOptions): ResolvedAdminOptions {
  const problem = typeof options.token === 'string' ? adminTokenProblem(options.token) : 'expected a string';
  if (problem !== null) throw new RangeError(`the admin token: ${problem}`);
  const resolved: ResolvedAdminOptions = {
    ...options,
    bullBoardReadOnly: options.bullBoardReadOnly ?? ADMIN_DEFAULTS.bullBoardReadOnly,
    sessionTtlMs: options.sessionTtlMs ?? ADMIN_DEFAULTS.sessionTtlMs,
    maxFailedLogins: options.maxFailedLogins ?? ADMIN_DEFAULTS.maxFailedLogins,
    failedLoginWindowMs: options.failedLoginWindowMs ?? ADMIN_DEFAULTS.failedLoginWindowMs,
    statsTimeoutMs: options.statsTimeoutMs ?? ADMIN_DEFAULTS.statsTimeoutMs,
    refreshIntervalMs: options.refreshIntervalMs ?? ADMIN_DEFAULTS.refreshIntervalMs,
    onError: options.onError ?? ignore,
  };
  for (const name of [
    'sessionTtlMs',
    'maxFailedLogins',
    'failedLoginWindowMs',
    'statsTimeoutMs',
    'refreshIntervalMs',
  ] as const) {
    const value = resolved[name];
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  }
  return resolved;
}
