import { HOST_SORTS, type HostQuery, type HostSort } from '@quarry/queue';
import type { Response } from 'express';
import { type AdminHost, type AdminHosts, DEFAULT_HOSTS_LIMIT } from '../hosts.js';
import type { SiteRemoval } from '../sites.js';
import { adminHeader, escapeHtml, pollingScript, sendPage } from './html.js';

const CSS = `
form.filter { display: flex; gap: .5rem; align-items: center; margin-bottom: 1rem; }
form.filter input { font: inherit; padding: .35rem .6rem; border: 1px solid var(--line); border-radius: 6px;
  background: var(--card); color: var(--fg); min-width: 16rem; }
table { width: 100%; border-collapse: collapse; background: var(--card); border: 1px solid var(--line); }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th.count, td.count { text-align: right; font-variant-numeric: tabular-nums; }
th a { color: inherit; }
th[aria-sort] a { color: var(--accent); }
td.host { word-break: break-all; }
td.reasons, td.when { font-size: .8rem; color: var(--muted); }
td.failed { color: var(--bad); }
nav.pages { display: flex; gap: 1rem; align-items: center; margin-top: .75rem; }
section.sites { margin-top: 2rem; }
section.sites h2 { font-size: 1rem; }
section.sites form { display: inline-flex; gap: .5rem; align-items: center; }
section.sites input[type=text] { font: inherit; padding: .35rem .6rem; border: 1px solid var(--line);
  border-radius: 6px; background: var(--card); color: var(--fg); min-width: 16rem; }
section.sites li { margin: .25rem 0; }
#status { font-size: .85rem; }
`;

/** [field, header, sort] of the count columns; those with a sort link to it. */
const COUNT_COLUMNS: readonly (readonly [keyof AdminHost & string, string, HostSort | null])[] = [
  ['queued', 'Queued', 'queued'],
  ['inFlight', 'In flight', null],
  ['done', 'Done', 'done'],
  // Pages, as the dashboard's Skipped tile counts them (the sitemaps and feeds read apart).
  ['skippedPages', 'Skipped', 'skipped'],
  ['failed', 'Failed', 'failed'],
];

/** What the page says where this process runs no crawler (`quarry serve`). */
const NO_CRAWLER = 'unknown: no crawler in this process';

const fmt = (n: number) => n.toLocaleString('en-US');

/** A link to the hosts page with these parameters (the defaults left out). */
function hostsHref(baseUrl: string, query: HostQuery): string {
  const params = new URLSearchParams();
  if (query.sort !== HOST_SORTS[0]) params.set('sort', query.sort);
  if (query.q) params.set('q', query.q);
  if (query.offset > 0) params.set('offset', String(query.offset));
  if (query.limit !== DEFAULT_HOSTS_LIMIT) params.set('limit', String(query.limit));
  const search = params.toString();
  return `${baseUrl}/hosts${search ? `?${search}` : ''}`;
}

function reasonsText(host: AdminHost): string {
  return host.reasons.map((r) => `${r.reason} ${fmt(r.count)}`).join(', ');
}

function backoffText(host: AdminHost, known: boolean): string {
  if (!known) return NO_CRAWLER;
  return host.backingOff ? `${host.backingOff.reason} until ${host.backingOff.until}` : '';
}

/**
 * What the table says when it lists no host: none crawled or queued yet, none matching the filter,
 * or none on a page past the last. (An empty crawl said "No host matches." with no filter set.)
 */
const NO_HOSTS = {
  yet: 'No hosts yet: nothing has been queued or crawled.',
  matching: 'No host matches.',
  onPage: 'No hosts on this page.',
} as const;

/** Which {@link NO_HOSTS} text an empty page of hosts gets. */
function noHostsText(hosts: Pick<AdminHosts, 'total' | 'q'>): string {
  if (hosts.total > 0) return NO_HOSTS.onPage;
  return hosts.q === null ? NO_HOSTS.yet : NO_HOSTS.matching;
}

/** The table's rows, every crawled value as text. */
function rows(hosts: AdminHosts | null): string {
  if (!hosts) return '<tr><td colspan="9" class="muted">The crawl queue did not answer; retrying.</td></tr>';
  if (hosts.hosts.length === 0) return `<tr><td colspan="9" class="muted">${escapeHtml(noHostsText(hosts))}</td></tr>`;
  return hosts.hosts
    .map(
      (h) =>
        `<tr><td class="host">${escapeHtml(h.host)}</td>` +
        COUNT_COLUMNS.map(
          ([field]) =>
            `<td class="count${field === 'failed' && h.failed > 0 ? ' failed' : ''}">${fmt(h[field] as number)}</td>`,
        ).join('') +
        `<td class="reasons">${escapeHtml(reasonsText(h))}</td>` +
        `<td class="when">${escapeHtml(h.lastFinishedAt ?? '—')}</td>` +
        `<td class="when">${escapeHtml(backoffText(h, hosts.backoffKnown))}</td></tr>`,
    )
    .join('');
}

function summary(hosts: AdminHosts | null, query: HostQuery): string {
  if (!hosts || hosts.total === 0) return '';
  const last = Math.min(hosts.total, query.offset + hosts.hosts.length);
  const first = hosts.hosts.length > 0 ? query.offset + 1 : 0;
  return `hosts ${fmt(first)}–${fmt(last)} of ${fmt(hosts.total)}`;
}

function pager(baseUrl: string, hosts: AdminHosts | null, query: HostQuery): string {
  const prev =
    query.offset > 0
      ? `<a rel="prev" href="${escapeHtml(hostsHref(baseUrl, { ...query, offset: Math.max(0, query.offset - query.limit) }))}">Previous</a>`
      : '';
  const next =
    hosts && query.offset + query.limit < hosts.total
      ? `<a rel="next" href="${escapeHtml(hostsHref(baseUrl, { ...query, offset: query.offset + query.limit }))}">Next</a>`
      : '';
  return `<nav class="pages">${prev}<span id="summary" class="muted">${escapeHtml(summary(hosts, query))}</span>${next}</nav>`;
}

function header(baseUrl: string, query: HostQuery): string {
  const sortLink = (sort: HostSort, label: string) => {
    const current = query.sort === sort;
    return (
      `<th class="count"${current ? ' aria-sort="descending"' : ''}>` +
      `<a href="${escapeHtml(hostsHref(baseUrl, { ...query, sort, offset: 0 }))}">${label}</a></th>`
    );
  };
  return (
    '<tr><th>Host</th>' +
    COUNT_COLUMNS.map(([, label, sort]) => (sort ? sortLink(sort, label) : `<th class="count">${label}</th>`)).join(
      '',
    ) +
    '<th>Top reasons</th>' +
    `<th>${query.sort === 'last' ? 'Last finished (UTC)' : `<a href="${escapeHtml(hostsHref(baseUrl, { ...query, sort: 'last', offset: 0 }))}">Last finished (UTC)</a>`}</th>` +
    '<th>Backed off</th></tr>'
  );
}

// Runs in the browser: polls the same page of hosts and redraws it with textContent only (host
// names and reasons are crawled data).
const SCRIPT = pollingScript(
  'hostsUrl',
  `
  const NO_CRAWLER = ${JSON.stringify(NO_CRAWLER)}, NO_HOSTS = ${JSON.stringify(NO_HOSTS)};
  const COLUMNS = ${JSON.stringify(COUNT_COLUMNS.map(([field]) => field))};
  const body = document.getElementById('hosts');
  const td = (text, cls) => { const c = document.createElement('td'); c.textContent = text; if (cls) c.className = cls; return c; };
  function render(s) {
    body.replaceChildren();
    for (const h of s.hosts) {
      const tr = document.createElement('tr');
      tr.append(td(h.host, 'host'));
      for (const f of COLUMNS) tr.append(td(fmt(h[f]), f === 'failed' && h.failed > 0 ? 'count failed' : 'count'));
      tr.append(td(h.reasons.map((r) => r.reason + ' ' + fmt(r.count)).join(', '), 'reasons'));
      tr.append(td(h.lastFinishedAt || '—', 'when'));
      tr.append(td(!s.backoffKnown ? NO_CRAWLER : h.backingOff ? h.backingOff.reason + ' until ' + h.backingOff.until : '', 'when'));
      body.append(tr);
    }
    if (s.hosts.length === 0) {
      const text = s.total > 0 ? NO_HOSTS.onPage : s.q === null ? NO_HOSTS.yet : NO_HOSTS.matching;
      const c = td(text, 'muted'); c.colSpan = 9; body.append(document.createElement('tr')); body.lastChild.append(c);
    }
    const summary = document.getElementById('summary');
    summary.textContent = s.total === 0 ? '' : 'hosts ' + fmt(s.hosts.length ? s.offset + 1 : 0) + '–' + fmt(Math.min(s.total, s.offset + s.hosts.length)) + ' of ' + fmt(s.total);
  }
  // Forgetting a site removes its pages: asked once more, as a delete is.
  const forget = document.getElementById('forget');
  forget.addEventListener('submit', (event) => {
    const keep = forget.dataset.removes !== 'true' || forget.elements.keep_pages.checked;
    const site = forget.elements.site.value.trim();
    if (!confirm('Forget ' + site + '? Its queued URLs are dropped' + (keep ? '.' : ' and its indexed pages removed.'))) event.preventDefault();
  });`,
);

/** The forgotten sites, shown under the hosts with how their pages' removal stands in this process. */
export interface SitesSection {
  /** Null when the crawl queue did not answer. */
  readonly forgotten: readonly string[] | null;
  readonly removals: ReadonlyMap<string, SiteRemoval>;
  /** The pages each still has indexed; null when the index did not answer. */
  readonly indexed: ReadonlyMap<string, number> | null;
  /** Whether a forget here removes the site's pages too (the page store is at hand). */
  readonly canRemove: boolean;
}

function removalText(removal: SiteRemoval | undefined, indexed: number | undefined): string {
  if (removal === undefined) {
    return indexed
      ? ` (${fmt(indexed)} page${indexed === 1 ? '' : 's'} indexed: forgetting it again removes them)`
      : '';
  }
  const pages = `${fmt(removal.removed)} page${removal.removed === 1 ? '' : 's'}`;
  if (removal.state === 'removing') return ` (removing its pages: ${pages} so far)`;
  if (removal.state === 'failed') return ` (removing its pages failed after ${pages}; quarry forget removes the rest)`;
  return ` (${pages} removed)`;
}

/** The forms that take a site out of the crawl and put a forgotten one back. */
function sitesSection(baseUrl: string, sites: SitesSection): string {
  const action = (path: string) => escapeHtml(`${baseUrl}/sites/${path}`);
  const list =
    sites.forgotten === null
      ? '<p class="error">The crawl queue did not answer.</p>'
      : sites.forgotten.length === 0
        ? '<p class="muted">No site is forgotten.</p>'
        : `<ul id="forgotten">${sites.forgotten
            .map(
              (site) =>
                `<li><span class="site">${escapeHtml(site)}</span>${escapeHtml(removalText(sites.removals.get(site), sites.indexed?.get(site)))} ` +
                `<form method="post" action="${action('unforget')}"><input type="hidden" name="site" value="${escapeHtml(site)}">` +
                '<button type="submit">Crawl again</button></form></li>',
            )
            .join('')}</ul>`;
  const keep = sites.canRemove
    ? '<label><input type="checkbox" name="keep_pages"> keep its pages searchable</label>'
    : '<span class="muted">(its pages stay searchable here: quarry forget removes them)</span>';
  return (
    '<section class="sites"><h2>Sites taken out of the crawl</h2>' +
    '<p class="muted">A forgotten site (a host with its subdomains, or a port or path of it) is not crawled: its queued URLs are dropped unfetched, links to it are refused, and its indexed pages are removed.</p>' +
    `<form id="forget" method="post" action="${action('forget')}" data-removes="${sites.canRemove}">` +
    '<label for="forget-site">Forget</label>' +
    '<input type="text" id="forget-site" name="site" placeholder="example.com/private" maxlength="2048" required>' +
    `${keep}<button type="submit">Forget</button></form>${list}</section>`
  );
}

/**
 * Sends the hosts page: one page of hosts as the query asks, drawn on the server (sorting,
 * filtering and paging are links and a GET form), then refreshed by polling `/api/hosts`.
 * `error` (a bad parameter) is shown instead of a table, with status 400.
 */
export function sendHostsPage(
  res: Response,
  options: {
    baseUrl: string;
    query: HostQuery;
    hosts: AdminHosts | null;
    refreshIntervalMs: number;
    sites: SitesSection;
    error?: string;
  },
): void {
  const { baseUrl, query, hosts } = options;
  const api = new URLSearchParams({ sort: query.sort, limit: String(query.limit), offset: String(query.offset) });
  if (query.q) api.set('q', query.q);
  const apiUrl = `${baseUrl}/api/hosts?${api}`;
  const status = options.error
    ? `<p id="status" class="error">${escapeHtml(options.error)}</p>`
    : hosts
      ? `<p id="status" class="muted">Updated ${escapeHtml(hosts.at)}</p>`
      : '<p id="status" class="error">The crawl queue did not answer; retrying.</p>';
  const counting =
    hosts?.counting === 'outcomes'
      ? '<p class="muted">Distributed mode: done, skipped and failed count outcomes recorded since 2026-12-05 (a page crawled again counts again); in flight counts the politeness slots held.</p>'
      : '';
  sendPage(
    res,
    {
      title: 'Quarry admin: hosts',
      css: CSS,
      ...(options.error ? {} : { script: SCRIPT }),
      body:
        adminHeader(baseUrl, 'hosts') +
        `<main data-hosts-url="${escapeHtml(apiUrl)}" data-login-url="${escapeHtml(`${baseUrl}/login`)}"` +
        ` data-refresh-ms="${options.refreshIntervalMs}">${status}` +
        `<form class="filter" method="get" action="${escapeHtml(`${baseUrl}/hosts`)}">` +
        `<input type="hidden" name="sort" value="${escapeHtml(query.sort)}">` +
        `<label for="q">Host contains</label><input id="q" name="q" value="${escapeHtml(query.q ?? '')}" maxlength="253">` +
        `<button type="submit">Filter</button></form>${counting}` +
        `<table><thead>${header(baseUrl, query)}</thead><tbody id="hosts">${options.error ? '' : rows(hosts)}</tbody></table>` +
        `${pager(baseUrl, hosts, query)}${sitesSection(baseUrl, options.sites)}</main>`,
    },
    options.error ? 400 : 200,
  );
}
