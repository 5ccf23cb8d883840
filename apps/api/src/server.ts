import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { MAX_QUERY_LENGTH } from '@quarry/query';
import type { Express } from 'express';
import { genericProblem, PROBLEM_MEDIA_TYPE } from './problem.js';

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** TCP port; 0 picks a free one. */
  readonly port: number;
  /** Address to listen on (`0.0.0.0`, `127.0.0.1`, `::`). */
  readonly host: string;
  /**
   * How long `close()` lets in-flight requests finish before cutting their connections.
   * @defaultValue 10000
   */
  readonly shutdownTimeoutMs?: number;
}

/** A listening API server. */
export interface RunningServer {
  /** Base URL to reach it from this machine, e.g. `http://127.0.0.1:8080` (also for a wildcard address). */
  readonly url: string;
  /** The address and port it really listens on, e.g. `0.0.0.0:8080` or `[::1]:8080`. */
  readonly address: string;
  readonly port: number;
  /**
   * Stops accepting connections, lets in-flight requests finish, and after `shutdownTimeoutMs`
   * destroys whatever is left. Resolves once the server is closed.
   */
  close(): Promise<void>;
}

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;
/** Request line and headers, at most: the longest `q` percent-encoded, and room for the rest. */
const MAX_HEADER_BYTES = 9 * MAX_QUERY_LENGTH + 16 * 1024;
const IDLE_SWEEP_MS = 50;

/** Listens with `app`; rejects when the port cannot be bound. */
export async function startServer(app: Express, options: ServerOptions): Promise<RunningServer> {
  // Node's default (16 KiB for the request line and headers) is too small for the longest `q`
  // (MAX_QUERY_LENGTH characters, each up to 9 bytes percent-encoded: 36 KiB of Chinese).
  // Node answers an HTTP/1.1 request without a Host header itself, with a bare 400 and no body;
  // the check is made here instead, so that the answer is a problem saying what to fix.
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false }, (req, res) => {
    if (lacksHost(req)) answerMissingHost(res);
    else app(req, res);
  });
  server.on('clientError', answerUnparsable);
  // Node drops a CONNECT (a proxy tunnel) unanswered when nothing listens for it.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.end(
      rawProblem(405, 'CONNECT is not supported: this server is a search API, not a proxy.', {
        Allow: 'GET, HEAD',
      }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve, reject) => {
      const force = setTimeout(() => server.closeAllConnections(), shutdownTimeoutMs);
      force.unref();
      // A keep-alive socket becomes idle once its in-flight response is sent; without this sweep
      // it would hold the close open until the client's keep-alive timeout.
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      sweep.unref();
      server.close((err) => {
        clearTimeout(force);
        clearInterval(sweep);
        if (err) reject(err);
        else resolve();
      });
      server.closeIdleConnections();
    });
    return closing;
  };
  const bound = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
  return { url: `http://${displayHost(options.host)}:${port}`, address: bound, port, close };
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** HTTP/1.1 requires a Host header (RFC 9112, section 3.2); HTTP/1.0 does not. */
function lacksHost(req: IncomingMessage): boolean {
  return req.headers.host === undefined && (req.httpVersionMajor > 1 || req.httpVersionMinor >= 1);
}

function answerMissingHost(res: ServerResponse): void {
  const body = JSON.stringify(genericProblem(400, 'The request has no Host header, which HTTP/1.1 requires.'));
  res.writeHead(400, {
    'Content-Type': `${PROBLEM_MEDIA_TYPE}; charset=utf-8`,
    'Access-Control-Allow-Origin': '*',
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
  });
  res.end(body);
}

/** Node's parser error codes, and what each is answered with. */
const PARSER_STATUS: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  // A method HTTP's parser does not know (`FOO`): not allowed, as PUT or DELETE are, not malformed.
  HPE_INVALID_METHOD: 405,
};

/**
 * A request Node's HTTP parser rejected never reaches Express; Node would answer it with a bare
 * status line. This answers with a problem body saying what to fix, above all for a query typed
 * unencoded (`curl 'http://host/api/v1/search?q=北京'`), which HTTP does not allow in a URL.
 */
function answerUnparsable(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  // As Node does: nothing is written over a response already on its way (a pipelined request).
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const status = PARSER_STATUS[err.code ?? ''] ?? 400;
  socket.end(
    rawProblem(status, parserErrorDetail(status, err.rawPacket), status === 405 ? { Allow: 'GET, HEAD' } : {}),
  );
}

function parserErrorDetail(status: number, raw: Buffer | undefined): string {
  if (status === 431) {
    return `The request line and headers are over ${MAX_HEADER_BYTES} bytes (q holds at most ${MAX_QUERY_LENGTH} characters).`;
  }
  if (status === 408) return 'The request was not received in time.';
  if (status === 405) return 'The request method is not one this server knows: it answers GET and HEAD.';
  if (status === 413) return 'The request has chunk extensions that are too long.';
  const requestLine = raw?.subarray(0, Math.max(0, raw.indexOf(10))) ?? Buffer.alloc(0);
  if (requestLine.some((byte) => byte >= 0x80)) {
    // Said of the query string where it is there (a typed `q`), else of the path (an id, a URL).
    const query = requestLine.indexOf(0x3f); // '?'
    const inQuery = query >= 0 && requestLine.subarray(query).some((byte) => byte >= 0x80);
    return (
      'The URL holds characters that are not percent-encoded, which HTTP does not allow: encode them ' +
      (inQuery
        ? "(q=%E5%8C%97%E4%BA%AC for 北京; curl -G --data-urlencode 'q=北京' does it)."
        : '(北京 is %E5%8C%97%E4%BA%AC in a path; encodeURIComponent does it).')
    );
  }
  return 'The request is not valid HTTP/1.1.';
}

function rawProblem(status: number, detail: string, headers: Readonly<Record<string, string>> = {}): string {
  const body = JSON.stringify(genericProblem(status, detail));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    // As the routes' problems: UTF-8 said, and readable by a browser page on any origin (no
    // credentials), which cannot see why its request failed otherwise.
    `Content-Type: ${PROBLEM_MEDIA_TYPE}; charset=utf-8\r\n` +
    'Access-Control-Allow-Origin: *\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'X-Content-Type-Options: nosniff\r\n' +
    'Connection: close\r\n\r\n' +
    body
  );
}
