import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

// A caller-supplied request id is reused only when it is short and plain (log-injection safe).
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * JSON request logs with pino-http: one line per response with the request id (also sent back as
 * `X-Request-Id`), method, path, status and time. Headers are not logged at all, so keys, admin
 * tokens and cookies cannot leak; the redaction paths guard against a serializer change, and a
 * credential put in the query string is redacted from the URL (see {@link loggedUrl}).
 */
export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
    // A 5xx answered on purpose (a 503 while a backend is down) has no error: pino-http makes one up
    // (`failed with status code 503`, with a stack of its own code) and logs it as the request's.
    customErrorObject: (_req, res, error, logged) =>
      isMadeUp(res, error) ? { res: logged.res, responseTime: logged.responseTime } : logged,
    customErrorMessage: (_req, res, error) => (isMadeUp(res, error) ? 'request completed' : 'request errored'),
    serializers: {
      req: (req: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        url: loggedUrl(req.url),
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}

/** Query parameters whose names say they carry a credential (`api_key`, `token`, `access_token`). */
const SECRET_PARAM =
  /^(?:x[-_]?)?(?:api[-_]?key|key|token|access[-_]?token|auth|authorization|password|secret|admin[-_]?token)$/i;
/** A Quarry API key (see @quarry/keys), wherever it stands in a URL. */
const API_KEY = /qk_[A-Za-z0-9_-]{20,}/g;

/**
 * A request's URL as logged: the values of parameters named as credentials, and anything shaped
 * like an API key, replaced by `[redacted]`. Quarry reads keys from headers only, but a client that
 * puts one in the query string (`?api_key=…`, as other search APIs take it) would have it written
 * to the log in full.
 */
export function loggedUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url.replace(API_KEY, '[redacted]');
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      let name = pair.slice(0, eq);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: the name as sent.
      }
      return SECRET_PARAM.test(name.trim()) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`.replace(API_KEY, '[redacted]');
}

/** Whether `error` is the one pino-http makes up for a 5xx response that no error caused. */
function isMadeUp(res: ServerResponse & { err?: unknown }, error: Error): boolean {
  return res.err === undefined && error.message === `failed with status code ${res.statusCode}`;
}
