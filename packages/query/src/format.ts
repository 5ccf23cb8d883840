import type { ParsedQuery, QueryField, QueryNode } from '@quarry/core';

/** A term or phrase the results should contain (for highlighting and for backends' ranking). */
export interface PositiveClause {
  readonly text: string;
  readonly kind: 'term' | 'phrase';
  readonly field: QueryField;
}

/**
 * Writes one node in query syntax. `or` binds tighter than the implicit `and`, so trees produced by
 * `parseQuery` need no parentheses; an `and` nested inside an `or` (which the parser never builds)
 * cannot be written back exactly.
 */
export function formatNode(node: QueryNode): string {
  switch (node.type) {
    case 'term':
      return node.field === 'title' ? `intitle:${node.text}` : node.text;
    case 'phrase':
      return node.field === 'title' ? `intitle:"${node.text}"` : `"${node.text}"`;
    case 'not':
      return `-${formatNode(node.child)}`;
    case 'and':
      return node.children.map(formatNode).join(' ');
    case 'or':
      return node.children.map(formatNode).join(' OR ');
  }
}

/**
 * The canonical string form of a parsed query: the text query, then `site:` and `filetype:`
 * operators. Round-trips: `parseQuery(formatQuery(p))` deep-equals `p` for every `p` that
 * `parseQuery` returned. Also the form the external fallback can start from.
 * @example formatQuery(parseQuery('cats  dogs OR wolves SITE:Example.com')) // 'cats dogs OR wolves site:example.com'
 */
export function formatQuery(parsed: ParsedQuery): string {
  const parts: string[] = [];
  if (parsed.root) parts.push(formatNode(parsed.root));
  for (const site of parsed.sites) parts.push(`site:${site}`);
  for (const filetype of parsed.filetypes) parts.push(`filetype:${filetype}`);
  return parts.join(' ');
}

/**
 * The terms and phrases that are not excluded, in query order, without duplicates: what a snippet
 * should highlight and what a backend ranks on.
 */
export function positiveClauses(parsed: ParsedQuery): PositiveClause[] {
  const clauses: PositiveClause[] = [];
  const seen = new Set<string>();
  const visit = (node: QueryNode): void => {
    switch (node.type) {
      case 'term':
      case 'phrase': {
        const key = `${node.type}\u0000${node.field}\u0000${node.text}`;
        if (!seen.has(key)) {
          seen.add(key);
          clauses.push({ text: node.text, kind: node.type, field: node.field });
        }
        return;
      }
      case 'and':
      case 'or':
        for (const child of node.children) visit(child);
        return;
      case 'not':
        return;
    }
  };
  if (parsed.root) visit(parsed.root);
  return clauses;
}
