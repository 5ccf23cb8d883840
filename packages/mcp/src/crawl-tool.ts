import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { CrawlSiteRequest, CrawlSiteResult } from './backend.js';
import { type ErrorReporter, guarded, toolResult } from './tool-result.js';

/** Bounds of `crawl_site`: an agent queues small, bounded crawls. */
export const CRAWL_TOOL_BOUNDS = {
  maxDepth: { max: 5, default: 2 },
  maxPages: { max: 1_000, default: 50 },
} as const;

const inputSchema = {
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe('The page to start from (http or https).'),
  max_depth: z
    .number()
    .int()
    .min(0)
    .max(CRAWL_TOOL_BOUNDS.maxDepth.max)
    .default(CRAWL_TOOL_BOUNDS.maxDepth.default)
    .describe('Links to follow from the start page (0: that page only).'),
  max_pages: z
    .number()
    .int()
    .min(1)
    .max(CRAWL_TOOL_BOUNDS.maxPages.max)
    .default(CRAWL_TOOL_BOUNDS.maxPages.default)
    .describe('Most pages to crawl from this site.'),
};

const outputSchema = {
  url: z.string(),
  queued: z.number().int(),
  maxDepth: z.number().int(),
  maxPages: z.number().int(),
};

/** Registers `crawl_site` (admin only): queue a seed with a depth and a page budget. */
export function registerCrawlTool(
  server: McpServer,
  crawlSite: (request: CrawlSiteRequest) => Promise<CrawlSiteResult>,
  onError: ErrorReporter,
): void {
  server.registerTool(
    'crawl_site',
    {
      title: 'Crawl a site into the index',
      description:
        'Queue a web site for crawling so its pages become searchable. Give a start URL, how many links deep ' +
        'to follow and a page budget. Returns what was queued; pages appear in search once crawled ' +
        '(seconds to minutes, politely paced per host). A URL queued before is not queued again.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      guarded('crawl_site', onError, async () => {
        const result = await crawlSite({ url: args.url, maxDepth: args.max_depth, maxPages: args.max_pages });
        const text =
          result.queued > 0
            ? `Queued ${result.url} (depth ${result.maxDepth}, at most ${result.maxPages} pages).`
            : `${result.url} was queued before; nothing new was queued.`;
        return toolResult(text, { ...result });
      }),
  );
}
