import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { TIME_RANGES_MS } from '@quarry/core';
import { z } from 'zod';
import { enumArg, intArg, textArg, toolArgs } from './args.js';
import type { QuarryBackend, SearchToolArgs, ToolSearchResponse } from './backend.js';
import { type ErrorReporter, guarded, toolResult } from './tool-result.js';

/** Bounds of the search tool's arguments: those of `GET /api/v1/search` (spec 4.1). */
export const SEARCH_TOOL_BOUNDS = {
  qMaxChars: 4096,
  limit: { min: 1, max: 100, default: 10 },
  offset: { min: 0, max: 990, default: 0 },
} as const;

const TIME_RANGES = Object.keys(TIME_RANGES_MS) as [string, ...string[]];
const language = (name: string) => {
  const error = `${name} must be a language code such as en or zh-CN`;
  return z.string({ error }).regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/, { error });
};

const inputSchema = toolArgs({
  q: textArg('q', SEARCH_TOOL_BOUNDS.qMaxChars).describe(
    'What to look for: a plain-language question or keywords. Operators: site:example.com (or a path: ' +
      'site:example.com/docs), ' +
      'intitle:word, "exact phrase", -excluded (one dash; --option is searched as a word, and a one-dash ' +
      'option to find goes in quotes: "-Syu"), A OR B, filetype:pdf (also doc, ppt, xls). A URL alone ' +
      '(https://example.org/page) finds that page when it is indexed.',
  ),
  limit: intArg('limit', SEARCH_TOOL_BOUNDS.limit.min, SEARCH_TOOL_BOUNDS.limit.max)
    .default(SEARCH_TOOL_BOUNDS.limit.default)
    .describe('Number of results (1 to 100).'),
  offset: intArg('offset', SEARCH_TOOL_BOUNDS.offset.min, SEARCH_TOOL_BOUNDS.offset.max)
    .default(SEARCH_TOOL_BOUNDS.offset.default)
    .describe('Results to skip, for the next page (0 to 990).'),
  lang: language('lang').optional().describe('Only pages in this language, e.g. en or zh.'),
  lang_priority: language('lang_priority')
    .optional()
    .describe('Rank pages in this language a little higher; others still appear.'),
  site: textArg('site', 2048)
    .optional()
    .describe(
      'Only this site and its subdomains, e.g. example.com; with a path, only the pages under it (example.com/docs).',
    ),
  time_range: enumArg('time_range', TIME_RANGES)
    .optional()
    .describe('Only pages crawled within this period before now.'),
  match: enumArg('match', ['all', 'any'])
    .default('any')
    .describe(
      'any (the default here, because questions contain words a page need not repeat): pages matching more ' +
        'and rarer words rank first (a few pages holding every word, or the words in a row as given, before ' +
        'the others). all: every word must occur (the REST API default), for precise keywords.',
    ),
});

const resultSchema = z.object({
  id: z.string().describe('Pass it to get_content (empty for external results, which have no stored text).'),
  url: z.string(),
  title: z.string(),
  snippet: z.string(),
  domain: z.string(),
  site_name: z.string().optional(),
  lang: z.string(),
  score: z.number(),
  source: z.enum(['local', 'external']),
  has_llms_txt: z.boolean(),
  published_at: z.string().nullable(),
  crawled_at: z.string(),
});

const outputSchema = {
  total: z.number().int().describe('Matches in the index (plus external results added).'),
  total_is_estimate: z
    .boolean()
    .describe('True when more pages match than the index counts exactly: total is then an estimate.'),
  took_ms: z.number().int(),
  results: z.array(resultSchema),
  corrected_query: z
    .string()
    .optional()
    .describe('The query as searched, when words no page holds were searched in the spelling one letter away.'),
};

/** Registers `search`: the REST search, with `match` defaulting to `any` for questions. */
export function registerSearchTool(server: McpServer, backend: QuarryBackend, onError: ErrorReporter): void {
  server.registerTool(
    'search',
    {
      title: 'Search the Quarry index',
      description:
        'Search the web pages indexed by this self-hosted Quarry instance. Ask in plain language or with ' +
        'keywords; words are optional by default (match=any), so a question finds pages that answer it. ' +
        'Returns ranked results with id, url, title and a snippet. To read a page, call get_content with ' +
        'its id (only results with source "local" have one), ideally with your question as query and a ' +
        'max_tokens budget to get just the relevant passages.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded('search', onError, async () => {
        const response = await backend.search(args);
        return toolResult(renderResults(args, response), { ...response });
      }),
  );
}

/** The results as numbered plain text, one block per result; without results, what to try instead. */
export function renderResults(
  args: Pick<SearchToolArgs, 'q' | 'offset' | 'match'>,
  response: ToolSearchResponse,
): string {
  const { q } = args;
  if (response.results.length === 0) return noResults(args, response);
  const count = countOfMatches(response);
  // It opens the text: `About 1,091 matches`.
  const matches = count.charAt(0).toUpperCase() + count.slice(1);
  const corrected = response.corrected_query;
  const heading =
    corrected === undefined
      ? `${matches} for "${q}"`
      : `${matches} for "${corrected}", searched instead of "${q}" (no page holds a word of it as typed; put that word in quotes to search it so)`;
  const lines = [`${heading}; showing ${response.results.length}:`, ''];
  response.results.forEach((r, i) => {
    const when = r.published_at ? `published ${r.published_at}` : `crawled ${r.crawled_at}`;
    const id = r.id ? `id ${r.id}` : 'external result (no stored text)';
    lines.push(`${i + 1}. ${r.title || r.url}`, `   ${r.url}`, `   ${id} · ${r.lang} · ${when}`, `   ${r.snippet}`, '');
  });
  return lines.join('\n').trimEnd();
}

/** `1 match`, `57 matches`, or `about 1,091 matches` when the total is an estimate. */
function countOfMatches({ total, total_is_estimate }: Pick<ToolSearchResponse, 'total' | 'total_is_estimate'>): string {
  const count = `${total.toLocaleString('en-US')} ${total === 1 ? 'match' : 'matches'}`;
  return total_is_estimate ? `about ${count}` : count;
}

function noResults(
  { q, offset, match }: Pick<SearchToolArgs, 'q' | 'offset' | 'match'>,
  response: Pick<ToolSearchResponse, 'total' | 'total_is_estimate'>,
): string {
  const { total } = response;
  if (offset > 0 && total > 0) {
    const matches = countOfMatches(response);
    if (offset >= total) {
      return `Offset ${offset} is past the last result: "${q}" has ${matches}. Use an offset below ${total} (0 for the first page).`;
    }
    return `No more results for "${q}" from offset ${offset} on (${matches} in all). Use a smaller offset.`;
  }
  // match "any" is the default here: suggest it only to a caller who asked for all.
  const tries =
    match === 'all' ? 'other words, fewer filters, or match "any"' : 'other or fewer words, or fewer filters';
  return `No results for "${q}". Try ${tries}.`;
}
