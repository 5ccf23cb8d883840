/**
 * Quarry's error tree. Every error carries a string `code` that survives JSON (so it can cross a
 * queue), says whether retrying can help, and maps to one HTTP status in the API.
 */
export class QuarryError extends Error {
  readonly code: string;
  readonly retryable: boolean;
  readonly httpStatus: number;

  constructor(message: string, options: { code: string; retryable?: boolean; httpStatus?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code;
    this.retryable = options.retryable ?? false;
    this.httpStatus = options.httpStatus ?? 500;
  }

  toJSON(): { name: string; code: string; message: string; retryable: boolean } {
    return { name: this.name, code: this.code, message: this.message, retryable: this.retryable };
  }
}

/** Bad input from a caller; `param` names the offending parameter when there is one. */
export class ValidationError extends QuarryError {
  readonly param: string | undefined;
  constructor(message: string, param?: string) {
    super(message, { code: 'invalid_parameter', httpStatus: 400 });
    this.param = param;
  }
}

export class NotFoundError extends QuarryError {
  constructor(message: string) {
    super(message, { code: 'not_found', httpStatus: 404 });
  }
}

export class AuthError extends QuarryError {
  constructor(message: string) {
    super(message, { code: 'unauthorized', httpStatus: 401 });
  }
}

/** A backend (index, queue, blob store) cannot serve right now; retrying later may help. */
export class BackendUnavailableError extends QuarryError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'backend_unavailable', retryable: true, httpStatus: 503, cause });
  }
}

/** A crawl step failed in a way that retrying will not fix (robots disallow, too large, bad type). */
export class NonRetryableError extends QuarryError {
  constructor(message: string, code: string, cause?: unknown) {
    super(message, { code, retryable: false, cause });
  }
}

/** A crawl step failed in a way that may pass later (timeout, 503, connection reset). */
export class RetryableError extends QuarryError {
  /** Seconds the remote side asked us to wait (Retry-After), when it said: the whole host waits. */
  readonly retryAfterSecs: number | undefined;
  /**
   * The soonest the task itself may be tried again, in ms, when a sooner try could not succeed (a
   * cached answer it would read again); other tasks of the host are not held back.
   */
  readonly retryInMs: number | undefined;
  constructor(
    message: string,
    code: string,
    options: { retryAfterSecs?: number; retryInMs?: number; cause?: unknown } = {},
  ) {
    super(message, { code, retryable: true, cause: options.cause });
    this.retryAfterSecs = options.retryAfterSecs;
    this.retryInMs = options.retryInMs;
  }
}

/** Rebuilds a Quarry error from its JSON form (as it comes back from a queue). */
export function errorFromJSON(json: { code?: unknown; message?: unknown; retryable?: unknown }): QuarryError {
  const message = typeof json.message === 'string' ? json.message : 'unknown error';
  const code = typeof json.code === 'string' ? json.code : 'unknown';
  return json.retryable === true ? new RetryableError(message, code) : new NonRetryableError(message, code);
}
