import { acceptCredential, credentialAccepted, spentGuessesAnswer } from '@quarry/core';
import { parse as parseCookies } from 'cookie';
import type { Request, RequestHandler, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { sendProblem } from './problem.js';
import { type SessionSigner, secretsEqual } from './session.js';

/** Name of the session cookie (scoped to the admin path). */
export const SESSION_COOKIE = 'quarry_admin_session';

/** The session cookie's value on a request, if any. */
export function sessionCookie(req: Request): string | undefined {
  const header = req.headers.cookie;
  return header ? parseCookies(header)[SESSION_COOKIE] : undefined;
}

/** The bearer credential of a request: undefined without an Authorization header, '' when malformed. */
export function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1] ?? '';
}

/**
 * Whether a state-changing request comes from our own pages. Browsers send `Sec-Fetch-Site` (trusted
 * when present) and `Origin` on every POST; a request with neither is refused, since the login form
 * and the Bull Board buttons always send them and API clients use the bearer token instead.
 */
export function isSameOrigin(req: Request): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = req.headers.origin;
  if (origin === undefined || origin === 'null') return false;
  return origin === `${req.protocol}://${req.host}`;
}

/**
 * Whether the client wants a page (redirect to the login form) rather than JSON (a 401). The API's
 * paths are told apart in any case, as the routes match them (`/admin/API/STATS` is the stats).
 */
export function wantsHtml(req: Request): boolean {
  if (/(^|\/)api(\/|$)/i.test(req.path)) return false;
  return req.accepts(['html', 'json']) === 'html';
}

/**
 * A dot segment as the WHATWG URL parser reads one (`.`, `..`, and the same with `%2e` in any case):
 * a browser resolves it away, so `/admin/../api` leads out of `/admin`.
 */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** A safe post-login destination: a path under the admin area, else the dashboard. */
export function safeNext(baseUrl: string, next: unknown): string {
  const fallback = `${baseUrl}/`;
  if (typeof next !== 'string' || next.length > 512) return fallback;
  // Only paths inside the admin area; no scheme, no `//host`, no backslashes browsers might fold.
  if (!(next === baseUrl || next.startsWith(`${baseUrl}/`)) || /[\\\s]|\/\//.test(next)) return fallback;
  // Nor a path a browser would resolve out of it: the prefix above is checked before resolution.
  const path = next.replace(/[?#].*$/s, '');
  if (path.split('/').some((segment) => DOT_SEGMENT.test(segment))) return fallback;
  return next;
}

/**
 * Limits failed logins (form and bearer) per client IP; successful requests are not counted. The
 * router's own, used when it is given no `guessLimiter`.
 */
export function failedLoginLimiter(maxFailures: number, windowMs: number): RequestHandler {
  return rateLimit({
    windowMs,
    limit: maxFailures,
    skipSuccessfulRequests: true,
    // A request with the right token is no failure, whatever it ends with (a 400 for a bad filter).
    requestWasSuccessful: (_req: Request, res: Response) => credentialAccepted(res) || res.statusCode < 400,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req: Request, res: Response) => {
      const answer = spentGuessesAnswer(res);
      if (answer) answer();
      else sendProblem(res, 'rate-limited', 'Too many failed logins from this address; try again later.');
    },
  });
}

/**
 * Lets through a request carrying the admin token as a bearer credential or a valid session cookie
 * (cookie-authenticated state changes must also be same-origin). Others get the login page (HTML)
 * or a 401 problem (JSON); a wrong bearer token counts as a failed login.
 */
export function requireAdmin(token: string, sessions: SessionSigner, limiter: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const bearer = bearerToken(req);
    if (bearer !== undefined) {
      // Counted before it is compared, as the login form's is: during a lockout the right token
      // waits too, or each guess would still learn whether it was right (a 429 or a 200).
      limiter(req, res, (err?: unknown) => {
        if (err) return next(err);
        if (secretsEqual(bearer, token)) {
          acceptCredential(res);
          return next();
        }
        res.setHeader('WWW-Authenticate', 'Bearer realm="quarry-admin", error="invalid_token"');
        sendProblem(res, 'unauthorized', 'The bearer token is not the admin token.');
      });
      return;
    }
    if (sessions.verify(sessionCookie(req))) {
      const safe = req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS';
      if (safe || isSameOrigin(req)) return next();
      sendProblem(res, 'forbidden', 'Cross-site request refused.');
      return;
    }
    if (wantsHtml(req) && (req.method === 'GET' || req.method === 'HEAD')) {
      const target = `${req.baseUrl}/login?next=${encodeURIComponent(safeNext(req.baseUrl, req.originalUrl))}`;
      res.redirect(303, target);
      return;
    }
    res.setHeader('WWW-Authenticate', 'Bearer realm="quarry-admin"');
    sendProblem(res, 'unauthorized', 'Log in at the admin login page or send Authorization: Bearer <admin token>.');
  };
}
