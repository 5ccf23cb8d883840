import { hostOf, QuarryError, RetryableError } from '@quarry/core';
import { DEFAULTS } from './options.js';
import {
  type CrawlOutcome,
  type CrawlTask,
  type CrawlWorkOptions,
  FINISHED_STATES,
  type FinishedState,
  type RecrawlOptions,
} from './types.js';

/** Bounds of a stored task meta: it travels with every task and is kept for every URL. */
const MAX_META_KEYS = 32;
const MAX_META_VALUE_CHARS = 1024;
/** Ceiling of `RecrawlOptions.limit`. */
const RECRAWL_MAX_LIMIT = 1_000_000;

/**
 * Why a task that never ended in any of its tries was failed: its process died on it each time (out
 * of memory, a native crash, a supervisor's kill), so it is not handed to the next process.
 */
export const CRASHED_REASON = 'crashed';

/** What to do with a task whose handler threw. */
export interface FailureDecision {
  readonly retryable: boolean;
  /** Stable code recorded as the failure reason. */
  readonly code: string;
  /** Host backoff asked by the remote side (Retry-After), capped. */
  readonly hostBackoffMs: number;
  /** The soonest the task's next try may come (its error's `retryInMs`), capped; 0 for none. */
  readonly retryFloorMs?: number;
}

/** Reason recorded for errors that are not Quarry errors: a bug or an unexpected library error. */
export const INTERNAL_REASON = 'internal';

/** A throttled page's wait after its first try when the host sends no Retry-After; doubled each try. */
export const THROTTLE_BACKOFF_MS = 15_000;
/**
 * The host's rest after a 503 without Retry-After: short, as one broken address answers 503 for
 * good while the rest of the site is well (four such pages, each resting the host 15 s and then
 * 30 s, held a healthy site's pages back seven minutes); the page itself waits
 * {@link THROTTLE_BACKOFF_MS}, doubled each try, so that an outage of a minute loses nothing.
 */
export const UNAVAILABLE_REST_MS = 5_000;

/**
 * Classifies a handler error by core's error tree; codes are kept to a safe, bounded shape. A
 * host's back-off is its Retry-After. Without one, a 429 (the host limiting requests) rests the
 * host {@link THROTTLE_BACKOFF_MS}, doubled with each try of the page (`attempt`, 1-based), and a
 * 503 rests it {@link UNAVAILABLE_REST_MS} while the page waits the doubled time: at a steady
 * second apart, a site limiting requests had most of them refused and its pages failed, and one
 * down for a minute lost the pages it was asked in that minute.
 */
export function classifyError(err: unknown, maxRetryDelayMs: number, attempt = 1): FailureDecision {
  if (err instanceof QuarryError) {
    const retryAfterSecs = err instanceof RetryableError ? err.retryAfterSecs : undefined;
    const throttledMs = THROTTLE_BACKOFF_MS * 2 ** Math.max(0, attempt - 1);
    const unannounced = retryAfterSecs === undefined;
    const restMs = !unannounced
      ? retryAfterSecs * 1000
      : err.code === 'http_429'
        ? throttledMs
        : err.code === 'http_503'
          ? UNAVAILABLE_REST_MS
          : 0;
    const retryInMs = Math.max(
      err instanceof RetryableError ? (err.retryInMs ?? 0) : 0,
      unannounced && err.code === 'http_503' ? throttledMs : 0,
    );
    return {
      retryable: err.retryable,
      code: safeReason(err.code),
      hostBackoffMs: Math.min(Math.max(0, restMs), maxRetryDelayMs),
      ...(retryInMs > 0 ? { retryFloorMs: Math.min(retryInMs, maxRetryDelayMs) } : {}),
    };
  }
  return { retryable: false, code: INTERNAL_REASON, hostBackoffMs: 0 };
}

/**
 * Whether an index handler failed because the index or the page store is unavailable (core's
 * `BackendUnavailableError`): no fault of the documents, so it never makes them fail for good.
 */
export function isIndexOutage(err: unknown): boolean {
  return err instanceof QuarryError && err.code === 'backend_unavailable';
}

/** Exponential backoff after try number `attempt` (1-based) failed, at least the host backoff. */
export function retryDelayMs(
  attempt: number,
  hostBackoffMs: number,
  options: { retryBaseDelayMs: number; maxRetryDelayMs: number },
): number {
  const exponential = options.retryBaseDelayMs * 2 ** Math.max(0, attempt - 1);
  return Math.min(Math.max(exponential, hostBackoffMs), options.maxRetryDelayMs);
}

/** How long a postponed task's host rests from now: what the outcome asks, within the retry cap. */
export function restMsOf(outcome: CrawlOutcome, options: { maxRetryDelayMs: number }): number {
  const restMs = outcome.restMs ?? 0;
  return Number.isFinite(restMs) ? Math.min(Math.max(0, Math.round(restMs)), options.maxRetryDelayMs) : 0;
}

/** Reasons become Redis hash fields and SQL values: keep them short and plain. */
export function safeReason(reason: string | undefined): string {
  if (reason === undefined || reason === '') return 'unknown';
  const cleaned = reason.replace(/[^A-Za-z0-9_.:-]/g, '_').slice(0, 64);
  return cleaned === '' ? 'unknown' : cleaned;
}

/** Validates what a handler resolved to; a malformed outcome is a bug and fails as `internal`. */
export function checkOutcome(outcome: unknown): CrawlOutcome {
  if (typeof outcome === 'object' && outcome !== null) {
    const status = (outcome as { status?: unknown }).status;
    if (status === 'done' || status === 'skipped' || status === 'failed' || status === 'postponed') {
      const { meta, ...rest } = outcome as CrawlOutcome;
      const checked = checkMeta(meta);
      return checked ? { ...rest, meta: checked } : rest;
    }
  }
  return { status: 'failed', reason: INTERNAL_REASON };
}

/**
 * The outcome's `lastRequestAgoMs` as a whole number of milliseconds, 0 or more; -1 when it gives
 * none (or nonsense, which is ignored rather than trusted).
 */
/**
 * Whether a worker's `needsNoRequest` says a task sends no request; a hook that throws (or returns
 * anything but true) says it does, and the task takes its slot as any other.
 */
export function askedNoRequest(hook: CrawlWorkOptions['needsNoRequest'], task: CrawlTask): boolean {
  if (!hook) return false;
  try {
    return hook(task) === true;
  } catch {
    return false;
  }
}

export function requestAgoOf(outcome: CrawlOutcome): number {
  const ago = outcome.lastRequestAgoMs;
  return typeof ago === 'number' && Number.isFinite(ago) && ago >= 0 ? Math.round(ago) : -1;
}

/** Keeps string entries only, within bounds (an oversized value is dropped, not truncated). */
function checkMeta(meta: unknown): Record<string, string> | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const entries = Object.entries(meta).filter(
    (e): e is [string, string] => typeof e[1] === 'string' && e[1].length <= MAX_META_VALUE_CHARS && e[0].length <= 64,
  );
  return entries.length === 0 ? undefined : Object.fromEntries(entries.slice(0, MAX_META_KEYS));
}

/** Validates recrawl options and applies their defaults; throws a `RangeError` for nonsense. */
export function checkRecrawlOptions(options: RecrawlOptions): {
  states: readonly FinishedState[];
  limit: number;
  olderThanMs: number;
} {
  const { olderThanMs, limit = DEFAULTS.recrawlLimit, states = ['done'] } = options;
  if (!Number.isFinite(olderThanMs) || olderThanMs < 0)
    throw new RangeError('olderThanMs must be a non-negative number');
  if (!Number.isInteger(limit) || limit < 1 || limit > RECRAWL_MAX_LIMIT) {
    throw new RangeError(`limit must be an integer from 1 to ${RECRAWL_MAX_LIMIT}`);
  }
  if (states.length === 0 || states.some((s) => !FINISHED_STATES.includes(s))) {
    throw new RangeError(`states must be some of ${FINISHED_STATES.join(', ')}`);
  }
  return { states: [...new Set(states)], limit, olderThanMs };
}

/** The unit of politeness: the URL's host name (all ports of one host share one budget of requests). */
export function hostKey(url: string): string {
  return hostOf(url);
}
