import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { RequestHandler } from 'express';
import { adminHeader, escapeHtml, sendPage } from './pages/html.js';

// Bull Board's page links a web font and renders inline styles; this policy keeps the inline styles
// and its own scripts, and makes the browser drop anything from elsewhere (nothing leaves the host).
const BULL_BOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
].join('; ');

/**
 * Bull Board over BullMQ queues, as a handler to mount at `<admin>/queues`. Its `<base href>` must
 * be the public mount path, which only a request knows; it is the same on every request, so
 * setting it per request is idempotent.
 */
export function bullBoardHandler(queues: readonly Queue[], readOnly: boolean): RequestHandler {
  const serverAdapter = new ExpressAdapter();
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q, { readOnlyMode: readOnly })),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Quarry queues' } },
  });
  const board = serverAdapter.getRouter() as RequestHandler;
  return (req, res, next) => {
    serverAdapter.setBasePath(req.baseUrl);
    res.setHeader('Content-Security-Policy', BULL_BOARD_CSP);
    board(req, res, next);
  };
}

/** The `/queues` page in embedded mode: there is no BullMQ, the queues are SQLite tables. */
export function embeddedQueuesHandler(): RequestHandler {
  return (req, res) => {
    // req.baseUrl is `<admin>/queues` here; the dashboard lives one level up.
    const adminBase = req.baseUrl.replace(/\/queues$/, '');
    const base = escapeHtml(adminBase);
    sendPage(res, {
      title: 'Quarry admin: queues',
      body:
        adminHeader(adminBase, 'queues') +
        `<main><h2>Queues</h2><p>This Quarry runs embedded: its crawl frontier and index queue are ` +
        `SQLite tables in the data directory, not BullMQ queues, so there is no Bull Board here. ` +
        `Their counts are on the <a href="${base}/">dashboard</a>.</p>` +
        `<p class="muted">Bull Board appears here in the distributed deployment (REDIS_URL set).</p></main>`,
    });
  };
}
