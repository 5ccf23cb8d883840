import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A fixed answer, or a handler for hostile behaviour (drip-feeding, hanging, raw bytes). */
export type Route =
  | {
      readonly status?: number;
      readonly headers?: Readonly<Record<string, string | string[]>>;
      readonly body?: string | Buffer;
    }
  | ((req: IncomingMessage, res: ServerResponse) => void);

/** A real HTTP server on a loopback address serving fixed routes, counting requests per path. */
export interface Site {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly host: string;
  readonly port: number;
  /** Requests received per path (with query string). */
  readonly hits: Map<string, number>;
  /** Paths of upgrade (WebSocket) requests, all refused by closing the connection. */
  readonly upgrades: string[];
  close(): Promise<void>;
}

/** Where and how a {@link startSite} site listens. */
export interface SiteOptions {
  /**
   * Loopback address to listen on (any 127.0.0.0/8 address works on Linux).
   * @defaultValue '127.0.0.1'
   */
  host?: string;
  /**
   * Port to listen on; 0 lets the OS pick a free one.
   * @defaultValue 0
   */
  port?: number;
  /**
   * Answers requests no route names (routing by pathname, say, or a handler a test swaps).
   * @defaultValue a 404 HTML page
   */
  fallback?: Route;
}

const NOT_FOUND: Route = {
  status: 404,
  headers: { 'content-type': 'text/html' },
  body: '<html><body><h1>Not found</h1></body></html>',
};

/** Serves `routes` (by path with query string) on a loopback address, counting every request. */
export async function startSite(routes: Readonly<Record<string, Route>>, options: SiteOptions = {}): Promise<Site> {
  const host = options.host ?? '127.0.0.1';
  const fallback = options.fallback ?? NOT_FOUND;
  const hits = new Map<string, number>();
  const upgrades: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = (Object.hasOwn(routes, path) ? routes[path] : undefined) ?? fallback;
    if (typeof route === 'function') {
      route(req, res);
    } else {
      res.writeHead(route.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...route.headers });
      res.end(route.body ?? '');
    }
  });
  server.on('upgrade', (req, socket) => {
    upgrades.push(req.url ?? '/');
    socket.destroy();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    host,
    port,
    hits,
    upgrades,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
