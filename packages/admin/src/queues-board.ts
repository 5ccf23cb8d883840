import type { Queue } from 'bullmq';
import type { RequestHandler } from 'express';
import { adminHeader, escapeHtml, sendPage } from './pages/html.js';
import { sendProblem } from './problem.js';

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
 * Bull Board over BullMQ queues, as a handler to mount at `<admin>/queues`; a request it has not
 * answered within `timeoutMs` (Redis away) gets a 503 problem. Its `<base href>` must
 * be the public mount path, which only a request knows; it is the same on every request, so
 * setting it per request is idempotent. Bull Board's modules load at the first request (a process
 * on the embedded queues never needs them: about 0.4 s of every start-up).
 */
export function bullBoardHandler(queues: readonly Queue[], readOnly: boolean, timeoutMs: number): RequestHandler {
  let loading: Promise<{ setBasePath(path: string): unknown; board: RequestHandler }> | undefined;
  return (req, res, next) => {
    loading ??= loadBoard(queues, readOnly);
    loading.then(({ setBasePath, board }) => {
      setBasePath(req.baseUrl);
      res.setHeader('Content-Security-Policy', BULL_BOARD_CSP);
      // While Redis is away, BullMQ's connections hold every command until it is back, and the
      // board's page spun with no word (its API answered nothing for minutes): past the timeout it
      // is a 503. The board's late answer then fails to write, which is nobody's error.
      let timedOut = false;
      const timer = setTimeout(() => {
        if (res.headersSent) return;
        timedOut = true;
        sendProblem(res, 'backend-unavailable', 'Redis did not answer; the queues show again once it does.');
      }, timeoutMs);
      res.once('close', () => clearTimeout(timer));
      board(req, res, (err?: unknown) => {
        clearTimeout(timer);
        if (!timedOut) next(err);
      });
    }, next);
  };
}

async function loadBoard(queues: readonly Queue[], readOnly: boolean) {
  const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/express'),
  ]);
  const serverAdapter = new ExpressAdapter();
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q, { readOnlyMode: readOnly })),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Quarry queues' } },
  });
  return {
    setBasePath: (path: string) => serverAdapter.setBasePath(path),
    board: serverAdapter.getRouter() as RequestHandler,
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
