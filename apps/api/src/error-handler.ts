import { BackendUnavailableError, QuarryError, ValidationError } from '@quarry/core';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { type ProblemKind, sendGenericProblem, sendProblem } from './problem.js';

/** Seconds a client is asked to wait (Retry-After) when a backend is unavailable. */
export const BACKEND_RETRY_AFTER_SECS = 5;

const MALFORMED_PATH_DETAIL =
  'The URL path holds a malformed percent-escape: % must be followed by two hex digits, and the escaped ' +
  'bytes must spell UTF-8 (%C3%A9 for é; write a literal % as %25).';

const KIND_BY_STATUS: Readonly<Record<number, ProblemKind>> = {
  400: 'invalid-parameter',
  401: 'unauthorized',
  404: 'not-found',
  405: 'method-not-allowed',
  429: 'rate-limited',
};

/** Final handler: any route nobody claimed is a 404 problem. */
export const notFoundHandler: RequestHandler = (_req, res) => {
  sendProblem(res, 'not-found', 'No such resource.');
};

/** Answers 405 with `Allow` for a known path asked with another method; OPTIONS lists the methods. */
export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  const allow = allowed.join(', ');
  return (req, res) => {
    res.setHeader('Allow', allow);
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    sendProblem(res, 'method-not-allowed', `Use ${allow} on this resource.`);
  };
}

/**
 * Maps errors to problem details. Only messages written for callers (validation, not found,
 * auth) reach the client; anything else becomes a generic 500, logged with the error itself.
 */
export const errorHandler: ErrorRequestHandler = (err: unknown, _req, res, next) => {
  if (res.headersSent) {
    next(err);
    return;
  }
  if (err instanceof ValidationError) {
    sendProblem(res, 'invalid-parameter', err.message, err.param);
    return;
  }
  if (err instanceof BackendUnavailableError) {
    res.err = err;
    res.setHeader('Retry-After', String(BACKEND_RETRY_AFTER_SECS));
    sendProblem(res, 'backend-unavailable', 'A backend is temporarily unavailable; retry later.');
    return;
  }
  if (err instanceof QuarryError && err.httpStatus >= 400 && err.httpStatus < 500) {
    const kind = KIND_BY_STATUS[err.httpStatus];
    if (kind) sendProblem(res, kind, err.message);
    else sendGenericProblem(res, err.httpStatus, err.message);
    return;
  }
  // Errors raised by Express or Node for a bad request (undecodable path, oversized or malformed
  // input) carry a 4xx status; their messages may quote internals, so the detail stays generic.
  const status = clientErrorStatus(err);
  // The router could not decode a path segment (`/api/v1/content/%ZZ`): the request is malformed,
  // not a parameter out of range, so it is a client error that says how to encode the path.
  if (status === 400 && err instanceof URIError) {
    sendGenericProblem(res, 400, MALFORMED_PATH_DETAIL);
    return;
  }
  if (status !== null) {
    const kind = KIND_BY_STATUS[status];
    const detail =
      status === 413
        ? 'The request body is larger than this endpoint accepts.'
        : 'The request could not be understood.';
    if (kind) sendProblem(res, kind, detail);
    else sendGenericProblem(res, status, detail);
    return;
  }
  res.err = err instanceof Error ? err : new Error(String(err));
  sendProblem(res, 'internal-error', 'An unexpected error occurred; it has been logged.');
};

function clientErrorStatus(err: unknown): number | null {
  if (err === null || typeof err !== 'object') return null;
  const { status, statusCode } = err as { status?: unknown; statusCode?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' && value >= 400 && value < 500 ? value : null;
}
