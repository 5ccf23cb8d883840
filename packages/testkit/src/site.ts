import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A fixed answer, or a handler for hostile behaviour (drip-feeding, hanging, raw bytes). */
export type Route =
  | { readonly status?: number; readonly headers?: Readonly<Record<string, string>>; readonly body?: string | Buffer }
  | ((req: IncomingMessage, res: ServerResponse) => void);

/** A real HTTP server on a loopback address serving fixed routes, counting requests per path. */
export interface Site {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly host: string;
  readonly port: number;
  /** Requests received per path (with query string). */
  readonly hits: Map<string, number>;
  close(): Promise<void>;
}

/** Serves `routes` (by path with query string) on `host` (any 127.0.0.0/8 address works on Linux). */
export async function startSite(
  routes: Readonly<Record<string, Route>>,
  options: { host?: string; port?: number } = {},
): Promise<Site> {
  const host = options.host ?? '127.0.0.1';
  const hits = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Not found</h1></body></html>');
    } else if (typeof route === 'function') {
      route(req, res);
    } else {
      res.writeHead(route.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...route.headers });
      res.end(route.body ?? '');
    }
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
