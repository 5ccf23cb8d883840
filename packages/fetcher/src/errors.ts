import { NonRetryableError, RetryableError } from '@quarry/core';

/**
 * Every `code` the fetcher puts on the errors it throws, besides `http_<status>` (for example
 * `http_404`, `http_503`) for an HTTP error status. Retryable: the timeouts, connection and DNS
 * failures, `aborted`, `truncated_body`, and HTTP 408, 425, 429 and 5xx. Everything else is not.
 */
export const FETCH_ERROR_CODES = [
  'bad_url',
  'url_too_long',
  'unsupported_scheme',
  'blocked_address',
  'too_large',
  'too_many_redirects',
  'redirect_loop',
  'bad_redirect',
  'unsupported_encoding',
  'bad_encoding',
  'binary_content',
  'bad_response',
  'dns_not_found',
  'dns_error',
  'connect_timeout',
  'headers_timeout',
  'body_timeout',
  'total_timeout',
  'connection_refused',
  'connection_reset',
  'truncated_body',
  'network_error',
  'aborted',
] as const;

/** A fetch error code: one of {@link FETCH_ERROR_CODES} or `http_<status>`. */
export type FetchErrorCode = (typeof FETCH_ERROR_CODES)[number] | `http_${number}`;

/** The error code for an HTTP error status, e.g. `http_404`. */
export function httpErrorCode(status: number): `http_${number}` {
  return `http_${status}`;
}

/** Whether an HTTP status is worth retrying later (server trouble or rate limiting). */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 425 || status === 429;
}

/**
 * A refusal decided by the address policy (a private, loopback, link-local or reserved address not
 * listed in QUARRY_ALLOW_HOSTS), code `blocked_address`; carried through undici's connect path as
 * the cause. `address` is the refused address.
 */
export class BlockedAddressError extends NonRetryableError {
  readonly address: string;
  constructor(host: string, address: string) {
    super(
      `refusing to connect to ${host}${host === address ? '' : ` (${address})`}: not a public address; QUARRY_ALLOW_HOSTS lists exceptions`,
      'blocked_address',
    );
    this.address = address;
  }
}

export function nonRetryable(code: FetchErrorCode, message: string, cause?: unknown): NonRetryableError {
  return new NonRetryableError(message, code, cause);
}

export function retryable(
  code: FetchErrorCode,
  message: string,
  options: { retryAfterSecs?: number; cause?: unknown } = {},
): RetryableError {
  return new RetryableError(message, code, options);
}
