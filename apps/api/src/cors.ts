import cors from 'cors';
import type { RequestHandler } from 'express';

const corsHandler: RequestHandler = cors({
  origin: '*',
  methods: ['GET', 'HEAD'],
  allowedHeaders: ['Authorization', 'X-API-Key'],
  exposedHeaders: [
    'Quarry-Corrected-Words',
    'Quarry-Match',
    'Quarry-Total',
    'RateLimit',
    'RateLimit-Policy',
    'Retry-After',
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
  ],
  maxAge: 86_400,
});

/**
 * Cross-origin access to the public API (search, content, the OpenAPI document): any origin may
 * read it from a browser, as a public search API is read by web apps and in-browser agents. No
 * credentials are involved (a dedicated key travels in a header the page sets, never in a cookie),
 * so `*` exposes nothing a `curl` does not get. The rate-limit headers are readable by the page, so
 * that it can back off. A preflight is answered here (204, with `Allow` like any OPTIONS), before
 * the key check and the rate limits.
 */
export const apiCors: RequestHandler = (req, res, next) => {
  if (req.method === 'OPTIONS') res.setHeader('Allow', 'GET, HEAD');
  corsHandler(req, res, next);
};
