import type { SearchIndex } from '@quarry/core';
import type { RequestHandler } from 'express';
import { BACKEND_RETRY_AFTER_SECS } from './error-handler.js';
import { sendProblem } from './problem.js';

/** `GET /healthz`: 200 `{status: "ok"}` when the index answers a ping, 503 otherwise. */
export function healthRoute(index: SearchIndex): RequestHandler {
  return async (req, res) => {
    try {
      await index.ping();
    } catch (err) {
      req.log.warn({ err }, 'health check: index unavailable');
      res.setHeader('Retry-After', String(BACKEND_RETRY_AFTER_SECS));
      sendProblem(res, 'backend-unavailable', 'The search index is not answering.');
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  };
}
