import { BackendUnavailableError, credentialAccepted, type QuarryConfig, spentGuessesAnswer } from '@quarry/core';
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, type RateLimitInfo, rateLimit, type Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import { clientAuth } from './auth.js';
import { sendProblem } from './problem.js';

/** Dedicated keys are limited per minute (`ApiKeyRecord.limitPerMin`). */
const KEY_WINDOW_MS = 60_000;

/** IPv6 clients are grouped by /56, the usual size of one subscriber's allocation. */
const IPV6_SUBNET_BITS = 56;

/** Options of {@link createLimiters}. */
export interface LimiterOptions {
  readonly config: QuarryConfig;
  readonly logger: Logger;
  readonly publicStore?: Store;
  readonly keyStore?: Store;
}

/** The rate-limit middleware of the API. */
export interface Limiters {
  /** Public tier per client IP, for requests without a valid key. */
  readonly publicTier: RequestHandler;
  /**
   * Picks the tier from `clientAuth`: a dedicated key gets its own limit and the `X-RateLimit-*`
   * headers; anything else counts against the client IP. A rejected key is counted, then 401.
   */
  readonly api: RequestHandler;
  /**
   * Failed admin-token guesses per client IP (ADMIN_GUESSES per ADMIN_GUESS_WINDOW_MS), run before
   * the token is compared wherever it is accepted (`/metrics`, `/mcp` for a bearer that is no API
   * key, `/admin` without a dashboard, and the dashboard's own login form and bearer, given it as
   * `guessLimiter`): one count, so a lockout on one route covers the others. A right answer is
   * not counted, and during a lockout even the right token waits, so guessing gains nothing from
   * it. In this process's memory.
   */
  readonly adminGuesses: RequestHandler;
}

/** Wrong admin tokens a client may send per window, as the admin login allows. */
const ADMIN_GUESSES = 10;
const ADMIN_GUESS_WINDOW_MS = 15 * 60_000;

/** Builds the limiters; each gets its own store (a store cannot serve two limiters). */
export function createLimiters(options: LimiterOptions): Limiters {
  const { config, logger } = options;
  const windowSecs = config.rateLimit.windowSecs;
  const publicTier = rateLimit({
    windowMs: windowSecs * 1000,
    limit: config.rateLimit.publicPerWindow,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: 'public',
    keyGenerator: (req) => `ip:${ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown', IPV6_SUBNET_BITS)}`,
    handler: (_req, res) => tooManyRequests(res),
    // The proxy setting is deliberate configuration (QUARRY_TRUST_PROXY), so a forwarded header
    // on a direct connection is expected noise, not a misconfiguration to warn about.
    validate: { xForwardedForHeader: false },
    logger,
    ...(options.publicStore ? { store: options.publicStore } : {}),
  });
  const keyTier = rateLimit({
    windowMs: KEY_WINDOW_MS,
    limit: (_req, res) => keyRecord(res).limitPerMin,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: 'key',
    keyGenerator: (_req, res) => `key:${keyRecord(res).id}`,
    handler: (req, res) => {
      setKeyHeaders(req, res);
      tooManyRequests(res);
    },
    validate: { xForwardedForHeader: false },
    logger,
    ...(options.keyStore ? { store: options.keyStore } : {}),
  });
  const publicGuarded = storeFailureIs503(publicTier);
  const keyGuarded = storeFailureIs503(keyTier);
  const api: RequestHandler = (req, res, next) => {
    const auth = clientAuth(res);
    if (auth.tier === 'key') {
      keyGuarded(req, res, (err?: unknown) => {
        if (err) return next(err);
        setKeyHeaders(req, res);
        next();
      });
      return;
    }
    publicGuarded(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (auth.tier === 'rejected') {
        res.setHeader('WWW-Authenticate', 'Bearer realm="quarry"');
        sendProblem(res, 'unauthorized', 'The API key is unknown or revoked. Omit it to use the public tier.');
        return;
      }
      next();
    });
  };
  const adminGuesses = rateLimit({
    windowMs: ADMIN_GUESS_WINDOW_MS,
    limit: ADMIN_GUESSES,
    skipSuccessfulRequests: true,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: 'admin-token',
    requestWasSuccessful: (_req, res) => credentialAccepted(res) || res.statusCode < 400,
    keyGenerator: (req) => `ip:${ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown', IPV6_SUBNET_BITS)}`,
    handler: (_req, res) => {
      // The admin login form answers with its page (see answerSpentGuesses).
      const answer = spentGuessesAnswer(res);
      if (answer) return answer();
      const retryAfter = Number(res.getHeader('Retry-After'));
      const when = Number.isFinite(retryAfter) ? `in ${retryAfter} seconds` : 'later';
      sendProblem(res, 'rate-limited', `Too many wrong admin tokens from this address; retry ${when}.`);
    },
    validate: { xForwardedForHeader: false },
    logger,
  });
  return { publicTier: publicGuarded, api, adminGuesses };
}

function keyRecord(res: Response) {
  const auth = clientAuth(res);
  if (auth.tier !== 'key') throw new Error('key limiter reached without a verified key');
  return auth.record;
}

/** `X-RateLimit-Reset` is in seconds until the window resets (documented in the OpenAPI doc). */
function setKeyHeaders(req: Request, res: Response): void {
  const info = (req as Request & { rateLimit?: RateLimitInfo }).rateLimit;
  if (!info || res.headersSent) return;
  const resetSecs = info.resetTime
    ? Math.max(0, Math.ceil((info.resetTime.getTime() - Date.now()) / 1000))
    : KEY_WINDOW_MS / 1000;
  res.setHeader('X-RateLimit-Limit', String(info.limit));
  res.setHeader('X-RateLimit-Remaining', String(Math.max(0, info.remaining)));
  res.setHeader('X-RateLimit-Reset', String(resetSecs));
}

function tooManyRequests(res: Response): void {
  // express-rate-limit has set Retry-After (seconds) before calling the handler.
  const retryAfter = Number(res.getHeader('Retry-After'));
  const when = Number.isFinite(retryAfter) ? `in ${retryAfter} seconds` : 'later';
  sendProblem(res, 'rate-limited', `Rate limit exceeded; retry ${when}.`);
}

/** A failing counter store (Redis down) is a 503, not a 500 and not an open door. */
function storeFailureIs503(limiter: RequestHandler): RequestHandler {
  return (req, res, next) => {
    limiter(req, res, (err?: unknown) => {
      if (err) return next(new BackendUnavailableError('rate-limit store unavailable', err));
      next();
    });
  };
}
