import { isListReason, LIST_REASON_CODES, otherReasons, REASON_NOTES, type ReasonCount } from '@quarry/queue';
import type { Response } from 'express';
import type { AdminStats } from '../stats.js';
import { adminHeader, escapeHtml, pollingScript, sendPage } from './html.js';

const CSS = `
section { margin-bottom: 2rem; }
h2 { font-size: 1rem; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .75rem; }
.tile { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: .9rem 1rem; }
.tile .label { color: var(--muted); font-size: .85rem; }
.tile .value { font-size: 1.6rem; font-variant-numeric: tabular-nums; font-weight: 600; }
.tile.failed .value { color: var(--bad); }
.tile.done .value { color: var(--ok); }
table { width: 100%; border-collapse: collapse; background: var(--card); border: 1px solid var(--line); }
th, td { text-align: left; padding: .45rem .75rem; border-bottom: 1px solid var(--line); }
td.count { text-align: right; font-variant-numeric: tabular-nums; }
td.examples { font-size: .8rem; color: var(--muted); word-break: break-all; }
td .note { font-size: .8rem; color: var(--muted); }
#status { font-size: .85rem; }
#notices p { border-left: 4px solid var(--bad); background: var(--card); padding: .6rem .9rem; margin: 0 0 .5rem; }
`;

/** [stats path, label, tile class] of every tile by section, in page order; the path also names the element. */
const TILES = {
  crawl: [
    ['crawl.queued', 'Queued', ''],
    ['crawl.inFlight', 'In flight', ''],
    ['crawl.done', 'Done', 'done'],
    // Pages, as `quarry status` counts them: the sitemaps and feeds read are skipped URLs too, and so
    // is a seed's sitemap.xml tried and missing: they are "looked for", not "read".
    ['skippedPages', 'Skipped', ''],
    ['crawl.failed', 'Failed', 'failed'],
    ['listsRead', 'Sitemaps and feeds looked for', ''],
  ],
  index: [
    ['index.waiting', 'Waiting', ''],
    ['index.active', 'Being indexed', ''],
    ['index.failed', 'Failed', 'failed'],
  ],
  documents: [['documents', 'Documents indexed', 'done']],
} as const satisfies Record<string, readonly (readonly [string, string, string])[]>;

function valueAt(stats: AdminStats | null, path: string): string {
  let v: unknown = stats;
  for (const key of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  return typeof v === 'number' ? v.toLocaleString('en-US') : '—';
}

function tiles(stats: AdminStats | null, section: keyof typeof TILES): string {
  return TILES[section]
    .map(
      ([path, label, cls]) =>
        `<div class="tile ${cls}"><div class="label">${label}</div>` +
        `<div class="value" data-stat="${path}">${valueAt(stats, path)}</div></div>`,
    )
    .join('');
}

/**
 * Example URLs are shown whole up to this many characters; a longer one shows its first
 * {@link URL_HEAD_CHARS} and last {@link URL_TAIL_CHARS}, whole in its tooltip (a failed URL of
 * 2,031 characters filled a cell a screen high).
 */
const MAX_SHOWN_URL_CHARS = 120;
const URL_HEAD_CHARS = 80;
const URL_TAIL_CHARS = 30;

/** A URL as an example cell shows it (see {@link MAX_SHOWN_URL_CHARS}), cut between code points. */
function shownUrl(url: string): string {
  const chars = [...url];
  if (chars.length <= MAX_SHOWN_URL_CHARS) return url;
  return `${chars.slice(0, URL_HEAD_CHARS).join('')}…${chars.slice(-URL_TAIL_CHARS).join('')}`;
}

/** An example URL's element: the URL as text, shortened when long, then whole in its title. */
function exampleHtml(url: string): string {
  const shown = shownUrl(url);
  return shown === url ? `<div>${escapeHtml(url)}</div>` : `<div title="${escapeHtml(url)}">${escapeHtml(shown)}</div>`;
}

/** One reason's row: its state (unless the table is of one), code with what it means, count and a few example URLs (as text). */
function reasonRow(r: ReasonCount, withState: boolean): string {
  const note = Object.hasOwn(REASON_NOTES, r.reason) ? REASON_NOTES[r.reason] : undefined;
  return (
    `<tr>${withState ? `<td>${escapeHtml(r.state)}</td>` : ''}<td><code>${escapeHtml(r.reason)}</code>` +
    `${note ? `<div class="note">${escapeHtml(note)}</div>` : ''}</td>` +
    `<td class="count">${r.count.toLocaleString('en-US')}</td>` +
    `<td class="examples">${r.examples.map(exampleHtml).join('')}</td></tr>`
  );
}

/**
 * Rows of the reasons pages were skipped or failed for, with an "other reasons" row for those
 * beyond the ten listed a state, so that they add up to the Skipped and Failed tiles: the sitemaps
 * and feeds, which the Skipped tile leaves out, are in a table of their own ({@link listRows}).
 */
function reasonRows(stats: AdminStats | null): string {
  if (!stats) return NOTHING_YET;
  const html = (['skipped', 'failed'] as const)
    .flatMap((state) => {
      const listed = stats.crawl.reasons
        .filter((r) => r.state === state && !isListReason(r.reason))
        .map((r) => reasonRow(r, true));
      const others = otherReasons(stats.crawl, state);
      if (others > 0) {
        listed.push(
          `<tr><td>${state}</td><td class="muted">other reasons</td>` +
            `<td class="count">${others.toLocaleString('en-US')}</td><td></td></tr>`,
        );
      }
      return listed;
    })
    .join('');
  return html || NOTHING_YET;
}

/** Rows of the sitemaps and feeds looked for, by outcome (read, or missing), as the tile of that name counts them. */
function listRows(stats: AdminStats | null): string {
  const rows = (stats?.crawl.reasons ?? []).filter((r) => r.state === 'skipped' && isListReason(r.reason));
  return rows.map((r) => reasonRow(r, false)).join('') || NO_LISTS;
}

const NOTHING_YET_TEXT = 'Nothing skipped or failed so far.';
const NOTHING_YET = `<tr><td colspan="4" class="muted">${NOTHING_YET_TEXT}</td></tr>`;
const NO_LISTS_TEXT = 'No sitemap or feed looked for so far.';
const NO_LISTS = `<tr><td colspan="3" class="muted">${NO_LISTS_TEXT}</td></tr>`;

/**
 * What the back-off table says where this process runs no crawler, by mode: an embedded `quarry
 * serve` (whose Queues page has no delayed jobs to show: there is no Bull Board), or a process of a
 * distributed crawl given no board of the workers' back-offs.
 */
const NO_CRAWLER = {
  embedded:
    'No crawler runs in this process (quarry serve): the crawler of quarry start or quarry crawl --wait keeps the hosts it backs off from in its own memory, and names them on its progress line.',
  distributed:
    'No crawler runs in this process: each worker (quarry worker) backs off from hosts on its own; the pages waiting to be tried again are delayed jobs of the crawl queue (Queues).',
} as const;
const NO_BACKOFF = 'No host is being backed off from.';

/** Rows of the hosts backed off from: host, why and until when (as text: host names are crawled data). */
function backoffRows(stats: AdminStats | null, noCrawler: string): string {
  const note = (text: string) => `<tr><td colspan="3" class="muted">${escapeHtml(text)}</td></tr>`;
  if (!stats) return note(NO_BACKOFF);
  if (!stats.backingOff) return note(noCrawler);
  const { total, hosts } = stats.backingOff;
  if (total === 0) return note(NO_BACKOFF);
  const rows = hosts.map(
    (b) =>
      `<tr><td>${escapeHtml(b.host)}</td><td><code>${escapeHtml(b.reason)}</code></td>` +
      `<td>${escapeHtml(b.until)}</td></tr>`,
  );
  if (total > hosts.length) rows.push(note(`and ${(total - hosts.length).toLocaleString('en-US')} more`));
  return rows.join('');
}

/** The notices' paragraphs (as text); none when there is nothing to act on. */
function noticeParagraphs(stats: AdminStats | null): string {
  return (stats?.notices ?? []).map((notice) => `<p>${escapeHtml(notice)}</p>`).join('');
}

/** JSON with `<` escaped, so that nothing in it can close the script element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

// Runs in the browser: polls the stats and writes them with textContent only (reasons, URLs and
// host names are crawled data).
const SCRIPT = pollingScript(
  'statsUrl',
  `
  const NOTES = ${scriptJson(REASON_NOTES)};
  const NO_CRAWLER = document.getElementById('backoffs').dataset.noCrawler, NO_BACKOFF = ${scriptJson(NO_BACKOFF)};
  const at = (o, path) => path.split('.').reduce((v, k) => (v && typeof v === 'object' ? v[k] : undefined), o);
  // The reasons pages were skipped or failed for, and the sitemaps and feeds apart, as the tiles count them.
  const LIST_REASONS = ${scriptJson(LIST_REASON_CODES)};
  const MAX_SHOWN_URL_CHARS = ${MAX_SHOWN_URL_CHARS}, URL_HEAD_CHARS = ${URL_HEAD_CHARS}, URL_TAIL_CHARS = ${URL_TAIL_CHARS};
  function reasonTable(id, rows, others, empty, withState) {
    const body = document.getElementById(id);
    body.replaceChildren();
    const row = (stateText, reasonCell, n, urls) => {
      const tr = document.createElement('tr'), count = document.createElement('td'), examples = document.createElement('td');
      if (withState) { const state = document.createElement('td'); state.textContent = stateText; tr.append(state); }
      count.className = 'count'; count.textContent = fmt(n); examples.className = 'examples';
      for (const u of urls) {
        const d = document.createElement('div'), chars = [...u];
        if (chars.length <= MAX_SHOWN_URL_CHARS) d.textContent = u;
        else { d.textContent = chars.slice(0, URL_HEAD_CHARS).join('') + '…' + chars.slice(-URL_TAIL_CHARS).join(''); d.title = u; }
        examples.append(d);
      }
      tr.append(reasonCell, count, examples); body.append(tr);
    };
    for (const r of rows) {
      const reason = document.createElement('td'), code = document.createElement('code');
      code.textContent = r.reason; reason.append(code);
      if (Object.hasOwn(NOTES, r.reason)) {
        const note = document.createElement('div'); note.className = 'note'; note.textContent = NOTES[r.reason]; reason.append(note);
      }
      row(r.state, reason, r.count, r.examples || []);
    }
    for (const [st, n] of others) {
      if (n <= 0) continue;
      const reason = document.createElement('td'); reason.className = 'muted'; reason.textContent = 'other reasons';
      row(st, reason, n, []);
    }
    if (!body.firstChild) {
      const td = document.createElement('td');
      td.colSpan = withState ? 4 : 3; td.className = 'muted'; td.textContent = empty;
      body.append(document.createElement('tr')); body.lastChild.append(td);
    }
  }
  function render(s) {
    for (const el of document.querySelectorAll('[data-stat]')) el.textContent = fmt(at(s, el.dataset.stat));
    const rows = s.crawl.reasons || [];
    const isList = (r) => r.state === 'skipped' && LIST_REASONS.includes(r.reason);
    // Every listed reason of a state counts against its total, the sitemaps' too: the rest is "other reasons".
    const others = (st) => s.crawl[st] - rows.filter((r) => r.state === st).reduce((n, r) => n + r.count, 0);
    const pages = ['skipped', 'failed'].flatMap((st) => rows.filter((r) => r.state === st && !isList(r)));
    reasonTable('reasons', pages, [['skipped', others('skipped')], ['failed', others('failed')]], ${scriptJson(NOTHING_YET_TEXT)}, true);
    reasonTable('lists', rows.filter(isList), [], ${scriptJson(NO_LISTS_TEXT)}, false);
    const backoffs = document.getElementById('backoffs');
    backoffs.replaceChildren();
    const backoffRow = (...tds) => { const tr = document.createElement('tr'); tr.append(...tds); backoffs.append(tr); };
    const cell = (text, code) => {
      const td = document.createElement('td'), inner = code ? document.createElement('code') : td;
      inner.textContent = text; if (code) td.append(inner);
      return td;
    };
    const note = (text) => { const td = cell(text); td.colSpan = 3; td.className = 'muted'; backoffRow(td); };
    const b = s.backingOff;
    if (!b) note(NO_CRAWLER);
    else if (b.total === 0) note(NO_BACKOFF);
    else {
      for (const h of b.hosts) backoffRow(cell(h.host), cell(h.reason, true), cell(h.until));
      if (b.total > b.hosts.length) note('and ' + fmt(b.total - b.hosts.length) + ' more');
    }
    const notices = document.getElementById('notices');
    notices.replaceChildren();
    for (const n of s.notices || []) { const p = document.createElement('p'); p.textContent = n; notices.append(p); }
  }`,
);

/**
 * Sends Quarry's dashboard, filled with `stats` when they could be read, then refreshed by polling;
 * `distributed` when the queues are on Redis (its wording of what a process without a crawler knows).
 */
export function sendDashboard(
  res: Response,
  options: { baseUrl: string; stats: AdminStats | null; refreshIntervalMs: number; distributed: boolean },
): void {
  const { baseUrl, stats } = options;
  const noCrawler = NO_CRAWLER[options.distributed ? 'distributed' : 'embedded'];
  const status = stats
    ? `<p id="status" class="muted">Updated ${escapeHtml(stats.at)}</p>`
    : `<p id="status" class="error">The backends did not answer; retrying.</p>`;
  sendPage(res, {
    title: 'Quarry admin',
    css: CSS,
    script: SCRIPT,
    body:
      adminHeader(baseUrl, 'dashboard') +
      `<main data-stats-url="${escapeHtml(`${baseUrl}/api/stats`)}" data-login-url="${escapeHtml(`${baseUrl}/login`)}"` +
      ` data-refresh-ms="${options.refreshIntervalMs}">${status}` +
      `<div id="notices" role="status">${noticeParagraphs(stats)}</div>` +
      `<section aria-labelledby="crawl-h"><h2 id="crawl-h">Crawl</h2><div class="tiles">${tiles(stats, 'crawl')}</div></section>` +
      `<section aria-labelledby="backoff-h"><h2 id="backoff-h">Hosts backed off from</h2>` +
      `<table><thead><tr><th>Host</th><th>Why</th><th>Until, at the latest (UTC)</th></tr></thead>` +
      `<tbody id="backoffs" data-no-crawler="${escapeHtml(noCrawler)}">${backoffRows(stats, noCrawler)}</tbody></table></section>` +
      `<section aria-labelledby="fail-h"><h2 id="fail-h">Why pages were skipped or failed</h2>` +
      `<table><thead><tr><th>State</th><th>Reason</th><th class="count">Pages</th><th>Examples</th></tr></thead>` +
      `<tbody id="reasons">${reasonRows(stats)}</tbody></table></section>` +
      `<section aria-labelledby="lists-h"><h2 id="lists-h">Sitemaps and feeds looked for</h2>` +
      `<table><thead><tr><th>Outcome</th><th class="count">Sitemaps and feeds</th><th>Examples</th></tr></thead>` +
      `<tbody id="lists">${listRows(stats)}</tbody></table></section>` +
      `<section aria-labelledby="index-h"><h2 id="index-h">Index queue</h2><div class="tiles">${tiles(stats, 'index')}</div></section>` +
      `<section aria-labelledby="docs-h"><h2 id="docs-h">Search index</h2><div class="tiles">${tiles(stats, 'documents')}</div></section>` +
      `</main>`,
  });
}
