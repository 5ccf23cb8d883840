import { hostOf, QuarryError, RetryableError } from '@quarry/core';
import type { CrawlOutcome } from './types.js';

/** What to do with a task whose handler threw. */
export interface FailureDecision {
  readonly retryable: boolean;
  /** Stable code recorded as the failure reason. */
  readonly code: string;
  /** Host backoff asked by the remote side (Retry-After), capped. */
  readonly hostBackoffMs: number;
}

/** Reason recorded for errors that are not Quarry errors: a bug or an unexpected library error. */
export const INTERNAL_REASON = 'internal';

/** Classifies a handler error by core's error tree; codes are kept to a safe, bounded shape. */
export function classifyError(err: unknown, maxRetryDelayMs: number): FailureDecision {
  if (err instanceof QuarryError) {
    const retryAfterSecs = err instanceof RetryableError ? (err.retryAfterSecs ?? 0) : 0;
    return {
      retryable: err.retryable,
      code: safeReason(err.code),
      hostBackoffMs: Math.min(Math.max(0, retryAfterSecs * 1000), maxRetryDelayMs),
    };
  }
  return { retryable: false, code: INTERNAL_REASON, hostBackoffMs: 0 };
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
    if (status === 'done' || status === 'skipped' || status === 'failed') return outcome as CrawlOutcome;
  }
  return { status: 'failed', reason: INTERNAL_REASON };
}

/** The unit of politeness: the URL's host name (all ports of one host share one budget of requests). */
export function hostKey(url: string): string {
  return hostOf(url);
}
