import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_QUERY_LENGTH } from '@quarry/query';
import type { Express } from 'express';

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
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, app);
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
