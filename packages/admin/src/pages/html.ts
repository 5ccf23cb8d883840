import { randomBytes } from 'node:crypto';
import type { Response } from 'express';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Pieces of one page; `body` is trusted HTML built with {@link escapeHtml}. */
export interface PageParts {
  readonly title: string;
  readonly body: string;
  /** Page-specific CSS, appended to the shared style sheet. */
  readonly css?: string;
  /** Inline script, run under the page's CSP nonce. */
  readonly script?: string;
}

const BASE_CSS = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6475; --bg: #f6f7f9; --card: #fff;
  --line: #dde1e8; --accent: #2457c5; --bad: #b3261e; --ok: #1b7f3b; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ef; --muted: #9aa3b2; --bg: #12161c;
  --card: #1b2029; --line: #2c3340; --accent: #7aa2ff; --bad: #ff8a80; --ok: #7ddc97; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--fg); background: var(--bg); }
header { display: flex; align-items: center; gap: 1.5rem; padding: .75rem 1.5rem;
  background: var(--card); border-bottom: 1px solid var(--line); }
header h1 { font-size: 1.1rem; margin: 0; }
header nav { display: flex; gap: 1rem; flex: 1; }
a { color: var(--accent); }
main { max-width: 64rem; margin: 0 auto; padding: 1.5rem; }
button { font: inherit; padding: .4rem .9rem; border-radius: 6px; border: 1px solid var(--line);
  background: var(--card); color: var(--fg); cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
.muted { color: var(--muted); }
.error { color: var(--bad); }
`;

/**
 * Sends a self-contained HTML page: inline CSS and script only, under a CSP that allows nothing
 * from elsewhere (a per-response nonce for the inline parts, `connect-src 'self'` for polling).
 */
export function sendPage(res: Response, page: PageParts, status = 200): void {
  const nonce = randomBytes(16).toString('base64');
  res.setHeader(
    'Content-Security-Policy',
    [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      "connect-src 'self'",
      "img-src 'self' data:",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
  );
  const script = page.script ? `<script nonce="${nonce}">${page.script}</script>` : '';
  res
    .status(status)
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<meta name="robots" content="noindex"><title>${escapeHtml(page.title)}</title>` +
        `<style nonce="${nonce}">${BASE_CSS}${page.css ?? ''}</style></head>` +
        `<body>${page.body}${script}</body></html>`,
    );
}

/** The header shared by the signed-in pages: navigation and a logout button (a POST form). */
export function adminHeader(baseUrl: string, current: 'dashboard' | 'hosts' | 'queues'): string {
  const base = escapeHtml(baseUrl);
  const link = (href: string, label: string, here: boolean) =>
    `<a href="${href}"${here ? ' aria-current="page"' : ''}>${label}</a>`;
  return (
    `<header><h1>Quarry admin</h1><nav>` +
    link(`${base}/`, 'Dashboard', current === 'dashboard') +
    link(`${base}/hosts`, 'Hosts', current === 'hosts') +
    link(`${base}/queues`, 'Queues', current === 'queues') +
    `</nav><form method="post" action="${base}/logout"><button type="submit">Log out</button></form></header>`
  );
}

/**
 * The browser script of a page kept fresh by polling: `setup` (JavaScript run first, in scope of
 * `main`, `status` and `fmt`) defines `render(s)`, which draws the JSON read from the URL in
 * `main`'s `data-<urlData>` attribute (written with textContent only: what it shows is crawled
 * data). Every `data-refresh-ms` the page asks again; a 401 sends it to the login page, another
 * failure is shown in `#status` and tried again. Each redraw stamps `#status` with the answer's
 * `at` and counts itself in its `data-refreshes`.
 *
 * @param urlData - the dataset key of `main` holding the JSON's URL, e.g. `statsUrl`
 */
export function pollingScript(urlData: string, setup: string): string {
  return `
(() => {
  const main = document.querySelector('main');
  const url = main.dataset.${urlData}, loginUrl = main.dataset.loginUrl, every = Number(main.dataset.refreshMs);
  const status = document.getElementById('status');
  const fmt = (n) => typeof n === 'number' ? n.toLocaleString('en-US') : '—';
${setup}
  async function refresh() {
    try {
      const res = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' });
      if (res.status === 401) { location.assign(loginUrl); return; }
      if (!res.ok) throw new Error((await res.json().catch(() => ({}))).detail || res.statusText);
      const s = await res.json();
      render(s);
      // The server's ISO UTC form, as the page was first drawn; the count tells a redraw apart.
      status.className = 'muted'; status.textContent = 'Updated ' + s.at;
      status.dataset.refreshes = String(Number(status.dataset.refreshes || 0) + 1);
    } catch (err) {
      status.className = 'error'; status.textContent = 'Could not refresh: ' + err.message;
    }
    setTimeout(refresh, every);
  }
  setTimeout(refresh, every);
})();
`;
}
