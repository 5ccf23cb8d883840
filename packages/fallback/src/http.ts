import { RetryableError } from '@quarry/core';

/** Limits of one provider call. */
export interface FetchJsonOptions {
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  /** Largest body read; a longer answer is an error. */
  readonly maxBodyBytes: number;
  /** `error` for providers that get a secret header, which must not follow a redirect elsewhere. */
  readonly redirect: 'follow' | 'error';
}

/** Longest Retry-After honoured, so a broken or hostile provider cannot switch the fallback off for good. */
const MAX_RETRY_AFTER_SECS = 3600;

/**
 * GETs a provider URL and returns its parsed JSON. Everything that is not a 2xx JSON answer within
 * the size limit throws a {@link RetryableError} whose message is safe to log (it never contains
 * request headers, so never an API key); a 429 carries `retryAfterSecs` when the provider said.
 */
export async function fetchJson(url: URL, options: FetchJsonOptions): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json', ...options.headers },
      signal: options.signal,
      redirect: options.redirect,
    });
  } catch (err) {
    if (options.signal.aborted) throw err;
    throw new RetryableError(`network error: ${describeNetworkError(err)}`, 'fallback_network');
  }
  try {
    if (response.status === 429) {
      const retryAfterSecs = parseRetryAfter(response.headers.get('retry-after'));
      throw new RetryableError(
        `rate limited (HTTP 429${retryAfterSecs === undefined ? '' : `, retry after ${retryAfterSecs} s`})`,
        'fallback_rate_limited',
        retryAfterSecs === undefined ? {} : { retryAfterSecs },
      );
    }
    if (response.status < 200 || response.status > 299) {
      throw new RetryableError(`HTTP ${response.status}`, 'fallback_http_status');
    }
    const type = response.headers.get('content-type') ?? '';
    if (!/\bjson\b/i.test(type)) {
      throw new RetryableError(`not JSON (content-type "${type.slice(0, 60)}")`, 'fallback_bad_response');
    }
    const text = await readLimited(response, options.maxBodyBytes);
    try {
      return JSON.parse(text);
    } catch {
      throw new RetryableError('invalid JSON', 'fallback_bad_response');
    }
  } finally {
    // Frees the connection when we stopped early; a no-op once the body was read.
    await response.body?.cancel().catch(() => undefined);
  }
}

async function readLimited(response: Response, maxBodyBytes: number): Promise<string> {
  const tooLarge = () => new RetryableError(`response larger than ${maxBodyBytes} bytes`, 'fallback_too_large');
  if (Number(response.headers.get('content-length') ?? 0) > maxBodyBytes) throw tooLarge();
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBodyBytes) throw tooLarge();
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date), capped; undefined when absent or odd. */
export function parseRetryAfter(value: string | null, now: Date = new Date()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  let secs: number;
  if (/^\d+$/.test(trimmed)) secs = Number(trimmed);
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    secs = Math.ceil((at - now.getTime()) / 1000);
  }
  return Math.min(Math.max(secs, 0), MAX_RETRY_AFTER_SECS);
}

function describeNetworkError(err: unknown): string {
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return cause.code;
  return err instanceof Error ? err.message.slice(0, 100) : 'unknown';
}
