import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { OPENAPI_DOCUMENT } from '../openapi.js';

/** The parts of a received response the validator looks at (a supertest or fetch response). */
export interface ReceivedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
  readonly text?: string;
}

type Json = Record<string, unknown>;
const doc = OPENAPI_DOCUMENT as unknown as Json & {
  paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
  components: { schemas: Json; headers: Record<string, Json>; responses: Record<string, Json> };
};

// ajv-formats is CommonJS; depending on the loader its plugin is the module or its `default`.
const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (
  ajv: Ajv2020,
) => void;

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);

// The document's refs point at #/components/schemas; each compiled schema carries those as $defs.
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '#/$defs/') : rewriteRefs(v);
  }
  return out;
}
const defs = rewriteRefs(doc.components.schemas);
const cache = new Map<unknown, ValidateFunction>();
function compile(schema: unknown): ValidateFunction {
  let fn = cache.get(schema);
  if (!fn) {
    fn = ajv.compile({ ...(rewriteRefs(schema) as Json), $defs: defs });
    cache.set(schema, fn);
  }
  return fn;
}

function deref<T>(value: Json, kind: 'headers' | 'responses'): T {
  const ref = value.$ref;
  if (typeof ref !== 'string') return value as T;
  const name = ref.split('/').pop() ?? '';
  const target = doc.components[kind][name];
  if (!target) throw new Error(`dangling $ref ${ref}`);
  return { ...target, ...value, $ref: undefined } as T;
}

/**
 * Checks a response against the OpenAPI document: the status is documented for the operation, the
 * required headers are present, documented headers match their schemas, the media type is the
 * documented one, and the body validates. `path` is the document's path template (`null` for a
 * route outside the document: then it must be a problem). Returns the problems found (empty =
 * valid), so a test can `expect(problems).toEqual([])` and see every mismatch at once.
 */
export function specProblems(res: ReceivedResponse, path: string | null, method = 'get'): string[] {
  const problems: string[] = [];
  let spec: Json | undefined;
  if (path === null) {
    spec = { content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
  } else {
    const op = doc.paths[path]?.[method];
    if (!op) return [`no operation ${method} ${path} in the document`];
    const raw = op.responses[String(res.status)];
    if (!raw) return [`status ${res.status} is not documented for ${method} ${path}`];
    spec = deref<Json>(raw, 'responses');
  }
  const headers = (spec.headers ?? {}) as Record<string, Json>;
  for (const [name, rawHeader] of Object.entries(headers)) {
    const header = deref<{ required?: boolean; schema: Json }>(rawHeader, 'headers');
    const value = res.headers[name.toLowerCase()];
    if (value === undefined) {
      if (header.required) problems.push(`missing required header ${name}`);
      continue;
    }
    const text = Array.isArray(value) ? value.join(', ') : value;
    const typed = header.schema.type === 'integer' ? (/^-?\d+$/.test(text) ? Number(text) : text) : text;
    const check = compile(header.schema);
    if (!check(typed)) problems.push(`header ${name}=${text}: ${ajv.errorsText(check.errors)}`);
  }
  const content = spec.content as Record<string, { schema: Json }> | undefined;
  const contentType =
    String(res.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim() ?? '';
  if (!content) {
    if ((res.text ?? '') !== '') problems.push(`status ${res.status} must have no body`);
    return problems;
  }
  const media = content[contentType];
  if (!media) return [...problems, `content type "${contentType}" not documented (${Object.keys(content).join(', ')})`];
  const check = compile(media.schema);
  if (!check(res.body)) problems.push(`body: ${ajv.errorsText(check.errors)}`);
  return problems;
}
