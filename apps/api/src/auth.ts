import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord, KeyStore } from '@quarry/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Longest key worth looking up; anything longer cannot be one of ours. */
const MAX_KEY_CHARS = 256;

/** What the request presented: no key, a key to verify, or credentials that cannot be a key. */
type Presented = { kind: 'none' } | { kind: 'key'; key: string } | { kind: 'malformed' };

/** The outcome of authentication, kept on `res.locals` for the limiter and the routes. */
export type ClientAuth = { tier: 'public' } | { tier: 'key'; record: ApiKeyRecord } | { tier: 'rejected' };

const AUTH_LOCAL = 'quarryAuth';

/** The authentication outcome of a request (public when `authenticate` has not run). */
export function clientAuth(res: Response): ClientAuth {
  return (res.locals[AUTH_LOCAL] as ClientAuth | undefined) ?? { tier: 'public' };
}

/**
 * Reads a dedicated key from `Authorization: Bearer <key>` or `X-API-Key: <key>` and verifies it
 * (another `Authorization` scheme presents no key). A presented key that is unknown, revoked,
 * malformed or unverifiable (no key store) marks the request `rejected`: it is answered 401 after
 * the public limiter counted it, never served as public.
 */
export function authenticate(keys: KeyStore | undefined): RequestHandler {
  return async (req, res, next) => {
    const presented = presentedKey(req);
    let auth: ClientAuth = { tier: 'public' };
    if (presented.kind === 'malformed' || (presented.kind === 'key' && !keys)) auth = { tier: 'rejected' };
    else if (presented.kind === 'key' && keys) {
      const record = await keys.verify(presented.key);
      auth = record && record.revokedAt === null ? { tier: 'key', record } : { tier: 'rejected' };
    }
    res.locals[AUTH_LOCAL] = auth;
    next();
  };
}

/** The scheme of `Authorization` that presents a key (RFC 6750), with or without its credential. */
const BEARER_SCHEME = /^\s*Bearer(?:\s|$)/i;

function presentedKey(req: Request): Presented {
  const authorization = req.headers.authorization;
  const headerKey = req.headers['x-api-key'];
  let bearer: string | undefined;
  // An empty header is how many clients say "no key", and another scheme is not a key of ours: a
  // reverse proxy that asks for Basic credentials passes them on (nginx's auth_basic does), and
  // the search is public. A Bearer credential must be a well-formed key.
  if (authorization !== undefined && BEARER_SCHEME.test(authorization)) {
    const match = /^Bearer[ ]+([^\s,]+)[ ]*$/i.exec(authorization);
    if (!match) return { kind: 'malformed' };
    bearer = match[1];
  }
  let apiKey: string | undefined;
  if (headerKey !== undefined && !(typeof headerKey === 'string' && headerKey.trim() === '')) {
    // Node joins repeated headers with ", "; a key never contains one, so that is refused too.
    if (typeof headerKey !== 'string' || !/^[^\s,]+$/.test(headerKey.trim())) return { kind: 'malformed' };
    apiKey = headerKey.trim();
  }
  if (bearer !== undefined && apiKey !== undefined && bearer !== apiKey) return { kind: 'malformed' };
  const key = bearer ?? apiKey;
  if (key === undefined) return { kind: 'none' };
  return key.length > MAX_KEY_CHARS ? { kind: 'malformed' } : { kind: 'key', key };
}

/** The credential of `Authorization: Bearer <credential>`, or undefined. */
function bearerCredential(req: Request): string | undefined {
  return /^Bearer[ ]+(\S+)[ ]*$/i.exec(req.headers.authorization ?? '')?.[1];
}

/**
 * Whether the request carries `Authorization: Bearer <token>` with exactly `token`, compared in
 * constant time (both sides are hashed first, so lengths leak nothing either).
 */
export function hasBearerToken(req: Request, token: string): boolean {
  const credential = bearerCredential(req);
  if (!credential) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(credential), digest(token));
}

/** What every API key starts with (`KEY_PREFIX` of @quarry/keys, which the API does not load). */
const API_KEY_PREFIX = 'qk_';

/**
 * Whether a bearer credential may be a try at the admin token `adminToken`, where a route takes
 * both (`/mcp`): one shaped as API keys are (`qk_...`) is a key, right or wrong, not a guess at the
 * token, unless the token is shaped so too.
 */
export function mayBeAdminToken(req: Request, adminToken: string): boolean {
  const credential = bearerCredential(req);
  if (!credential) return false;
  return !credential.startsWith(API_KEY_PREFIX) || adminToken.startsWith(API_KEY_PREFIX);
}

/**
 * Runs `then` once `adminGuesses` has counted a request that presents a bearer credential (which
 * may be the admin token: see Limiters.adminGuesses); a request without one goes straight on.
 */
export function withAdminGuesses(
  adminGuesses: RequestHandler,
  req: Request,
  res: Response,
  next: NextFunction,
  then: () => void,
): void {
  if (!BEARER_SCHEME.test(req.headers.authorization ?? '')) {
    then();
    return;
  }
  adminGuesses(req, res, (err?: unknown) => (err ? next(err) : then()));
}
