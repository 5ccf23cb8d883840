import { answerSpentGuesses, sitePageCounts } from '@quarry/core';
import type { HostQuery } from '@quarry/queue';
import express, { type Request, type Response, Router } from 'express';
import {
  failedLoginLimiter,
  isSameOrigin,
  requireAdmin,
  SESSION_COOKIE,
  safeNext,
  sessionCookie,
  wantsHtml,
} from './guard.js';
import { type AdminHosts, BadHostsParam, collectHosts, DEFAULT_HOSTS_LIMIT, parseHostsQuery } from './hosts.js';
import { type AdminRouterOptions, resolveAdminOptions } from './options.js';
import { sendDashboard } from './pages/dashboard.js';
import { sendHostsPage } from './pages/hosts.js';
import { sendLoginPage } from './pages/login.js';
import { sendProblem } from './problem.js';
import { bullBoardHandler, embeddedQueuesHandler } from './queues-board.js';
import { FileRevokedSessions } from './revoked-sessions.js';
import { SessionSigner, secretsEqual } from './session.js';
import { addSitesRoutes } from './sites.js';
import { type AdminStats, collectStats } from './stats.js';

/** The login form body is one token and a path; anything larger is not a login. */
const MAX_FORM_BYTES = 4096;

/**
 * The admin area, to mount at `/admin`: a login form (`/login`, `/logout`), Quarry's dashboard
 * (`/`) polling `/api/stats`, the hosts view (`/hosts`) polling `/api/hosts`, and `/queues` (Bull Board over `bullQueues`, or a note in embedded
 * mode). Everything but the login form needs `Authorization: Bearer <token>` or the session cookie
 * the form sets (HttpOnly, SameSite=Strict, scoped to the mount path, holding an HMAC, never the token).
 *
 * @example app.use('/admin', createAdminRouter({ token, crawl: queues.crawl, index: queues.index, searchIndex }));
 */
export function createAdminRouter(options: AdminRouterOptions): Router {
  const opts = resolveAdminOptions(options);
  const revoked = opts.revokedSessionsFile
    ? new FileRevokedSessions(opts.revokedSessionsFile, { onError: opts.onError })
    : undefined;
  const sessions = new SessionSigner(opts.token, opts.sessionTtlMs, Date.now, revoked);
  const limiter = opts.guessLimiter ?? failedLoginLimiter(opts.maxFailedLogins, opts.failedLoginWindowMs);
  const router = Router();

  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    next();
  });

  router.get('/login', (req, res) => {
    sendLoginPage(res, { baseUrl: req.baseUrl, next: safeNext(req.baseUrl, req.query.next) });
  });

  router.post(
    '/login',
    refuseCrossSite,
    loginPageWhenLockedOut,
    limiter,
    express.urlencoded({ extended: false, limit: MAX_FORM_BYTES, parameterLimit: 4 }),
    (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const next = safeNext(req.baseUrl, body.next);
      if (typeof body.token !== 'string' || !secretsEqual(body.token, opts.token)) {
        sendLoginPage(res, { baseUrl: req.baseUrl, next, message: 'That is not the admin token.', status: 401 });
        return;
      }
      res.cookie(SESSION_COOKIE, sessions.issue(), {
        httpOnly: true,
        sameSite: 'strict',
        secure: req.secure,
        path: req.baseUrl || '/',
        maxAge: sessions.ttlSecs * 1000,
      });
      res.redirect(303, next);
    },
  );

  router.post('/logout', refuseCrossSite, (req, res) => {
    sessions.revoke(sessionCookie(req));
    res.clearCookie(SESSION_COOKIE, {
      httpOnly: true,
      sameSite: 'strict',
      secure: req.secure,
      path: req.baseUrl || '/',
    });
    res.redirect(303, `${req.baseUrl}/login`);
  });

  // The guard runs inside each route rather than before them all, so that a refused request is
  // counted in the API's metrics under the route it asked for, not as unmatched; the
  // `router.use(admin)` after the routes refuses every other path.
  const admin = requireAdmin(opts.token, sessions, limiter);

  const readStats = async (): Promise<AdminStats | null> => {
    try {
      return await collectStats(opts, opts.statsTimeoutMs);
    } catch (err) {
      opts.onError(err);
      return null;
    }
  };

  router.get('/', admin, async (req, res) => {
    sendDashboard(res, {
      baseUrl: req.baseUrl,
      stats: await readStats(),
      refreshIntervalMs: opts.refreshIntervalMs,
      distributed: (opts.bullQueues?.length ?? 0) > 0,
    });
  });

  router.get('/api/stats', admin, async (_req, res) => {
    const stats = await readStats();
    if (stats) res.json(stats);
    else sendProblem(res, 'backend-unavailable', 'The queue or the search index did not answer; try again shortly.');
  });

  const readHosts = async (query: HostQuery): Promise<AdminHosts | null> => {
    try {
      return await collectHosts(opts, query, opts.statsTimeoutMs);
    } catch (err) {
      opts.onError(err);
      return null;
    }
  };

  router.get('/api/hosts', admin, async (req, res) => {
    let query: HostQuery;
    try {
      query = parseHostsQuery(req.query);
    } catch (err) {
      if (!(err instanceof BadHostsParam)) throw err;
      return sendProblem(res, 'invalid-parameter', err.message, err.param);
    }
    const hosts = await readHosts(query);
    if (hosts) res.json(hosts);
    else sendProblem(res, 'backend-unavailable', 'The crawl queue did not answer; try again shortly.');
  });

  const { removals } = addSitesRoutes(router, admin, {
    crawl: opts.crawl,
    searchIndex: opts.searchIndex,
    ...(opts.blobs ? { blobs: opts.blobs } : {}),
    onError: opts.onError,
  });
  const readForgotten = async (): Promise<string[] | null> => {
    try {
      return await opts.crawl.forgotten();
    } catch (err) {
      opts.onError(err);
      return null;
    }
  };

  router.get('/hosts', admin, async (req, res) => {
    const forgotten = await readForgotten();
    const indexed = forgotten && (await sitePageCounts(opts.searchIndex, forgotten).catch(() => null));
    const sites = { forgotten, indexed, removals, canRemove: opts.blobs !== undefined };
    const page = { baseUrl: req.baseUrl, refreshIntervalMs: opts.refreshIntervalMs, sites };
    let query: HostQuery;
    try {
      query = parseHostsQuery(req.query);
    } catch (err) {
      if (!(err instanceof BadHostsParam)) throw err;
      const fallback = { sort: 'queued', limit: DEFAULT_HOSTS_LIMIT, offset: 0 } as const;
      return sendHostsPage(res, { ...page, query: fallback, hosts: null, error: err.message });
    }
    sendHostsPage(res, { ...page, query, hosts: await readHosts(query) });
  });

  const bullQueues = opts.bullQueues ?? [];
  // The board is mounted, with routes of its own: the routes before it name the board for the
  // metrics when they refuse (`/queues{/*path}` would put braces in the label); the mount keeps its
  // own guard, whatever those patterns match.
  router.all('/queues', admin);
  router.all('/queues/*path', admin);
  router.use(
    '/queues',
    admin,
    bullQueues.length > 0
      ? bullBoardHandler(bullQueues, opts.bullBoardReadOnly, opts.statsTimeoutMs)
      : embeddedQueuesHandler(),
  );

  router.use(admin);
  router.use((_req, res) => {
    sendProblem(res, 'not-found', 'No such admin page.');
  });
  // Malformed or oversized bodies are the client's fault; anything else is logged, never shown.
  router.use((err: unknown, _req: Request, res: Response, next: (err?: unknown) => void) => {
    if (res.headersSent) return next(err);
    const status = (err as { status?: unknown } | null)?.status;
    if (status === 413) return sendProblem(res, 'too-large', 'The request body is too large.');
    if (typeof status === 'number' && status >= 400 && status < 500)
      return sendProblem(res, 'bad-request', 'The request is malformed.');
    opts.onError(err);
    sendProblem(res, 'internal-error', 'The admin pages failed; the error was logged.');
  });
  return router;
}

/** A locked-out login form gets its page back saying so (429), not the limiter's JSON problem. */
function loginPageWhenLockedOut(req: Request, res: Response, next: () => void): void {
  if (wantsHtml(req)) {
    answerSpentGuesses(res, () => {
      const message = 'Too many failed logins from this address; try again later.';
      sendLoginPage(res, { baseUrl: req.baseUrl, next: `${req.baseUrl}/`, message, status: 429 });
    });
  }
  next();
}

function refuseCrossSite(req: Request, res: Response, next: () => void): void {
  if (isSameOrigin(req)) next();
  else sendProblem(res, 'forbidden', 'Cross-site request refused.');
}
