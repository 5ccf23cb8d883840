/** An RFC 9457 problem as the Quarry API sends it. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** The parameter at fault (400). */
  param?: string;
}

/** Base of every error this client throws. */
export class QuarryClientError extends Error {
  override name = 'QuarryClientError';
}

/**
 * The API answered with an error status. `status`, `type`, `detail` and `param` come from its
 * problem details body; `retryAfterSecs` from `Retry-After` when it sent one (429, 503).
 */
export class QuarryApiError extends QuarryClientError {
  override name = 'QuarryApiError';
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly param: string | undefined;
  readonly retryAfterSecs: number | undefined;

  constructor(problem: Problem, retryAfterSecs?: number) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.status = problem.status;
    this.type = problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.param = problem.param;
    this.retryAfterSecs = retryAfterSecs;
  }
}

/** Still rate limited (429) after the bounded retries, or asked to wait longer than allowed. */
export class QuarryRateLimitError extends QuarryApiError {
  override name = 'QuarryRateLimitError';
}

/** The request never got an HTTP answer (connection refused, DNS, timeout, abort). */
export class QuarryConnectionError extends QuarryClientError {
  override name = 'QuarryConnectionError';
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
  }
}
