import { PROBLEM_TYPES } from './problem.js';

/** The Content-Security-Policy of the docs page: no scripts, nothing fetched from anywhere. */
export const DOCS_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Record<string, unknown>;
}

interface Operation {
  summary?: string;
  description?: string;
  parameters?: readonly Parameter[];
  responses: Record<string, { description?: string; $ref?: string }>;
}

interface Document {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, unknown>;
    headers: Record<string, { description?: string }>;
    responses: Record<string, { description?: string }>;
  };
}

/**
 * A self-contained HTML page rendered from the OpenAPI document: endpoints, parameters with their
 * bounds, responses, headers, schemas and the problem types (anchors `#problem-<kind>` are the
 * targets of the problem `type` URIs). No script and no external asset.
 */
export function renderDocsPage(doc: Document): string {
  const sections: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) sections.push(renderOperation(method, path, op, doc));
  }
  const headers = Object.entries(doc.components.headers)
    .map(([name, h]) => `<tr><td><code>${esc(name)}</code></td><td>${md(h.description ?? '')}</td></tr>`)
    .join('');
  const problems = Object.entries(PROBLEM_TYPES)
    .map(
      ([kind, p]) =>
        `<tr id="problem-${esc(kind)}"><td><code>/docs#problem-${esc(kind)}</code></td><td>${p.status}</td><td>${esc(p.title)}</td></tr>`,
    )
    .join('');
  const schemas = Object.entries(doc.components.schemas)
    .map(([name, s]) => `<h3 id="schema-${esc(name)}">${esc(name)}</h3><pre>${esc(JSON.stringify(s, null, 2))}</pre>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#f5f5f5;padding:.75rem;overflow:auto}
table{border-collapse:collapse;width:100%;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
.method{font-weight:bold;text-transform:uppercase;color:#05a}</style></head>
<body><h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1>
<p>${md(doc.info.description ?? '')}</p><p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a></p>
${sections.join('\n')}
<h2>Headers</h2><table><tr><th>Header</th><th>Meaning</th></tr>${headers}</table>
<h2>Problem types</h2><p>Errors are <code>application/problem+json</code> (RFC 9457).</p>
<table><tr><th>type</th><th>status</th><th>title</th></tr>${problems}</table>
<h2>Schemas</h2>${schemas}
</body></html>`;
}

function renderOperation(method: string, path: string, op: Operation, doc: Document): string {
  const params = (op.parameters ?? [])
    .map(
      (p) =>
        `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td>` +
        `<td>${esc(describeSchema(p.schema ?? {}))}</td><td>${md(p.description ?? '')}</td></tr>`,
    )
    .join('');
  const responses = Object.entries(op.responses)
    .map(([status, r]) => {
      const resolved = r.$ref ? doc.components.responses[r.$ref.split('/').pop() ?? ''] : r;
      return `<tr><td>${esc(status)}</td><td>${md(resolved?.description ?? '')}</td></tr>`;
    })
    .join('');
  return `<h2><span class="method">${esc(method)}</span> <code>${esc(path)}</code></h2>
<p>${esc(op.summary ?? '')}</p>${op.description ? `<p>${md(op.description)}</p>` : ''}
${params ? `<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Type and bounds</th><th>Meaning</th></tr>${params}</table>` : ''}
<table><tr><th>Status</th><th>Meaning</th></tr>${responses}</table>`;
}

function describeSchema(schema: Record<string, unknown>): string {
  const parts = [String(schema.type ?? 'any')];
  for (const key of ['minimum', 'maximum', 'minLength', 'maxLength', 'default', 'pattern'] as const) {
    if (schema[key] !== undefined) parts.push(`${key} ${String(schema[key])}`);
  }
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.join(', ')}`);
  return parts.join('; ');
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Escapes, then turns `code` spans into <code>: the only markdown the document uses. */
function md(text: string): string {
  return esc(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}
