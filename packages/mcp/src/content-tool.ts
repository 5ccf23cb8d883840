import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type PageDocument, pageIdsForUrl, toContentResponse } from '@quarry/core';
import {
  PASSAGE_BOUNDS,
  type Passage,
  type Portion,
  pageMarkdown,
  pagePortion,
  selectPassagesAside,
} from '@quarry/passages';
import { z } from 'zod';
import { enumArg, intArg, textArg, toolArgs } from './args.js';
import type { QuarryBackend } from './backend.js';
import { SEARCH_TOOL_BOUNDS } from './search-tool.js';
import { type ErrorReporter, guarded, toolError, toolResult } from './tool-result.js';

const START_ERROR = 'start must be an integer of at least 0';

/**
 * Most tokens (o200k) of a page read whole, without max_tokens: a longer page comes as its first
 * portion of this size, with where to read on. A 5 MB page read whole made a 10 MB answer, past
 * what MCP clients take in one message (the SDK's stdio client closes the session at 10 MiB), and
 * past what any model reads at once; 25,000 is what MCP clients commonly accept from one tool call.
 */
export const WHOLE_PAGE_TOKENS = 25_000;
/** Characters under which a page holds fewer than {@link WHOLE_PAGE_TOKENS} tokens (at most two a character, as o200k spends on all but the rarest characters): it is not counted. */
const WHOLE_PAGE_CHARS = WHOLE_PAGE_TOKENS / 2;

const inputSchema = toolArgs({
  id: textArg('id', 256).optional().describe('The id of a search result whose source is "local".'),
  url: textArg('url', 2048)
    .optional()
    .describe('Instead of id: the URL of an indexed page (either scheme; fragment and tracking parameters ignored).'),
  format: enumArg('format', ['text', 'markdown'])
    .default('text')
    .describe('text: plain paragraphs. markdown: headings, lists, links and tables kept. Ignored with query.'),
  query: textArg('query', SEARCH_TOOL_BOUNDS.qMaxChars)
    .optional()
    .describe('Your question: return only the passages of the page most relevant to it, not the whole page.'),
  max_tokens: intArg('max_tokens', PASSAGE_BOUNDS.minTokens, PASSAGE_BOUNDS.maxTokens)
    .optional()
    .describe(
      `Token budget (o200k tokens; default ${PASSAGE_BOUNDS.defaultTokens}). With query: for the passages together. ` +
        'Without query: read the page in portions of at most this many tokens, from start.',
    ),
  start: z
    .number({ error: START_ERROR })
    .int({ error: START_ERROR })
    .min(0, { error: START_ERROR })
    .optional()
    .describe(
      'Without query: the offset in the page (in the chosen format) to read a portion from, in UTF-16 code units ' +
        '(as JavaScript strings count: a character beyond U+FFFF, such as an emoji, counts two); default 0, the ' +
        'beginning. To read on, give the end of the portion before, as the result says.',
    ),
});

const PORTION_ONLY = `with max_tokens or start, or when the page is longer than ${WHOLE_PAGE_TOKENS} tokens, only the portion read.`;

const passageSchema = z.object({
  text: z.string(),
  start: z.number().int().describe('Offset of the passage in the full text, in UTF-16 code units (cite it with end).'),
  end: z.number().int(),
  score: z.number(),
  heading_path: z.array(z.string()),
});

const outputSchema = {
  id: z.string(),
  url: z.string(),
  title: z.string(),
  author: z.string().nullable(),
  published_at: z.string().nullable(),
  lang: z.string(),
  word_count: z.number().int(),
  crawled_at: z.string(),
  has_llms_txt: z.boolean(),
  body_text: z.string().optional().describe(`The page as plain text (format text, no query); ${PORTION_ONLY}`),
  body_markdown: z.string().optional().describe(`The page as markdown (format markdown, no query); ${PORTION_ONLY}`),
  passages: z.array(passageSchema).optional().describe('With query: the relevant passages, in page order.'),
  portion: z
    .object({
      start: z
        .number()
        .int()
        .describe('Offset of the portion in the whole page (UTF-16 code units, in the chosen format).'),
      end: z.number().int().describe('Offset just past the portion: give it as start to read on.'),
      length: z
        .number()
        .int()
        .describe('Length of the whole page in the chosen format, in UTF-16 code units: end equals it at the end.'),
      tokens: z.number().int().describe('Tokens of the portion (o200k).'),
    })
    .optional()
    .describe(
      `With max_tokens or start and no query, or a page past ${WHOLE_PAGE_TOKENS} tokens: which part of the page body_text or body_markdown holds.`,
    ),
};

/** Registers `get_content`: a page's text or markdown, or only its passages relevant to a query. */
export function registerContentTool(server: McpServer, backend: QuarryBackend, onError: ErrorReporter): void {
  server.registerTool(
    'get_content',
    {
      title: 'Read an indexed page',
      description:
        'Read a page found with search, by its id (or by its URL, if it is indexed). Without query, returns the whole page (format text or ' +
        `markdown), or its first ${WHOLE_PAGE_TOKENS.toLocaleString('en-US')} tokens when it is longer, with the start to ` +
        'read on from; with max_tokens, only a portion of it within that token budget, from start (an offset, ' +
        'default 0) to the end of a paragraph or sentence, and the start to read on from. With query (your question) ' +
        'and max_tokens, returns only the passages that answer it, within that token budget, in page order, each with ' +
        'its offsets in the full text so an answer can cite them. Offsets count UTF-16 code units, as JavaScript ' +
        'strings do (an emoji or another character beyond U+FFFF counts two). Prefer query + max_tokens for long pages; ' +
        'read one in portions (max_tokens, then start) when you need all of it.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded('get_content', onError, async () => {
        if (args.start !== undefined && args.query !== undefined) {
          return toolError(
            'start reads the page in portions and does not go with query: drop query to read the page from start, ' +
              'or drop start for the passages that answer query.',
          );
        }
        if (args.id === undefined && args.url === undefined) {
          return toolError('Give the page to read: id (of a search result) or url (of an indexed page).');
        }
        if (args.id !== undefined && args.url !== undefined) {
          return toolError('Give either id (of a search result) or url (of an indexed page), not both.');
        }
        const doc = args.id !== undefined ? await backend.page(args.id) : await backend.pageAt(args.url ?? '');
        if (!doc) {
          return toolError(
            args.id !== undefined
              ? `No indexed page has the id "${args.id}". Use the id of a search result whose source is "local".`
              : `No page is indexed at "${args.url}". Search for it, or crawl it first.`,
          );
        }
        // A URL the crawl took for a copy of this page (its AMP or print view, a moved URL) is said.
        const copy = args.url !== undefined && !pageIdsForUrl(args.url).includes(doc.id) ? args.url : undefined;
        const head = header(doc, copy);
        const meta = metadata(doc);
        if (args.query !== undefined) {
          const maxTokens = args.max_tokens ?? PASSAGE_BOUNDS.defaultTokens;
          const selected = await selectPassagesAside({
            bodyText: doc.body_text,
            ...(doc.body_markdown ? { bodyMarkdown: doc.body_markdown } : {}),
            query: args.query,
            lang: doc.lang,
            maxTokens,
          });
          const passages = selected.map(({ text, start, end, score, heading_path }: Passage) => ({
            text,
            start,
            end,
            score,
            heading_path,
          }));
          return toolResult(renderPassages(head, passages, maxTokens), { ...meta, passages });
        }
        if (args.max_tokens !== undefined || args.start !== undefined) {
          const maxTokens = args.max_tokens ?? PASSAGE_BOUNDS.defaultTokens;
          return portionResult(doc, head, args.format, args.start ?? 0, maxTokens);
        }
        const body = args.format === 'markdown' ? pageMarkdown(doc) : doc.body_text;
        if (body.length > WHOLE_PAGE_CHARS) {
          // Its first portion of WHOLE_PAGE_TOKENS: the page when that is all of it.
          const first = pagePortion({ text: body, maxTokens: WHOLE_PAGE_TOKENS });
          if (first.end < body.length) return portionAnswer(doc, head, args.format, body, first);
        }
        return toolResult(`${head}\n\n${body}`, {
          ...meta,
          [args.format === 'markdown' ? 'body_markdown' : 'body_text']: body,
        });
      }),
  );
}

/**
 * The portion of the page in `format` from `start` within `maxTokens`, with the offset to read on
 * from; a tool error naming the page's length when `start` is at or past its end.
 */
function portionResult(
  doc: PageDocument,
  head: string,
  format: 'text' | 'markdown',
  start: number,
  maxTokens: number,
): CallToolResult {
  const body = format === 'markdown' ? pageMarkdown(doc) : doc.body_text;
  if (start > 0 && start >= body.length) {
    return toolError(
      `start ${start} is past the end of the page: its ${format} has ${body.length} UTF-16 code units. ` +
        `Give a start below ${body.length} (0 for the beginning).`,
    );
  }
  return portionAnswer(doc, head, format, body, pagePortion({ text: body, start, maxTokens }));
}

/** The answer holding `portion` of the page's `body` in `format`, with the offset to read on from. */
function portionAnswer(
  doc: PageDocument,
  head: string,
  format: 'text' | 'markdown',
  body: string,
  portion: Portion,
): CallToolResult {
  const next = portion.end < body.length ? `continue with start=${portion.end}` : 'end of page';
  const where = `[chars ${portion.start}-${portion.end} of ${body.length}; ${next}]`;
  return toolResult(`${head}\n\n${portion.text.trimEnd()}\n\n${where}`, {
    ...metadata(doc),
    [format === 'markdown' ? 'body_markdown' : 'body_text']: portion.text,
    portion: { start: portion.start, end: portion.end, length: body.length, tokens: portion.tokens },
  });
}

/** The spec's content fields but the body, which each format gives in its own form. */
function metadata(doc: PageDocument) {
  const { body_text: _body, ...meta } = toContentResponse(doc);
  return meta;
}

/**
 * The title, source, author and date of a page, each on its own line when known, and the URL asked
 * for when the page was found in place of a copy's (`copy`).
 */
function header(doc: PageDocument, copy?: string): string {
  return [
    `# ${doc.title || doc.url}`,
    `Source: ${doc.url}`,
    ...(copy ? [`Asked for: ${copy} (the crawl took it for a copy of this page)`] : []),
    ...(doc.author ? [`By: ${doc.author}`] : []),
    ...(doc.published_at ? [`Published: ${doc.published_at}`] : []),
  ].join('\n');
}

function renderPassages(
  head: string,
  passages: readonly { text: string; start: number; end: number; score: number; heading_path: readonly string[] }[],
  maxTokens: number,
): string {
  if (passages.length === 0) {
    return `${head}\n\nNo passage of this page fits within ${maxTokens} tokens; raise max_tokens.`;
  }
  const blocks = passages.map((p) => {
    const where = p.heading_path.length > 0 ? ` (${p.heading_path.join(' > ')})` : '';
    return `[chars ${p.start}-${p.end}]${where}\n${p.text}`;
  });
  // Passages of score 0 are the page's opening, given when no word of the question is on the page.
  const opening = passages.every((p) => p.score === 0)
    ? '\n\nNo word of the question is on this page; its opening instead:'
    : '';
  return `${head}${opening}\n\n${blocks.join('\n\n')}`;
}
