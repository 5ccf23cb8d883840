import type { ContentResponse, PageDocument } from '@quarry/core';
import { isPageId, toContentResponse, ValidationError } from '@quarry/core';
import { PASSAGE_BOUNDS, type Passage, pageMarkdown, selectPassages } from '@quarry/passages';
import { MAX_QUERY_LENGTH } from '@quarry/query';
import type { RequestHandler } from 'express';
import type { ApiDeps } from './deps.js';
import { sendProblem } from './problem.js';

/** The `format` values of the content endpoint: `text` (default, the spec's body) or `markdown`. */
export const CONTENT_FORMATS = ['text', 'markdown'] as const;

/** A passage as the content endpoint returns it: `body_text.slice(start, end) === text`. */
export interface ContentPassage {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly score: number;
  readonly heading_path: readonly string[];
}

/** The content response with the opt-in extras (beyond the spec). */
export interface ContentWithExtras extends ContentResponse {
  body_markdown?: string;
  passages?: ContentPassage[];
}

/** The validated extras of a content request. */
export interface ContentExtras {
  readonly format: (typeof CONTENT_FORMATS)[number];
  /** Set when `query` was given: the passages to select. */
  readonly passages?: { readonly query: string; readonly maxTokens: number };
}

/** The passages of a page for a query within a token budget, in page order, as the API returns them. */
export function contentPassages(doc: PageDocument, query: string, maxTokens: number): ContentPassage[] {
  const selected = selectPassages({
    bodyText: doc.body_text,
    ...(doc.body_markdown ? { bodyMarkdown: doc.body_markdown } : {}),
    query,
    lang: doc.lang,
    maxTokens,
  });
  return selected.map(({ text, start, end, score, heading_path }: Passage) => ({
    text,
    start,
    end,
    score,
    heading_path,
  }));
}

/** The content response with the extras a request asked for (none: exactly the spec's fields). */
export function withExtras(doc: PageDocument, extras: ContentExtras): ContentWithExtras {
  const body: ContentWithExtras = toContentResponse(doc);
  if (extras.format === 'markdown') body.body_markdown = pageMarkdown(doc);
  if (extras.passages) body.passages = contentPassages(doc, extras.passages.query, extras.passages.maxTokens);
  return body;
}

/**
 * Validates the content extras: `format` (`text` | `markdown`), `query` (1 to MAX_QUERY_LENGTH
 * characters) and `max_tokens` (an integer within {@link PASSAGE_BOUNDS}, only with `query`; its
 * default is `PASSAGE_BOUNDS.defaultTokens`). Throws a `ValidationError` naming the parameter.
 */
export function parseContentParams(raw: Readonly<Record<string, unknown>>): ContentExtras {
  const format = single(raw, 'format') ?? 'text';
  if (!(CONTENT_FORMATS as readonly string[]).includes(format)) {
    throw new ValidationError(`format must be one of ${CONTENT_FORMATS.join(', ')}`, 'format');
  }
  const query = single(raw, 'query');
  const maxTokensRaw = single(raw, 'max_tokens');
  if (query === undefined) {
    if (maxTokensRaw !== undefined) throw new ValidationError('max_tokens needs a query', 'max_tokens');
    return { format: format as ContentExtras['format'] };
  }
  if ([...query].length > MAX_QUERY_LENGTH) {
    throw new ValidationError(`query must be at most ${MAX_QUERY_LENGTH} characters`, 'query');
  }
  if (query.trim() === '') throw new ValidationError('query must not be empty', 'query');
  let maxTokens: number = PASSAGE_BOUNDS.defaultTokens;
  if (maxTokensRaw !== undefined) {
    const n = /^[0-9]{1,6}$/.test(maxTokensRaw) ? Number(maxTokensRaw) : Number.NaN;
    if (!(n >= PASSAGE_BOUNDS.minTokens && n <= PASSAGE_BOUNDS.maxTokens)) {
      throw new ValidationError(
        `max_tokens must be an integer from ${PASSAGE_BOUNDS.minTokens} to ${PASSAGE_BOUNDS.maxTokens}`,
        'max_tokens',
      );
    }
    maxTokens = n;
  }
  return { format: format as ContentExtras['format'], passages: { query, maxTokens } };
}

function single(raw: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ValidationError(`${name} must be given once`, name);
  return value;
}

/**
 * `GET /api/v1/content/:id` (spec 4.2): 404 for an unknown, malformed or external (empty) id.
 * Opt-in extras: `format=markdown` adds `body_markdown`; `query` (and `max_tokens`) add `passages`.
 */
export function contentRoute(deps: ApiDeps): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const extras = parseContentParams(req.query as Record<string, unknown>);
    const { id } = req.params;
    const doc = isPageId(id) ? await deps.blobs.get(id) : null;
    if (!doc) {
      sendProblem(res, 'not-found', 'No indexed page has this id. Only local results have content.');
      return;
    }
    res.json(withExtras(doc, extras));
  };
}
