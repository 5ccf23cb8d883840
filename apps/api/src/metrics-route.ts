import { acceptCredential } from '@quarry/core';
import express, { type RequestHandler } from 'express';
import { hasBearerToken, withAdminGuesses } from './auth.js';
import type { QuarryMetrics } from './metrics.js';
import { sendProblem } from './problem.js';
import type { Limiters } from './rate-limit.js';
import { type RunningServer, startServer } from './server.js';

/** Writes the metrics in the Prometheus text format. */
function exposition(metrics: QuarryMetrics): RequestHandler {
  return async (_req, res, next) => {
    try {
      const { contentType, body } = await metrics.render();
      res.setHeader('Cache-Control', 'no-store');
      res.type(contentType).send(body);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * `GET /metrics` on the API port: only for `Authorization: Bearer <admin token>`; without an admin
 * token the route does not exist (404). A bearer token is counted by `adminGuesses` before it is
 * compared (see Limiters); a wrong or missing one goes through the public limiter and is answered 401.
 */
export function metricsRoute(
  metrics: QuarryMetrics,
  adminToken: string | undefined,
  limiters: Pick<Limiters, 'publicTier' | 'adminGuesses'>,
): RequestHandler {
  const send = exposition(metrics);
  return (req, res, next) => {
    if (!adminToken) {
      sendProblem(res, 'not-found', 'No such resource.');
      return;
    }
    withAdminGuesses(limiters.adminGuesses, req, res, next, () => {
      if (hasBearerToken(req, adminToken)) {
        acceptCredential(res);
        send(req, res, next);
        return;
      }
      limiters.publicTier(req, res, (err?: unknown) => {
        if (err) return next(err);
        res.setHeader('WWW-Authenticate', 'Bearer realm="quarry-metrics"');
        sendProblem(res, 'unauthorized', 'Metrics need Authorization: Bearer <admin token>.');
      });
    });
  };
}

/**
 * Serves `GET /metrics` without authentication on a port of its own (QUARRY_METRICS_PORT), for a
 * Prometheus on the operator's network; keep that port off the public internet.
 */
export function startMetricsServer(
  metrics: QuarryMetrics,
  options: { port: number; host: string },
): Promise<RunningServer> {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', exposition(metrics));
  app.use((_req, res) => {
    sendProblem(res, 'not-found', 'Only /metrics is served on this port.');
  });
  return startServer(app, options);
}
