import { BackendUnavailableError, type SearchIndex } from '@quarry/core';
import type { RequestHandler } from 'express';
import { BACKEND_RETRY_AFTER_SECS } from './error-handler.js';
import { sendProblem } from './problem.js';

/** A backend every search needs besides the index (Redis, for the rate-limit counters and keys). */
export interface HealthCheck {
  /** Named in the 503's detail: `Redis (rate limits and keys)`. */
  readonly name: string;
  /**
   * Resolves when the backend serves; rejects (within its own timeout) when it does not, with a
   * `BackendUnavailableError` whose message says why in words when it can (Redis out of memory).
   */
  ping(): Promise<unknown>;
}

/**
 * `GET /healthz`: 200 `{status: "ok"}` when the index and every other backend a search needs
 * answer, 503 naming the first that does not: a replica whose Redis is away (or refuses writes at
 * its maxmemory) answers every search with a 503, so a load balancer must not count it healthy.
 */
export function healthRoute(index: SearchIndex, checks: readonly HealthCheck[] = []): RequestHandler {
  const all: readonly HealthCheck[] = [{ name: 'The search index', ping: () => index.ping() }, ...checks];
  return async (req, res) => {
    const results = await Promise.allSettled(all.map((check) => check.ping()));
    const failed = results.findIndex((result) => result.status === 'rejected');
    if (failed >= 0) {
      const { name } = all[failed]!;
      const reason: unknown = (results[failed] as PromiseRejectedResult).reason;
      // The message alone: a health check polled every few seconds logs no stack traces.
      req.log.warn(
        { err: reason instanceof Error ? reason.message : String(reason), backend: name },
        'health check failed',
      );
      res.setHeader('Retry-After', String(BACKEND_RETRY_AFTER_SECS));
      const detail =
        reason instanceof BackendUnavailableError ? `${name}: ${reason.message}` : `${name} is not answering.`;
      sendProblem(res, 'backend-unavailable', detail);
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  };
}
