import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { QuarryBackend } from './backend.js';
import { registerContentTool } from './content-tool.js';
import { registerCrawlTool } from './crawl-tool.js';
import { registerSearchTool } from './search-tool.js';
import type { ErrorReporter } from './tool-result.js';

/** Options of {@link createQuarryMcpServer}. */
export interface QuarryMcpOptions {
  /** Version reported to clients. @defaultValue '0.1.0' */
  readonly version?: string;
  /** Told about failures that are not the caller's fault (a down backend, a bug). */
  readonly onError?: ErrorReporter;
}

const INSTRUCTIONS =
  'Quarry is a self-hosted web search engine. Use search to find pages (plain-language questions work), ' +
  'then get_content with a result id to read one; pass your question as query with max_tokens to receive ' +
  'only the relevant passages, with character offsets for citation.';

/**
 * An MCP server with Quarry's tools: `search`, `get_content`, and `crawl_site` when the backend
 * offers crawling. Connect it to any transport; one server serves one connection.
 */
export function createQuarryMcpServer(backend: QuarryBackend, options: QuarryMcpOptions = {}): McpServer {
  const server = new McpServer(
    { name: 'quarry', title: 'Quarry search', version: options.version ?? '0.1.0' },
    { instructions: INSTRUCTIONS },
  );
  const onError: ErrorReporter = options.onError ?? (() => undefined);
  registerSearchTool(server, backend, onError);
  registerContentTool(server, backend, onError);
  if (backend.crawlSite) registerCrawlTool(server, backend.crawlSite.bind(backend), onError);
  return server;
}

/**
 * Serves the server on this process's stdin/stdout until the client closes stdin or `signal`
 * aborts. Nothing else may write to stdout meanwhile: it carries the protocol (log to stderr).
 */
export async function serveStdio(server: McpServer, signal?: AbortSignal): Promise<void> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
