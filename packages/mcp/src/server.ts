import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { QuarryBackend } from './backend.js';
import { registerContentTool } from './content-tool.js';
import { registerCrawlTool } from './crawl-tool.js';
import { answerMalformedRequests } from './envelope.js';
import { JSON_RPC_ERRORS, jsonRpcError, notAMessage } from './json-rpc.js';
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
  'only the relevant passages, with offsets (UTF-16 code units) for citation.';

/** An MCP server whose transports answer malformed requests with `-32602` and a sentence. */
class QuarryMcpServer extends McpServer {
  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    answerMalformedRequests(transport);
  }
}

/**
 * An MCP server with Quarry's tools: `search`, `get_content`, and `crawl_site` when the backend
 * offers crawling. Connect it to any transport; one server serves one connection.
 */
export function createQuarryMcpServer(backend: QuarryBackend, options: QuarryMcpOptions = {}): McpServer {
  const server = new QuarryMcpServer(
    { name: 'quarry', title: 'Quarry search', version: options.version ?? '0.1.0' },
    { instructions: INSTRUCTIONS },
  );
  const onError: ErrorReporter = options.onError ?? (() => undefined);
  registerSearchTool(server, backend, onError);
  registerContentTool(server, backend, onError);
  if (backend.crawlSite) registerCrawlTool(server, backend.crawlSite.bind(backend), onError);
  // The SDK declares `listChanged: true` once a tool is registered; these tools are fixed before
  // connecting and never change, and the stateless HTTP transport could not send the notice anyway.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  return server;
}

/** How long the end of stdin (or a signal) waits for the calls already made to be answered. */
const DRAIN_MS = 30_000;

/**
 * Serves the server on this process's stdin/stdout until the client closes stdin or `signal`
 * aborts; the requests already read are answered first (for up to 30 s), so a client that writes
 * its calls and closes stdin, as a script piping requests does, gets every answer. Nothing else
 * may write to stdout meanwhile: it carries the protocol (log to stderr).
 */
export async function serveStdio(server: McpServer, signal?: AbortSignal): Promise<void> {
  const transport = new AnsweringTransport(new StdioServerTransport());
  // A client that stops reading (closes the pipe: `| head`, a crashed host) makes the next answer's
  // write fail with EPIPE, an 'error' on stdout that, unheard, ended the process with a stack trace.
  // It is the end of the session, as the end of stdin is.
  let gone = false;
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    signal?.addEventListener('abort', () => resolve(), { once: true });
    process.stdout.on('error', () => {
      gone = true;
      resolve();
    });
  });
  await server.connect(transport);
  await closed;
  if (!gone) await transport.answered(DRAIN_MS);
  await server.close();
}

/**
 * The JSON-RPC error answering a line the transport could not read as a message (its id unknown,
 * so null): `-32700` for one that is not JSON, `-32600` for JSON that is no JSON-RPC message.
 * Null for other errors (of the stream, or of a handler, which the protocol answers itself).
 */
export function unreadableReply(error: unknown): JSONRPCMessage | null {
  if (error instanceof SyntaxError) {
    return jsonRpcError(null, JSON_RPC_ERRORS.parse, `Parse error: the line is not JSON (${error.message})`);
  }
  if (error instanceof Error && error.name === 'ZodError') return notAMessage('line');
  return null;
}

/**
 * A transport that knows which requests it has read and not yet answered, so that closing can
 * wait for them (the SDK's `close` drops them: their answers would go nowhere).
 */
class AnsweringTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly #inner: Transport;
  readonly #open = new Set<RequestId>();
  #settle: (() => void) | undefined;

  constructor(inner: Transport) {
    this.#inner = inner;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => {
      // A line that is no JSON-RPC message is answered as JSON-RPC says, not dropped unseen.
      const reply = unreadableReply(error);
      if (reply) this.#inner.send(reply).catch(() => {});
      this.onerror?.(error);
    };
    inner.onmessage = (message, extra) => {
      if ('method' in message && 'id' in message) this.#open.add(message.id);
      // A request the client cancels gets no answer (MCP's cancellation): none is awaited.
      else if ('method' in message && message.method === 'notifications/cancelled') {
        const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
        if (id !== undefined) this.#answer(id);
      }
      this.onmessage?.(message, extra);
    };
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    await this.#inner.send(message, options);
    if ('method' in message || !('id' in message) || message.id === undefined) return;
    this.#answer(message.id);
  }

  #answer(id: RequestId): void {
    this.#open.delete(id);
    if (this.#open.size === 0) this.#settle?.();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Resolves once every request read has been answered, or after `ms`, whichever is first. */
  answered(ms: number): Promise<void> {
    if (this.#open.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#settle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
