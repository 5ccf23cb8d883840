import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';

/** An RFC 9457 problem details body as this API sends it. */
export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  /** The query or path parameter at fault, for a 400. */
  readonly param?: string;
}

/** The problem types this API uses; `type` links to their description on the docs page. */
export const PROBLEM_TYPES = {
  'invalid-parameter': { status: 400, title: 'Invalid parameter' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  'not-found': { status: 404, title: 'Not found' },
  forbidden: { status: 403, title: 'Forbidden' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'too-large': { status: 413, title: 'Content too large' },
  /** Any other 4xx (431, 414...): the response carries the real status and its standard title. */
  'client-error': { status: 400, title: 'Bad request' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  'internal-error': { status: 500, title: 'Internal server error' },
  'backend-unavailable': { status: 503, title: 'Service unavailable' },
} as const;

/** One of {@link PROBLEM_TYPES}. */
export type ProblemKind = keyof typeof PROBLEM_TYPES;

/** The `type` URI of a problem kind: a relative reference to its entry on `/docs`. */
export function problemTypeUri(kind: ProblemKind): string {
  return `/docs#problem-${kind}`;
}

/** Media type of every error body. */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** Sends a problem of a known kind. `detail` must be safe to show a client (no internals). */
export function sendProblem(res: Response, kind: ProblemKind, detail: string, param?: string): void {
  const { status, title } = PROBLEM_TYPES[kind];
  const body: ProblemDetails = { type: problemTypeUri(kind), title, status, detail, ...(param ? { param } : {}) };
  writeProblem(res, body);
}

const KIND_BY_STATUS: Readonly<Record<number, ProblemKind>> = {
  403: 'forbidden',
  405: 'method-not-allowed',
  413: 'too-large',
};

/**
 * Sends a problem for a 4xx status without a kind of its own (413, 431...): its `type` is still a
 * documented entry (`client-error` unless the status has one), never `about:blank`.
 */
export function sendGenericProblem(res: Response, status: number, detail: string): void {
  writeProblem(res, genericProblem(status, detail));
}

/** The body {@link sendGenericProblem} sends, for writers without an Express response. */
export function genericProblem(status: number, detail: string): ProblemDetails {
  const kind = KIND_BY_STATUS[status] ?? 'client-error';
  const title = STATUS_CODES[status] ?? PROBLEM_TYPES[kind].title;
  return { type: problemTypeUri(kind), title, status, detail };
}

function writeProblem(res: Response, body: ProblemDetails): void {
  res.status(body.status).type(PROBLEM_MEDIA_TYPE).send(JSON.stringify(body));
}
