import { performance } from 'node:perf_hooks';
import { QuarryError } from '@quarry/core';
import { Agent } from 'undici';
import { createAddressPolicy } from './address-policy.js';
import { isProbablyBinary } from './binary.js';
import { readLimitedBody } from './body.js';
import { computedMime, isTextualMime, parseContentType } from './content-type.js';
import { BlockedAddressError, httpErrorCode, isRetryableStatus, nonRetryable, retryable } from './errors.js';
import { createGuardedLookup, vetUrl } from './guard.js';
import { parseRetryAfter } from './retry-after.js';

/** The crawler's default User-Agent: a product token robots.txt can name, and where to learn more. */
export const DEFAULT_USER_AGENT = 'QuarryBot/0.1 (+https://github.com/quarry-search/quarry)';

/** Options of {@link createFetcher}. */
export interface FetcherOptions {
  /** Sent on every request; its leading product token is what robots.txt groups match. @defaultValue {@link DEFAULT_USER_AGENT} */
  readonly userAgent?: string;
  /** Time to establish the TCP (and TLS) connection. @defaultValue 10_000 */
  readonly connectTimeoutMs?: number;
  /** Time from sending the request to receiving all response headers. @defaultValue 15_000 */
  readonly headersTimeoutMs?: number;
  /** Longest silence while the body is streaming. @defaultValue 15_000 */
  readonly bodyTimeoutMs?: number;
  /**
   * Deadline for the whole fetch (cuts off servers that drip bytes): redirects, the body, and the
   * time `beforeRedirect` takes over each hop (a crawler's robots.txt check and wait for the
   * target's host) included. @defaultValue 30_000
   */
  readonly totalTimeoutMs?: number;
  /** Largest body kept, checked on the bytes received and again after decompression. @defaultValue 10 MiB */
  readonly maxBodyBytes?: number;
  /** Redirects followed before failing with `too_many_redirects`. @defaultValue 5 */
  readonly maxRedirects?: number;
  /** Longest URL fetched, redirect targets included. @defaultValue 2048 */
  readonly maxUrlLength?: number;
  /** Exceptions to the public-address rule: host names, IP addresses or CIDR ranges (`QUARRY_ALLOW_HOSTS`). @defaultValue [] */
  readonly allowHosts?: readonly string[];
  /** Fail with `binary_content` when a body labelled as text is binary. @defaultValue true */
  readonly rejectBinaryText?: boolean;
}

/** Per-request options of {@link Fetcher.fetch}. */
export interface FetchRequestOptions {
  /** ETag from the previous fetch: sent as If-None-Match. */
  readonly etag?: string;
  /** Last-Modified from the previous fetch: sent as If-Modified-Since. */
  readonly lastModified?: string;
  /** Accept header. @defaultValue 'text/html,application/xhtml+xml,application/xml;q=0.9,*\/*;q=0.8' */
  readonly accept?: string;
  readonly signal?: AbortSignal;
  /** Throw for a 4xx/5xx status; false returns the response (robots.txt, llms.txt). @defaultValue true */
  readonly throwOnHttpError?: boolean;
  /** Overrides the fetcher's maxBodyBytes for this request. */
  readonly maxBodyBytes?: number;
  /**
   * Keep the first maxBodyBytes instead of failing with `too_large`: for every body, or for those
   * whose Content-Type MIME type (lower case, '' when none) the function accepts, as a crawler
   * keeps a page's head but not a cut PDF. @defaultValue false
   */
  readonly truncateBody?: boolean | ((mime: string) => boolean);
  /** Overrides the fetcher's rejectBinaryText for this request. */
  readonly rejectBinaryText?: boolean;
  /**
   * Asked before each redirect is followed, with the target's URL (already past the address
   * policy): a crawler checks the target's robots.txt here. What it throws ends the fetch. Its time
   * counts against the fetch's deadline: when that passes (or the caller aborts) the fetch ends at
   * once, not waiting for it, and `signal` aborts, for it to stop its own waits.
   */
  readonly beforeRedirect?: (target: string, signal: AbortSignal) => Promise<void> | void;
}

/** The outcome of one fetch, after redirects. */
export interface FetchResult {
  /** The URL as requested. */
  readonly url: string;
  /** The URL that answered, after redirects. */
  readonly finalUrl: string;
  readonly status: number;
  /** Response headers, names in lower case, repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  /** MIME type in lower case, '' when the server sent none. */
  readonly contentType: string;
  /** Charset parameter of Content-Type in lower case, when given. */
  readonly charset: string | undefined;
  /** The decoded (decompressed) body; empty for 304 and HEAD-like answers. */
  readonly body: Buffer;
  /** Whether the body was cut at maxBodyBytes (only where `truncateBody` allows it). */
  readonly truncated: boolean;
  /** Every URL that redirected, in order (the requested URL first). */
  readonly redirects: readonly string[];
  /** True for a 304 answer to a conditional request. */
  readonly notModified: boolean;
  readonly elapsedMs: number;
}

/** An HTTP client for crawling. Create one per process and reuse it: it pools connections. */
export interface Fetcher {
  /** Fetches a URL; throws `RetryableError` / `NonRetryableError` with a code from FETCH_ERROR_CODES. */
  fetch(url: string, options?: FetchRequestOptions): Promise<FetchResult>;
  /** The User-Agent this fetcher sends. */
  readonly userAgent: string;
  /** Closes pooled connections. */
  close(): Promise<void>;
}

const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MiB = 1024 * 1024;

interface Resolved {
  readonly userAgent: string;
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly totalTimeoutMs: number;
  readonly maxBodyBytes: number;
  readonly maxRedirects: number;
  readonly maxUrlLength: number;
  readonly allowHosts: readonly string[];
  readonly rejectBinaryText: boolean;
}

function resolveOptions(options: FetcherOptions): Resolved {
  return {
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    headersTimeoutMs: options.headersTimeoutMs ?? 15_000,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 15_000,
    totalTimeoutMs: options.totalTimeoutMs ?? 30_000,
    maxBodyBytes: options.maxBodyBytes ?? 10 * MiB,
    maxRedirects: options.maxRedirects ?? 5,
    maxUrlLength: options.maxUrlLength ?? 2048,
    allowHosts: options.allowHosts ?? [],
    rejectBinaryText: options.rejectBinaryText ?? true,
  };
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    // Each X-Robots-Tag header stands alone (a bot's name applies up to its header's end): kept
    // apart by a line break, which no header value holds.
    headers[key] = Array.isArray(value) ? value.join(key === 'x-robots-tag' ? '\n' : ', ') : value;
  }
  return headers;
}

/** Whether an error is the server closing the connection (undici's socket error, a reset). */
function isConnectionClosed(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'UND_ERR_CLOSED';
}

/** Maps what undici and node:net throw to Quarry's retryable / non-retryable errors. */
function classifyError(error: unknown, deadline: AbortSignal, caller: AbortSignal | undefined): QuarryError {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof BlockedAddressError || e instanceof QuarryError) return e;
  }
  if (deadline.aborted) return retryable('total_timeout', 'fetch exceeded its total time limit', { cause: error });
  if (caller?.aborted) return retryable('aborted', 'fetch aborted by caller', { cause: error });
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return retryable('connect_timeout', 'connection timed out', { cause: error });
    case 'UND_ERR_HEADERS_TIMEOUT':
      return retryable('headers_timeout', 'response headers timed out', { cause: error });
    case 'UND_ERR_BODY_TIMEOUT':
      return retryable('body_timeout', 'response body stalled', { cause: error });
    case 'ECONNREFUSED':
      return retryable('connection_refused', 'connection refused', { cause: error });
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return retryable('connection_reset', 'connection closed by the server', { cause: error });
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return retryable('truncated_body', 'body shorter than its Content-Length', { cause: error });
    case 'ENOTFOUND':
      return nonRetryable('dns_not_found', 'host name does not resolve', error);
    case 'EAI_AGAIN':
      return retryable('dns_error', 'temporary DNS failure', { cause: error });
    case 'UND_ERR_HEADERS_OVERFLOW':
      // A response head over the limit (16 KiB): the server sends the same one next time.
      return nonRetryable('bad_response', 'response headers too large', error);
    default:
      // llhttp rejects a malformed status line or header; a server that speaks broken HTTP keeps doing so.
      if (
        (typeof code === 'string' && code.startsWith('HPE_')) ||
        (error as Error | null)?.name === 'HTTPParserError'
      ) {
        return nonRetryable('bad_response', 'malformed HTTP response', error);
      }
      return retryable('network_error', `network error: ${message}`, { cause: error });
  }
}

/**
 * Settles as `work` does, or rejects with the signal's reason as soon as it aborts: the fetch's
 * deadline bounds what it waits for besides its own requests. Work left behind goes on (a robots.txt
 * fetch other pages share, bounded by its own deadline); its failure then is nobody's.
 */
function untilAborted(work: Promise<void> | void, signal: AbortSignal): Promise<void> {
  const settled = Promise.resolve(work);
  if (signal.aborted) {
    settled.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    settled.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Creates the crawler's HTTP client: SSRF-guarded at connect time and on every redirect hop,
 * bounded in time, size and redirects, decoding gzip/deflate/br itself.
 *
 * @example
 * const fetcher = createFetcher({ allowHosts: config.allowHosts, userAgent: config.userAgent });
 * const page = await fetcher.fetch('https://example.com/');
 */
export function createFetcher(options: FetcherOptions = {}): Fetcher {
  const opts = resolveOptions(options);
  const policy = createAddressPolicy(opts.allowHosts);
  const agent = new Agent({
    connect: { timeout: opts.connectTimeoutMs, lookup: createGuardedLookup(policy) },
    headersTimeout: opts.headersTimeoutMs,
    bodyTimeout: opts.bodyTimeoutMs,
  });

  async function fetchOnce(url: URL, request: FetchRequestOptions, signal: AbortSignal) {
    const headers: Record<string, string> = {
      'user-agent': opts.userAgent,
      accept: request.accept ?? DEFAULT_ACCEPT,
      'accept-encoding': 'gzip, deflate, br',
    };
    if (request.etag) headers['if-none-match'] = request.etag;
    if (request.lastModified) headers['if-modified-since'] = request.lastModified;
    return agent.request({ origin: url.origin, path: `${url.pathname}${url.search}`, method: 'GET', headers, signal });
  }

  async function run(input: string, request: FetchRequestOptions, signal: AbortSignal): Promise<FetchResult> {
    const started = performance.now();
    const redirects: string[] = [];
    const seen = new Set<string>();
    let url = vetUrl(input, policy, opts.maxUrlLength);
    for (;;) {
      seen.add(url.href);
      const response = await fetchOnce(url, request, signal);
      const headers = flattenHeaders(response.headers);
      const { statusCode: status } = response;
      if (REDIRECT_STATUSES.has(status) && headers.location !== undefined) {
        await response.body.dump();
        let next: URL;
        try {
          next = vetUrl(new URL(headers.location, url).href, policy, opts.maxUrlLength);
        } catch (error) {
          if (error instanceof QuarryError && error.code !== 'bad_url') throw error;
          throw nonRetryable('bad_redirect', 'redirect to an invalid location', error);
        }
        redirects.push(url.href);
        if (seen.has(next.href)) throw nonRetryable('redirect_loop', `redirect loop at ${next.href}`);
        if (redirects.length > opts.maxRedirects) {
          throw nonRetryable('too_many_redirects', `more than ${opts.maxRedirects} redirects`);
        }
        if (request.beforeRedirect) await untilAborted(request.beforeRedirect(next.href, signal), signal);
        url = next;
        continue;
      }
      if (status >= 400 && request.throwOnHttpError !== false) {
        await response.body.dump();
        const message = `HTTP ${status}`;
        if (!isRetryableStatus(status)) throw nonRetryable(httpErrorCode(status), message);
        const retryAfterMs = parseRetryAfter(headers['retry-after']);
        const retryAfterSecs = retryAfterMs === null ? undefined : Math.ceil(retryAfterMs / 1000);
        throw retryable(httpErrorCode(status), message, { retryAfterSecs });
      }
      const { mime, charset } = parseContentType(headers['content-type']);
      const maxBodyBytes = request.maxBodyBytes ?? opts.maxBodyBytes;
      const truncateBody = request.truncateBody ?? false;
      const truncate = typeof truncateBody === 'function' ? truncateBody(mime) : truncateBody;
      const declaredLength = Number(headers['content-length']);
      // Refuse early: no point receiving 10 MiB to throw it away. In truncate mode read the head.
      if (!truncate && !headers['content-encoding'] && declaredLength > maxBodyBytes) {
        response.body.destroy();
        throw nonRetryable('too_large', `Content-Length ${declaredLength} exceeds ${maxBodyBytes} bytes`);
      }
      const notModified = status === 304;
      const { body, truncated } = notModified
        ? { body: Buffer.alloc(0), truncated: false }
        : await readLimitedBody(response.body, headers['content-encoding'], maxBodyBytes, truncate).catch(
            (error: unknown) => {
              // The server closed the connection before the length it announced: a cut body.
              throw Number.isFinite(declaredLength) && isConnectionClosed(error)
                ? retryable('truncated_body', 'body shorter than its Content-Length', { cause: error })
                : error;
            },
          );
      if (notModified) await response.body.dump();
      const rejectBinary = request.rejectBinaryText ?? opts.rejectBinaryText;
      // HTML with no Content-Type, or served as text/plain, is HTML; a PDF served as text a PDF (see computedMime).
      const contentType = computedMime(mime, body);
      if (rejectBinary && status < 300 && isTextualMime(contentType) && isProbablyBinary(body, charset)) {
        throw nonRetryable('binary_content', `binary body served as ${mime}`);
      }
      return {
        url: input,
        finalUrl: url.href,
        status,
        headers,
        contentType,
        charset,
        body,
        truncated,
        redirects,
        notModified,
        elapsedMs: Math.round(performance.now() - started),
      };
    }
  }

  return {
    userAgent: opts.userAgent,
    async fetch(input, request = {}) {
      const deadline = new AbortController();
      const timer = setTimeout(
        () => deadline.abort(retryable('total_timeout', 'fetch exceeded its total time limit')),
        opts.totalTimeoutMs,
      );
      const signal = request.signal ? AbortSignal.any([deadline.signal, request.signal]) : deadline.signal;
      try {
        return await run(input, request, signal);
      } catch (error) {
        throw classifyError(error, deadline.signal, request.signal);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await agent.close();
    },
  };
}
