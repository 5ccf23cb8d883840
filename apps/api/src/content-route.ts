import type { ContentResponse, PageDocument } from '@quarry/core';
import { isPageId, toContentResponse, ValidationError } from '@quarry/core';
import { PASSAGE_BOUNDS, type Passage, pageMarkdown, pagePortion, selectPassagesAside } from '@quarry/passages';
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

/**
 * Where a portion of the page sits in the whole (`format`'s text): `whole.slice(start, end)` is the
 * portion; `end` is the `start` to read on from, and equals `length` at the page's end.
 */
export interface ContentPortion {
  readonly start: number;
  readonly end: number;
  /** Characters (UTF-16 code units) of the whole page in the format read. */
  readonly length: number;
  /** Tokens of the portion (o200k_base). */
  readonly tokens: number;
}

/** The content response with the opt-in extras (beyond the spec). */
export interface ContentWithExtras extends ContentResponse {
  body_markdown?: string;
  passages?: ContentPassage[];
}

/**
 * A portion of a page (`max_tokens` or `start` without `query`): the spec's fields, but that the
 * format read holds only the portion: `body_text`, or `body_markdown` (then without `body_text`).
 */
export interface ContentPortionResponse extends Omit<ContentResponse, 'body_text'> {
  body_text?: string;
  body_markdown?: string;
  portion: ContentPortion;
}

/** The validated extras of a content request. */
export interface ContentExtras {
  readonly format: (typeof CONTENT_FORMATS)[number];
  /** Set when `query` was given: the passages to select. */
  readonly passages?: { readonly query: string; readonly maxTokens: number };
  /** Set when `max_tokens` or `start` was given without `query`: the portion of the page to read. */
  readonly portion?: { readonly start: number; readonly maxTokens: number };
}

/** The passages of a page for a query within a token budget, in page order, as the API returns them. */
export async function contentPassages(doc: PageDocument, query: string, maxTokens: number): Promise<ContentPassage[]> {
  // A long page's passages are selected on a worker thread: the API goes on answering meanwhile.
  const selected = await selectPassagesAside({
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
export async function withExtras(
  doc: PageDocument,
  extras: ContentExtras,
): Promise<ContentWithExtras | ContentPortionResponse> {
  if (extras.portion) return portionOf(doc, extras.format, extras.portion);
  const body: ContentWithExtras = toContentResponse(doc);
  if (extras.format === 'markdown') body.body_markdown = pageMarkdown(doc);
  if (extras.passages) body.passages = await contentPassages(doc, extras.passages.query, extras.passages.maxTokens);
  return body;
}

/**
 * The portion of the page in `format` from `start` within `maxTokens` (see `pagePortion`: it ends
 * at a paragraph or sentence end, and the portions read one after the other make up the page).
 * @throws ValidationError (`start`) when `start` is past the end of a page that has text.
 */
function portionOf(
  doc: PageDocument,
  format: ContentExtras['format'],
  { start, maxTokens }: { start: number; maxTokens: number },
): ContentPortionResponse {
  const whole = format === 'markdown' ? pageMarkdown(doc) : doc.body_text;
  if (start > 0 && start >= whole.length) {
    throw new ValidationError(
      `start ${start} is past the end of the page: its ${format} has ${whole.length} UTF-16 code units; ` +
        `give a start below ${whole.length} (0 for the beginning)`,
      'start',
    );
  }
  const portion = pagePortion({ text: whole, start, maxTokens });
  const { body_text: _whole, ...fields } = toContentResponse(doc);
  return {
    ...fields,
    [format === 'markdown' ? 'body_markdown' : 'body_text']: portion.text,
    portion: { start: portion.start, end: portion.end, length: whole.length, tokens: portion.tokens },
  };
}

/** Digits of `start`: a page's text is far shorter than 10^10 characters. */
const START_DIGITS = /^[0-9]{1,10}$/;

/**
 * Validates the content extras: `format` (`text` | `markdown`), `query` (1 to MAX_QUERY_LENGTH
 * characters), `max_tokens` (an integer within {@link PASSAGE_BOUNDS}; its default is
 * `PASSAGE_BOUNDS.defaultTokens`): with `query` the passages' budget, without it a portion's, read
 * from `start` (an integer offset, default 0, only without `query`). Throws a `ValidationError`
 * naming the parameter.
 */
export function parseContentParams(raw: Readonly<Record<string, unknown>>): ContentExtras {
  const format = single(raw, 'format') ?? 'text';
  if (!(CONTENT_FORMATS as readonly string[]).includes(format)) {
    throw new ValidationError(`format must be one of ${CONTENT_FORMATS.join(', ')}`, 'format');
  }
  const query = single(raw, 'query');
  const maxTokensRaw = single(raw, 'max_tokens');
  const startRaw = single(raw, 'start');
  const maxTokens = maxTokensRaw === undefined ? PASSAGE_BOUNDS.defaultTokens : parseMaxTokens(maxTokensRaw);
  if (query === undefined) {
    if (maxTokensRaw === undefined && startRaw === undefined) return { format: format as ContentExtras['format'] };
    if (startRaw !== undefined && !START_DIGITS.test(startRaw)) {
      throw new ValidationError('start must be a whole number of UTF-16 code units, 0 or more', 'start');
    }
    return { format: format as ContentExtras['format'], portion: { start: Number(startRaw ?? 0), maxTokens } };
  }
  if (startRaw !== undefined) {
    throw new ValidationError(
      'start reads the page in portions and does not go with query: drop query to read the page from start, ' +
        'or drop start for the passages that answer query',
      'start',
    );
  }
  if ([...query].length > MAX_QUERY_LENGTH) {
    throw new ValidationError(`query must be at most ${MAX_QUERY_LENGTH} characters`, 'query');
  }
  if (query.trim() === '') throw new ValidationError('query must not be empty', 'query');
  return { format: format as ContentExtras['format'], passages: { query, maxTokens } };
}

function parseMaxTokens(raw: string): number {
  const n = /^[0-9]{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(n >= PASSAGE_BOUNDS.minTokens && n <= PASSAGE_BOUNDS.maxTokens)) {
    throw new ValidationError(
      `max_tokens must be an integer from ${PASSAGE_BOUNDS.minTokens} to ${PASSAGE_BOUNDS.maxTokens}`,
      'max_tokens',
    );
  }
  return n;
}

function single(raw: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ValidationError(`${name} must be given once`, name);
  return value;
}

/**
 * `GET /api/v1/content/:id` (spec 4.2): 404 for an unknown, malformed or external (empty) id.
 * Opt-in extras: `format=markdown` adds `body_markdown`; `query` (and `max_tokens`) add `passages`;
 * `max_tokens` or `start` without `query` answer a portion of the page (see {@link portionOf}).
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
    res.json(await withExtras(doc, extras));
  };
}
