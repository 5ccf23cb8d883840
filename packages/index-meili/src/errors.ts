/**
 * Meilisearch client failures → Quarry's error tree. Messages name what failed, never the URL,
 * the key or a stack; the original error stays in `cause` for server-side logs.
 */
import { BackendUnavailableError, NonRetryableError, QuarryError } from '@quarry/core';
import { MeilisearchApiError, MeilisearchError } from 'meilisearch';

/** Whether an error is Meilisearch answering 404 (unknown document or index). */
export function isNotFound(error: unknown): boolean {
  return error instanceof MeilisearchApiError && error.response.status === 404;
}

/**
 * Wraps a client error: unreachable server, timeouts and 5xx answers are a retryable
 * `BackendUnavailableError`; any other refusal (a request Quarry built wrongly) is a
 * `NonRetryableError` with code `index_request_rejected`. Quarry errors pass through.
 */
export function toQuarryError(error: unknown, action: string): QuarryError {
  if (error instanceof QuarryError) return error;
  if (error instanceof MeilisearchApiError) {
    const status = error.response.status;
    const code = typeof error.cause?.code === 'string' ? error.cause.code : 'unknown';
    if (status >= 500 || status === 429) {
      return new BackendUnavailableError(`Meilisearch could not ${action} (HTTP ${status}, ${code}).`, error);
    }
    return new NonRetryableError(
      `Meilisearch refused to ${action} (HTTP ${status}, ${code}).`,
      'index_request_rejected',
      error,
    );
  }
  if (error instanceof MeilisearchError || error instanceof TypeError) {
    return new BackendUnavailableError(`Meilisearch is unreachable; could not ${action}.`, error);
  }
  return new BackendUnavailableError(`Meilisearch failed to ${action}.`, error);
}
