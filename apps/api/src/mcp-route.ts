import { acceptCredential } from '@quarry/core';
import {
  createQuarryMcpServer,
  invalidMessageReply,
  JSON_RPC_ERRORS,
  jsonRpcError,
  type SiteCrawler,
  serveHttpRequest,
} from '@quarry/mcp';
import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import { authenticate, clientAuth, hasBearerToken, mayBeAdminToken } from './auth.js';
import type { ApiDeps } from './deps.js';
import { createMcpBackend } from './mcp-backend.js';
import { originAllowed } from './mcp-origin.js';
import { sendProblem } from './problem.js';
import type { Limiters } from './rate-limit.js';

/** JSON-RPC bodies are small; a tool call with a long query is a few kilobytes. */
const MAX_BODY_BYTES = 64 * 1024;

/** Options of {@link mcpRoute}. */
export interface McpRouteOptions {
  /** Offered as the `crawl_site` tool to requests that present the admin token. */
  readonly siteCrawler?: SiteCrawler;
}

/**
 * `POST /mcp`: the MCP tools over Streamable HTTP, stateless (a server per request, JSON
 * responses). Behind the same key authentication and rate limiters as `/api/v1` (one counter for
 * both), after an `Origin` check against DNS rebinding: a key's tool calls count one each, its
 * other messages not at all; without a key every message counts against the client's address. A
 * rate-limited `tools/call` is answered as a tool error (`isError: true`, with the same
 * `Retry-After` and rate-limit headers) so an agent's session survives; other limited requests get
 * the API's 429 problem. A bearer that is no API key
 * is tried as the admin token (counted by `adminGuesses`); a wrong key is a 401, as on `/api/v1`.
 * One POST carries one message (batches are refused), so each tool call is counted. `GET` is 405:
 * a stateless server has no stream to offer.
 */
export function mcpRoute(deps: ApiDeps, limiters: Limiters, options: McpRouteOptions = {}): Router {
  const router = express.Router();
  const keyAuth = authenticate(deps.keys);
  const checkOrigin: RequestHandler = (req, res, next) => {
    if (originAllowed(req.headers.origin, deps.config.host)) return next();
    sendProblem(res, 'forbidden', 'This Origin may not use /mcp (DNS rebinding protection).');
  };
  const authAndLimit: RequestHandler = (req, res, next) => {
    keyAuth(req, res, (err?: unknown) => {
      if (err) return next(err);
      const adminToken = deps.config.adminToken;
      const auth = clientAuth(res);
      // A bearer that is no key of ours may be the admin token (crawl_site): counted as a guess
      // before it is compared. A key, right or wrong, is a key, as on /api/v1.
      if (adminToken && auth.tier === 'rejected' && mayBeAdminToken(req, adminToken)) {
        limitAsToolError(limiters.adminGuesses)(req, res, (err?: unknown) => {
          if (err) return next(err);
          if (!hasBearerToken(req, adminToken)) return limitAsToolError(limiters.api)(req, res, next);
          res.locals.quarryMcpAdmin = true;
          acceptCredential(res);
          limitToolCalls(limiters.publicTier)(req, res, next);
        });
        return;
      }
      if (auth.tier === 'key') {
        acceptCredential(res);
        return limitToolCalls(limiters.api)(req, res, next);
      }
      // Without a credential, the address is all there is to hold a caller to: each of its
      // messages counts, as each of its /api/v1 requests does. A wrong key is counted, then 401.
      limitAsToolError(limiters.api)(req, res, next);
    });
  };
  const handle: RequestHandler = async (req, res) => {
    const admin = res.locals.quarryMcpAdmin === true;
    const backend = createMcpBackend(deps, admin ? options.siteCrawler : undefined);
    const server = createQuarryMcpServer(backend, {
      onError: (err, tool) => req.log.error({ err, tool }, 'MCP tool failed'),
    });
    await serveHttpRequest(server, req, res, req.body);
  };
  const notAllowed: RequestHandler = (_req, res) => {
    res.setHeader('Allow', 'POST');
    sendProblem(res, 'method-not-allowed', 'Use POST: this MCP endpoint is stateless and offers no event stream.');
  };
  // Not strict: a body of JSON that is no object (`"x"`, `3`) is read, to be refused as no message
  // (-32600) rather than as no JSON (-32700).
  const json = express.json({ limit: MAX_BODY_BYTES, strict: false });
  router.post('/', checkOrigin, json, jsonRpcParseError, refuseBatch, refuseNonMessage, authAndLimit, handle);
  router.all('/', checkOrigin, notAllowed);
  return router;
}

/**
 * A body that is not JSON is answered as JSON-RPC 2.0 says (a Parse error, id null), which MCP
 * clients understand, rather than as the API's problem details; other errors go on.
 */
const jsonRpcParseError: ErrorRequestHandler = (err: unknown, _req, res, next) => {
  if ((err as { type?: unknown } | null)?.type !== 'entity.parse.failed') return next(err);
  res.status(400).json(jsonRpcError(null, JSON_RPC_ERRORS.parse, 'Parse error: the request body is not valid JSON.'));
};

/**
 * A JSON-RPC batch (an array of messages) is refused: MCP dropped batching in its 2025-06-18
 * revision, and the limiters count HTTP requests, so a batch of a hundred tool calls would be
 * served for the price of one.
 */
const refuseBatch: RequestHandler = (req, res, next) => {
  if (!Array.isArray(req.body)) return next();
  const message = 'Invalid Request: batches are not supported; send one JSON-RPC message per POST.';
  res.status(400).json(jsonRpcError(null, JSON_RPC_ERRORS.invalidRequest, message));
};

/**
 * A body that is JSON but no JSON-RPC message (`{"foo":1}`, an id null or an object, params a
 * string) is an Invalid Request (-32600), as on stdio; the SDK would call it a Parse error. A body
 * of another type (not read as JSON) goes on, for the SDK's 415.
 */
const refuseNonMessage: RequestHandler = (req, res, next) => {
  const reply = req.body === undefined ? null : invalidMessageReply(req.body, 'body');
  if (reply === null) return next();
  res.status(400).json(reply);
};

/** Whether a JSON-RPC body calls a tool (request or not): what a search or a page read costs. */
function isToolCall(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'tools/call';
}

/**
 * For a caller whose credential is right (a key, the admin token): its tool calls count against
 * `limiter`, one each, as its requests to `/api/v1` do; the protocol around them (`initialize`,
 * notifications, `tools/list`, `ping`) does not, so a session costs no search of the quota.
 */
function limitToolCalls(limiter: RequestHandler): RequestHandler {
  const limited = limitAsToolError(limiter);
  return (req, res, next) => (isToolCall(req.body) ? limited(req, res, next) : next());
}

/** The id of a JSON-RPC `tools/call` request body, else undefined (a batch or another method). */
function toolCallId(body: unknown): string | number | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, id } = body as { method?: unknown; id?: unknown };
  if (method !== 'tools/call') return undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * Runs a limiter; if it refuses a `tools/call`, the 429 problem it sends becomes a JSON-RPC result
 * with `isError: true` and the problem's detail (status 200, the limiter's headers kept), which MCP
 * clients show the model: the rate limit's, or the lockout's after too many wrong admin tokens.
 */
function limitAsToolError(limiter: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const id = toolCallId(req.body);
    if (id === undefined) return limiter(req, res, next);
    const send = res.send.bind(res);
    res.send = ((body: unknown) => {
      res.send = send;
      if (res.statusCode !== 429) return send(body);
      const text = `${problemDetail(body) ?? 'Rate limit exceeded; retry later.'} Do not retry immediately.`;
      res.status(200).type('application/json');
      return send(JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: true } }));
    }) as typeof res.send;
    limiter(req, res, (err?: unknown) => {
      res.send = send;
      next(err);
    });
  };
}

/** The `detail` of a problem details body as the limiters send it (a JSON string), if any. */
function problemDetail(body: unknown): string | undefined {
  try {
    const detail = (JSON.parse(String(body)) as { detail?: unknown } | null)?.detail;
    return typeof detail === 'string' ? detail : undefined;
  } catch {
    return undefined;
  }
}
