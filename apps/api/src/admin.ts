import type { RequestHandler, Router } from 'express';
import { hasBearerToken } from './auth.js';
import { sendProblem } from './problem.js';

/**
 * Guards `/admin`: without a configured token the area does not exist (404, never open). An
 * installed admin router authenticates itself (bearer token or its own login session, built from
 * the same token); without one, a wrong or missing token is counted by the public limiter (slowing
 * guessing) and answered 401, a right one 404.
 */
export function adminGate(
  adminToken: string | undefined,
  adminRouter: Router | undefined,
  publicTier: RequestHandler,
): RequestHandler {
  return (req, res, next) => {
    if (!adminToken) {
      sendProblem(res, 'not-found', 'No such resource.');
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    if (adminRouter) {
      adminRouter(req, res, next);
      return;
    }
    if (!hasBearerToken(req, adminToken)) {
      publicTier(req, res, (err?: unknown) => {
        if (err) return next(err);
        res.setHeader('WWW-Authenticate', 'Bearer realm="quarry-admin"');
        sendProblem(res, 'unauthorized', 'Admin pages need Authorization: Bearer <admin token>.');
      });
      return;
    }
    sendProblem(res, 'not-found', 'No admin pages are installed.');
  };
}
