import type { Response } from 'express';
import { escapeHtml, sendPage } from './html.js';

const CSS = `
main { max-width: 24rem; margin-top: 12vh; }
form.login { display: grid; gap: .75rem; padding: 1.5rem; background: var(--card);
  border: 1px solid var(--line); border-radius: 10px; }
form.login input { font: inherit; padding: .5rem; border-radius: 6px; border: 1px solid var(--line);
  background: var(--bg); color: var(--fg); }
`;

/** Sends the login form; `message` (plain text) explains a failed attempt. */
export function sendLoginPage(
  res: Response,
  options: { baseUrl: string; next: string; message?: string; status?: number },
): void {
  const base = escapeHtml(options.baseUrl);
  const message = options.message ? `<p class="error" role="alert">${escapeHtml(options.message)}</p>` : '';
  sendPage(
    res,
    {
      title: 'Quarry admin: log in',
      css: CSS,
      body:
        `<main><h1>Quarry admin</h1>${message}` +
        `<form class="login" method="post" action="${base}/login">` +
        `<label for="token">Admin token (QUARRY_ADMIN_TOKEN)</label>` +
        `<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>` +
        `<input type="hidden" name="next" value="${escapeHtml(options.next)}">` +
        `<button class="primary" type="submit">Log in</button></form></main>`,
    },
    options.status ?? 200,
  );
}
