import express, { type Express, type RequestHandler } from 'express';
import { adminGate } from './admin.js';
import { authenticate } from './auth.js';
import { contentRoute } from './content-route.js';
import { apiCors } from './cors.js';
import type { ApiDeps } from './deps.js';
import { DOCS_CSP, renderDocsPage } from './docs-page.js';
import { errorHandler, methodNotAllowed, notFoundHandler } from './error-handler.js';
import { healthRoute } from './health.js';
import { requestLogger } from './logging.js';
import { mcpRoute } from './mcp-route.js';
import { metricsRoute } from './metrics-route.js';
import { OPENAPI_DOCUMENT } from './openapi.js';
import { rejectMalformedQueryString } from './params.js';
import { sendProblem } from './problem.js';
import { createLimiters } from './rate-limit.js';
import { searchRoute } from './search-route.js';

const READ_ONLY = ['GET', 'HEAD'] as const;

const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
};

/**
 * Builds the HTTP API: `/api/v1/search`, `/api/v1/content/:id`, `/api/v1/openapi.json` (public,
 * rate-limited), `/mcp` (the same tools for agents, same limits), `/healthz` (not limited), `/docs`,
 * and `/admin` behind the admin token. Every
 * error is an RFC 9457 problem; nothing listens until {@link startServer} is called.
 */
export function createApp(deps: ApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // No ETag: a search response is never the same twice (took_ms), a content body can be large,
  // and hashing every body cost about 2% of the API's CPU per search for no conditional GET.
  app.set('etag', false);
  // No nested objects or arrays-by-bracket from the query string: every value is a string, or an
  // array when repeated (which the validation refuses).
  app.set('query parser', 'simple');
  app.set('trust proxy', deps.config.trustProxyHops > 0 ? deps.config.trustProxyHops : false);

  if (deps.metrics) app.use(deps.metrics.middleware);
  app.use(requestLogger(deps.logger), securityHeaders);
  const limiters = createLimiters({
    config: deps.config,
    logger: deps.logger,
    ...(deps.rateLimitStore ? { publicStore: deps.rateLimitStore } : {}),
    ...(deps.keyRateLimitStore ? { keyStore: deps.keyRateLimitStore } : {}),
  });
  const notAllowed = methodNotAllowed(READ_ONLY);

  app.route('/healthz').get(healthRoute(deps.index, deps.healthChecks)).all(notAllowed);
  const docsHtml = renderDocsPage(OPENAPI_DOCUMENT);
  app
    .route('/docs')
    .get((_req, res) => {
      res.setHeader('Content-Security-Policy', DOCS_CSP);
      res.type('html').send(docsHtml);
    })
    .all(notAllowed);
  const adminRouter = deps.adminRouter?.({ adminGuesses: limiters.adminGuesses });
  app.use('/admin', adminGate(deps.config.adminToken, adminRouter, limiters));
  if (deps.metrics) {
    app
      .route('/metrics')
      .get(metricsRoute(deps.metrics, deps.config.adminToken, limiters))
      .all(notAllowed);
  }

  const api = express.Router();
  // CORS, keys, limits and the query-string check run inside each route, so a preflight and a
  // refused request (401, 429, 400) are counted in the metrics under their route, not as unmatched.
  const keyAndLimit = [apiCors, authenticate(deps.keys), limiters.api];
  api.route('/search').all(keyAndLimit).get(rejectMalformedQueryString, searchRoute(deps)).all(notAllowed);
  api.route('/content/:id').all(keyAndLimit).get(rejectMalformedQueryString, contentRoute(deps)).all(notAllowed);
  // An external result's empty id makes `/content/`: say why there is nothing there.
  api
    .route('/content')
    .all(keyAndLimit)
    .get((_req, res) => {
      sendProblem(res, 'not-found', 'The content endpoint needs the id of a local result; external results have none.');
    })
    .all(notAllowed);
  api
    .route('/openapi.json')
    .all(keyAndLimit)
    .get((_req, res) => {
      res.json(OPENAPI_DOCUMENT);
    })
    .all(notAllowed);
  // A path no route has: its 404 is readable cross-origin too.
  api.use(apiCors);
  app.use('/api/v1', api);
  app.use('/mcp', mcpRoute(deps, limiters, deps.siteCrawler ? { siteCrawler: deps.siteCrawler } : {}));

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
