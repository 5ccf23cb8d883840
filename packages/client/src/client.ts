import { type Problem, QuarryApiError, QuarryConnectionError, QuarryRateLimitError } from './errors.js';
import type {
  ContentOptions,
  ContentResponse,
  PortionOptions,
  PortionResponse,
  SearchOptions,
  SearchResponse,
} from './types.js';

/** Options of {@link QuarryClient}. */
export interface QuarryClientOptions {
  /** Where the API is, e.g. `http://localhost:8080` (a path prefix is kept). */
  readonly baseUrl: string;
  /** A dedicated API key, sent as `Authorization: Bearer <key>`; without one the public tier applies. */
  readonly apiKey?: string;
  /**
   * Retries of a request answered 429 or 503, each after the `Retry-After` the API sent.
   * @defaultValue 2
   */
  readonly maxRetries?: number;
  /**
   * Longest `Retry-After` waited for; a longer one is thrown at once as the error it came with.
   * @defaultValue 30
   */
  readonly maxRetryAfterSecs?: number;
  /** Time limit of one attempt. @defaultValue 30000 */
  readonly timeoutMs?: number;
  /** The fetch to use (a polyfill, a test double, an instrumented one). @defaultValue globalThis.fetch */
  readonly fetch?: typeof fetch;
}

/** Defaults of {@link QuarryClientOptions}. */
export const CLIENT_DEFAULTS = { maxRetries: 2, maxRetryAfterSecs: 30, timeoutMs: 30_000 } as const;

/** Wait when a 429 or 503 comes without a usable `Retry-After`. */
const FALLBACK_RETRY_AFTER_SECS = 1;
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

type Params = Record<string, string | number | undefined>;

/**
 * A typed client of the Quarry HTTP API: fetch only, no dependencies, for Node 20+ and browsers.
 *
 * @example
 * const quarry = new QuarryClient({ baseUrl: 'http://localhost:8080' });
 * const { results } = await quarry.search('solar panel efficiency', { match: 'any', limit: 5 });
 * const page = await quarry.content(results[0].id, { query: 'efficiency', max_tokens: 500 });
 */
export class QuarryClient {
  readonly #base: URL;
  readonly #apiKey: string | undefined;
  readonly #maxRetries: number;
  readonly #maxRetryAfterSecs: number;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: QuarryClientOptions) {
    const base = new URL(options.baseUrl);
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    this.#base = base;
    this.#apiKey = options.apiKey;
    this.#maxRetries = options.maxRetries ?? CLIENT_DEFAULTS.maxRetries;
    this.#maxRetryAfterSecs = options.maxRetryAfterSecs ?? CLIENT_DEFAULTS.maxRetryAfterSecs;
    this.#timeoutMs = options.timeoutMs ?? CLIENT_DEFAULTS.timeoutMs;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** `GET /api/v1/search`: throws a {@link QuarryApiError} (with `param`) for a bad parameter. */
  search(q: string, options: SearchOptions = {}): Promise<SearchResponse> {
    const { signal, ...params } = options;
    return this.#get<SearchResponse>('api/v1/search', { q, ...params }, signal);
  }

  /**
   * `GET /api/v1/content/{id}`: the page's text; `format: 'markdown'` adds `body_markdown`, `query`
   * (with `max_tokens`) adds `passages`. An unknown id is a {@link QuarryApiError} with status 404.
   */
  content(id: string, options: ContentOptions = {}): Promise<ContentResponse> {
    const { signal, ...params } = options;
    return this.#get<ContentResponse>(`api/v1/content/${encodeURIComponent(id)}`, params, signal);
  }

  /**
   * `GET /api/v1/content/{id}?max_tokens=…&start=…`: the part of the page from `start` that fits
   * `max_tokens`, ending at a paragraph or sentence end. Read on from `portion.end` until it equals
   * `portion.length`: the portions put together are the page exactly. A `start` past the end is a
   * {@link QuarryApiError} with `param: 'start'`.
   */
  portion(id: string, options: PortionOptions = {}): Promise<PortionResponse> {
    const { signal, start, ...params } = options;
    return this.#get<PortionResponse>(
      `api/v1/content/${encodeURIComponent(id)}`,
      { ...params, start: start ?? 0 },
      signal,
    );
  }

  async #get<T>(path: string, params: Params, signal: AbortSignal | undefined): Promise<T> {
    const url = new URL(path, this.#base);
    for (const [name, value] of Object.entries(params)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json, application/problem+json' };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    for (let attempt = 0; ; attempt++) {
      const response = await this.#attempt(url, headers, signal);
      if (response.ok) return (await response.json()) as T;
      const error = await toError(response);
      const waitSecs = error.retryAfterSecs ?? FALLBACK_RETRY_AFTER_SECS;
      const retry =
        RETRYABLE_STATUSES.has(response.status) && attempt < this.#maxRetries && waitSecs <= this.#maxRetryAfterSecs;
      if (!retry) throw error;
      await sleep(waitSecs * 1000, signal);
    }
  }

  async #attempt(url: URL, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<Response> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    try {
      return await this.#fetch(url, { headers, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (cause) {
      throw new QuarryConnectionError(`could not reach ${url.origin}: ${reason(cause)}`, { cause });
    }
  }
}

async function toError(response: Response): Promise<QuarryApiError> {
  const retryAfterSecs = parseRetryAfter(response.headers.get('retry-after'));
  let problem: Problem = {
    type: 'about:blank',
    title: response.statusText || 'Error',
    status: response.status,
    detail: `HTTP ${response.status}`,
  };
  try {
    const body = (await response.json()) as Partial<Problem>;
    if (body && typeof body.detail === 'string') problem = { ...problem, ...body, status: response.status };
  } catch {
    // Not JSON (a proxy's error page): keep the generic problem.
  }
  return response.status === 429
    ? new QuarryRateLimitError(problem, retryAfterSecs)
    : new QuarryApiError(problem, retryAfterSecs);
}

/** `Retry-After` as seconds: a delay (`120`) or an HTTP date; undefined when absent or unusable. */
export function parseRetryAfter(value: string | null, nowMs = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const atMs = Date.parse(value);
  return Number.isNaN(atMs) ? undefined : Math.max(0, Math.ceil((atMs - nowMs) / 1000));
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function reason(cause: unknown): string {
  if (cause instanceof Error) return cause.name === 'TimeoutError' ? 'timed out' : cause.message;
  return String(cause);
}
