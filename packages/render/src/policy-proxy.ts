import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type LookupFunction, type Socket } from 'node:net';

/** Decides whether the browser may contact a URL (https tunnels are asked as `https://host:port/`). */
export type RequestPolicy = (url: string) => Promise<boolean>;

/** A running {@link startPolicyProxy}. */
export interface PolicyProxy {
  /** `http://127.0.0.1:PORT`, for Playwright's `proxy.server`. */
  readonly server: string;
  /** Stops listening and cuts every connection still open. */
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'proxy-connection',
  'proxy-authorization',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
]);

/**
 * A forward proxy on 127.0.0.1 through which one browser context sends all its traffic, so that
 * every request — including redirect hops and WebSocket tunnels, which Playwright's routing does
 * not see — is checked by `policy` before any connection is made. Plain HTTP is forwarded per
 * request; HTTPS is tunnelled (CONNECT) after checking its host and port. With `lookup` (the
 * fetcher's guarded lookup), upstream names are resolved by it when connecting, so that a DNS answer
 * that changes after the policy's check (DNS rebinding) cannot reach a refused address.
 */
export async function startPolicyProxy(
  policy: RequestPolicy,
  options: { readonly lookup?: LookupFunction } = {},
): Promise<PolicyProxy> {
  const { lookup } = options;
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  // Its own agent: upstream connections must not be pooled with (or outlive) other renders.
  const agent = new Agent({ keepAlive: false });
  const server = createServer((req, res) => void forward(policy, agent, req, res, track, lookup));
  server.on('connection', track);
  server.on(
    'connect',
    (req: IncomingMessage, client: Socket, head: Buffer) => void tunnel(policy, req, client, head, track, lookup),
  );
  // A proxied WebSocket arrives as CONNECT; a plain upgrade here is unexpected, so refuse it.
  server.on('upgrade', (_req: IncomingMessage, client: Socket) => client.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

async function permitted(policy: RequestPolicy, url: string): Promise<boolean> {
  try {
    const { protocol } = new URL(url);
    return (protocol === 'http:' || protocol === 'https:') && (await policy(url)) === true;
  } catch {
    return false;
  }
}

async function forward(
  policy: RequestPolicy,
  agent: Agent,
  req: IncomingMessage,
  res: ServerResponse,
  track: (socket: Socket) => void,
  lookup: LookupFunction | undefined,
): Promise<void> {
  const target = req.url ?? '';
  if (!(await permitted(policy, target)) || new URL(target).protocol !== 'http:') {
    res.writeHead(403, { 'content-type': 'text/plain' }).end('blocked by crawler policy');
    return;
  }
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
  const upstream = httpRequest(
    target,
    { method: req.method, headers, agent, ...(lookup ? { lookup } : {}) },
    (answer) => {
      const answerHeaders = Object.fromEntries(
        Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)),
      );
      res.writeHead(answer.statusCode ?? 502, answerHeaders);
      answer.pipe(res);
    },
  );
  upstream.on('socket', track);
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
  });
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}

async function tunnel(
  policy: RequestPolicy,
  req: IncomingMessage,
  client: Socket,
  head: Buffer,
  track: (socket: Socket) => void,
  lookup: LookupFunction | undefined,
): Promise<void> {
  const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(req.url ?? '');
  const host = match?.[1];
  const port = Number(match?.[2]);
  const hostForUrl = host?.includes(':') ? `[${host}]` : host;
  if (!host || !(port > 0 && port < 65_536) || !(await permitted(policy, `https://${hostForUrl}:${port}/`))) {
    client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    return;
  }
  const upstream = connect({ port, host, ...(lookup ? { lookup } : {}) }, () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  track(upstream);
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());
}
