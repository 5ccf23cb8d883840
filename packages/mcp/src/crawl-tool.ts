import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { intArg, toolArgs } from './args.js';
import type { CrawlSiteRequest, CrawlSiteResult } from './backend.js';
import { type ErrorReporter, guarded, toolError, toolResult } from './tool-result.js';

/** Bounds of `crawl_site`: an agent queues small, bounded crawls. */
export const CRAWL_TOOL_BOUNDS = {
  maxDepth: { max: 5, default: 2 },
  maxPages: { max: 1_000, default: 50 },
} as const;

const inputSchema = toolArgs({
  url: z
    .url({ protocol: /^https?$/, error: 'url must be an http or https URL' })
    .max(2048, { error: 'url must be at most 2048 characters' })
    .describe('The page to start from (http or https).'),
  max_depth: intArg('max_depth', 0, CRAWL_TOOL_BOUNDS.maxDepth.max)
    .default(CRAWL_TOOL_BOUNDS.maxDepth.default)
    .describe('Links to follow from the start page (0: that page only).'),
  max_pages: intArg('max_pages', 1, CRAWL_TOOL_BOUNDS.maxPages.max)
    .default(CRAWL_TOOL_BOUNDS.maxPages.default)
    .describe('Most pages to crawl from this site.'),
});

const OUTCOMES = [
  'queued',
  'queued_again',
  'recrawled',
  'already_queued',
  'already_crawled',
  'budget_spent',
  'site_forgotten',
] as const;

// snake_case like the input (max_depth, max_pages) and the search tool's results.
const outputSchema = {
  url: z.string().describe('The start URL (normalized).'),
  outcome: z
    .enum(OUTCOMES)
    .describe(
      'queued: new, will be crawled. queued_again: it had ended skipped or failed and is crawled again. ' +
        'recrawled: crawled before with a smaller depth or page budget; its pages are crawled again with the new ones. ' +
        'already_queued: waiting to be crawled. already_crawled: crawled before with as large a depth and budget, left alone. ' +
        "budget_spent: not queued, its site's page budget is used up (site_pages says by how much: call again " +
        'with max_pages above it). ' +
        'site_forgotten: not queued, the operator took its site out of the crawl.',
    ),
  queued: z.number().int().describe('URLs this call queued (0 or 1; with recrawled, the pages queued again).'),
  previous_state: z.enum(['skipped', 'failed']).optional().describe('With queued_again: how it had ended.'),
  previous_reason: z.string().optional().describe('With queued_again: why, e.g. http_404.'),
  max_depth: z.number().int().optional().describe('With queued or recrawled: the depth it is crawled to.'),
  max_pages: z.number().int().optional().describe("With queued or recrawled: the page budget of the URL's site."),
  site_pages: z
    .number()
    .int()
    .optional()
    .describe(
      'With budget_spent: URLs of its site already in the crawl (queued or crawled), which the page budget ' +
        `counts: a max_pages above it (at most ${CRAWL_TOOL_BOUNDS.maxPages.max}) queues the URL.`,
    ),
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
        'to follow and a page budget. Says what happened: queued; queued again (it had ended skipped or ' +
        'failed); recrawled (crawled before with a smaller depth or budget: its pages are crawled again with ' +
        'the new ones); already queued or already crawled (left alone); or not queued because the page budget of ' +
        'its site is spent: the budget counts the URLs of the site already in the crawl, and the answer says how ' +
        'many, so a larger max_pages queues it. Pages appear in search once crawled (seconds to minutes, politely paced per ' +
        'host). Private and reserved addresses are refused unless the operator allows them.',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (args) =>
      guarded('crawl_site', onError, async () => {
        const result = await crawlSite({ url: args.url, maxDepth: args.max_depth, maxPages: args.max_pages });
        if (result.outcome === 'refused') return toolError(refusal(result.url, result.address));
        return toolResult(describe(result), {
          url: result.url,
          outcome: result.outcome,
          queued:
            result.outcome === 'recrawled'
              ? (result.pages ?? 0)
              : result.outcome === 'queued' || result.outcome === 'queued_again'
                ? 1
                : 0,
          ...(result.previous
            ? {
                previous_state: result.previous.state,
                ...(result.previous.reason ? { previous_reason: result.previous.reason } : {}),
              }
            : {}),
          ...(result.outcome === 'queued' || result.outcome === 'recrawled'
            ? { max_depth: result.maxDepth, max_pages: result.maxPages }
            : {}),
          ...(result.outcome === 'budget_spent' && result.sitePages !== undefined
            ? { site_pages: result.sitePages }
            : {}),
        });
      }),
  );
}

/** Why a URL on a private or reserved address is not crawled, and who can change that. */
function refusal(url: string, address: string): string {
  const host = new URL(url).hostname;
  return (
    `${url} is refused and nothing was queued: ${address} is a private or reserved address, which the crawler ` +
    'does not fetch unless the Quarry operator lists its host, address or range in QUARRY_ALLOW_HOSTS ' +
    `(e.g. QUARRY_ALLOW_HOSTS=${host}). Crawl a public URL instead, or ask the operator to allow this host.`
  );
}

/** One sentence for each outcome but a refusal. */
function describe(result: Exclude<CrawlSiteResult, { outcome: 'refused' }>): string {
  const { url } = result;
  switch (result.outcome) {
    case 'queued':
      return `Queued ${url} (depth ${result.maxDepth}, at most ${result.maxPages} pages); its pages appear in search once crawled.`;
    case 'queued_again': {
      const was = result.previous
        ? ` (it had ended ${result.previous.state}${result.previous.reason ? `: ${result.previous.reason}` : ''})`
        : '';
      return `Queued ${url} again${was}, with the depth and page budget it was first queued with.`;
    }
    case 'recrawled':
      return `${url} was crawled before with a smaller depth or page budget: its ${result.pages ?? 0} pages are queued again and crawled to depth ${result.maxDepth}, at most ${result.maxPages} pages.`;
    case 'already_queued':
      return `${url} is already queued and waits to be crawled; nothing new was queued.`;
    case 'already_crawled':
      return `${url} was crawled before with as large a depth and page budget and is left alone; nothing new was queued.`;
    case 'budget_spent':
      return budgetSpent(url, result.maxPages, result.sitePages);
    case 'site_forgotten':
      return `${url} was not queued: the operator took its site out of the crawl (quarry forget), so none of its pages are crawled.`;
  }
}

/**
 * Why a URL whose site's budget is spent was not queued, and what would queue it: the budget
 * counts every URL of the site already in the crawl, so one above that count, where the tool
 * allows it, queues the URL and that many more of the site.
 */
function budgetSpent(url: string, maxPages: number, sitePages: number | undefined): string {
  const most = CRAWL_TOOL_BOUNDS.maxPages.max;
  const notQueued = `${url} was not queued: the page budget (max_pages ${maxPages}) counts every URL of its site already in the crawl`;
  if (sitePages === undefined) {
    return `${notQueued}, and they are that many or more. A larger max_pages (at most ${most}) may queue it.`;
  }
  const has = `${notQueued}, and it has ${sitePages} (queued or crawled)`;
  if (sitePages >= most) {
    return `${has}, as many as the largest max_pages (${most}) allows, so crawl_site cannot queue more of it.`;
  }
  return `${has}. Call crawl_site again with max_pages above ${sitePages} (at most ${most}) to queue it.`;
}
