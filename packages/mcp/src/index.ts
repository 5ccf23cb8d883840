export type {
  CrawlSiteOutcome,
  CrawlSiteRequest,
  CrawlSiteResult,
  QuarryBackend,
  SearchToolArgs,
  SiteCrawler,
  ToolSearchResponse,
} from './backend.js';
export { CRAWL_TOOL_BOUNDS } from './crawl-tool.js';
export { serveHttpRequest } from './http.js';
export { invalidMessageReply, JSON_RPC_ERRORS, jsonRpcError } from './json-rpc.js';
export { SEARCH_TOOL_BOUNDS } from './search-tool.js';
export { createQuarryMcpServer, type QuarryMcpOptions, serveStdio } from './server.js';
export type { ErrorReporter } from './tool-result.js';
