import { acceptCredential } from '@quarry/core';
import type { RequestHandler, Router } from 'express';
import { hasBearerToken, withAdminGuesses } from './auth.js';
import { sendProblem } from './problem.js';
import type { Limiters } from './rate-limit.js';

/**
 * Guards `/admin`: without a configured token the area does not exist (404, never open). An
 * installed admin router authenticates itself (bearer token or its own login session, built from
 * the same token); without one, a bearer token is counted as a guess (see Limiters.adminGuesses), a
 * wrong or missing one by the public limiter too and answered 401, a right one 404.
 */
export function adminGate(
  adminToken: string | undefined,
  adminRouter: Router | undefined,
  limiters: Pick<Limiters, 'publicTier' | 'adminGuesses'>,
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
    withAdminGuesses(limiters.adminGuesses, req, res, next, () => {
      if (!hasBearerToken(req, adminToken)) {
        limiters.publicTier(req, res, (err?: unknown) => {
          if (err) return next(err);
          res.setHeader('WWW-Authenticate', 'Bearer realm="quarry-admin"');
          sendProblem(res, 'unauthorized', 'Admin pages need Authorization: Bearer <admin token>.');
        });
        return;
      }
      acceptCredential(res);
      sendProblem(res, 'not-found', 'No admin pages are installed.');
    });
  };
}
