import type { FallbackRequest, QueryNode } from '@quarry/core';
import { normalizeSite, siteWithin, siteWithoutPort } from '@quarry/core';

/** How a provider's query language differs from the common web-search syntax. */
export interface QueryDialect {
  /** Rewrites one bare word so the provider reads it as a word, not as its own syntax. */
  readonly word: (text: string) => string;
  /** Longest query the provider accepts, in characters. */
  readonly maxQueryChars: number;
}

const BOOLEAN_WORDS = new Set(['OR', 'AND', 'NOT']);

/**
 * The sites a request is limited to: `site:` operators (ORed) intersected with the `site`
 * parameter (ANDed). Empty means no restriction; null means nothing can match (disjoint sites).
 */
export function effectiveSites(request: FallbackRequest): readonly string[] | null {
  const param = request.site === undefined ? null : normalizeSite(request.site);
  const sites = request.query.sites;
  if (param === null) return sites;
  if (sites.length === 0) return [param];
  const narrowed = new Set<string>();
  for (const site of sites) {
    if (siteWithin(site, param)) narrowed.add(site);
    else if (siteWithin(param, site)) narrowed.add(param);
  }
  return narrowed.size > 0 ? [...narrowed] : null;
}

/**
 * Renders a request's query in the operator syntax that SearXNG's engines and Brave share:
 * `"phrase"`, `-word`, `intitle:`, `A OR B`, `site:`, `filetype:`. Neither documents parentheses,
 * so groups are written flat and an exclusion of a group (which only parentheses could express) is
 * dropped rather than turned into something wider. Returns null when the request can match nothing
 * or leaves no query at all.
 */
export function renderQuery(request: FallbackRequest, dialect: QueryDialect): string | null {
  const sites = effectiveSites(request);
  if (sites === null) return null;
  const parts: string[] = [];
  const text = request.query.root ? renderNode(request.query.root, dialect) : '';
  if (text !== '') parts.push(text);
  // Web search engines know no ports: `site:example.com:8080` is asked as the host's.
  if (sites.length > 0) parts.push(sites.map((s) => `site:${siteWithoutPort(s)}`).join(' OR '));
  if (request.query.filetypes.length > 0) {
    parts.push(request.query.filetypes.map((f) => `filetype:${f}`).join(' OR '));
  }
  const query = clip(parts.join(' '), dialect.maxQueryChars);
  return query === '' ? null : query;
}

function renderNode(node: QueryNode, dialect: QueryDialect): string {
  switch (node.type) {
    case 'term': {
      const word = dialect.word(node.text.replace(/"/g, ''));
      if (word === '') return '';
      // Quoted, a word that looks like an operator (`lang:fr`, `OR`, `+x`) stays an ordinary word.
      const plain = BOOLEAN_WORDS.has(word) || /:|^[-+]/.test(word) ? `"${word}"` : word;
      return node.field === 'title' ? `intitle:${plain}` : plain;
    }
    case 'phrase': {
      const text = node.text.replace(/"/g, ' ').replace(/\s+/g, ' ').trim();
      if (text === '') return '';
      return node.field === 'title' ? `intitle:"${text}"` : `"${text}"`;
    }
    case 'and':
      return join(
        node.children.map((c) => renderNode(c, dialect)),
        ' ',
      );
    case 'or':
      return join(
        node.children.map((c) => renderNode(c, dialect)),
        ' OR ',
      );
    case 'not': {
      const child = node.child;
      if (child.type !== 'term' && child.type !== 'phrase') return '';
      const rendered = renderNode(child, dialect);
      return rendered === '' ? '' : `-${rendered}`;
    }
  }
}

function join(parts: string[], separator: string): string {
  return parts.filter((p) => p !== '').join(separator);
}

/** Cuts at the last space before the limit, so no operator or word is left half-written. */
function clip(query: string, maxChars: number): string {
  if (query.length <= maxChars) return query;
  const cut = query.slice(0, maxChars + 1);
  const space = cut.lastIndexOf(' ');
  let out = space > 0 ? cut.slice(0, space) : '';
  if ((out.match(/"/g)?.length ?? 0) % 2 === 1) {
    // The last quote opens a phrase the cut split: drop that whole token.
    const tokenStart = out.lastIndexOf(' ', out.lastIndexOf('"'));
    out = tokenStart > 0 ? out.slice(0, tokenStart) : '';
  }
  return out.replace(/(\s+OR)+\s*$/, '').trim();
}
