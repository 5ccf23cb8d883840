import type { Response } from 'express';

/** Problem kinds of the admin area; each `type` links to its entry on the API's `/docs` page. */
const KINDS = {
  /** A query parameter or form field the request got wrong, named by `param`, as the public API's. */
  'invalid-parameter': { status: 400, title: 'Invalid parameter', type: '/docs#problem-invalid-parameter' },
  /** A request that cannot be read at all (a malformed body). */
  'bad-request': { status: 400, title: 'Bad request', type: '/docs#problem-client-error' },
  unauthorized: { status: 401, title: 'Unauthorized', type: '/docs#problem-unauthorized' },
  forbidden: { status: 403, title: 'Forbidden', type: '/docs#problem-forbidden' },
  'not-found': { status: 404, title: 'Not found', type: '/docs#problem-not-found' },
  'too-large': { status: 413, title: 'Content too large', type: '/docs#problem-too-large' },
  'rate-limited': { status: 429, title: 'Too many requests', type: '/docs#problem-rate-limited' },
  'internal-error': { status: 500, title: 'Internal server error', type: '/docs#problem-internal-error' },
  'backend-unavailable': { status: 503, title: 'Service unavailable', type: '/docs#problem-backend-unavailable' },
} as const;

/** A problem kind the admin area answers with. */
export type AdminProblemKind = keyof typeof KINDS;

/**
 * Sends an RFC 9457 problem (type, title, status, detail, and `param` naming a bad query parameter
 * when given); `detail` must be safe to show a client.
 */
export function sendProblem(res: Response, kind: AdminProblemKind, detail: string, param?: string): void {
  const { status, title, type } = KINDS[kind];
  const body = param === undefined ? { type, title, status, detail } : { type, title, status, detail, param };
  res.status(status).type('application/problem+json').send(JSON.stringify(body));
}
