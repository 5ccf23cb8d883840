import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FallbackRequest, ParsedQuery, QueryNode } from '@quarry/core';

/** A request the fake provider received. */
export interface SeenRequest {
  readonly url: URL;
  readonly headers: IncomingMessage['headers'];
  /** Resolves when the client closed the connection (e.g. aborted). */
  readonly closed: Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A local HTTP server on 127.0.0.1 whose behaviour each test sets. */
export interface FakeProvider {
  readonly baseUrl: string;
  readonly requests: SeenRequest[];
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startFakeProvider(): Promise<FakeProvider> {
  let handler: Handler = (_req, res) => res.writeHead(503).end();
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
    requests.push({ url: new URL(req.url ?? '/', 'http://127.0.0.1'), headers: req.headers, closed });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    handle: (next) => {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with a JSON body (or any text) and a content type. */
export function reply(status: number, body: string, type = 'application/json', headers: Record<string, string> = {}) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': type, ...headers });
    res.end(body);
  };
}

/** Never answers until the client goes away. */
export const hang: Handler = () => {};

export function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

export const term = (text: string, field: 'any' | 'title' = 'any'): QueryNode => ({ type: 'term', text, field });
export const phrase = (text: string, field: 'any' | 'title' = 'any'): QueryNode => ({ type: 'phrase', text, field });
export const and = (...children: QueryNode[]): QueryNode => ({ type: 'and', children });
export const or = (...children: QueryNode[]): QueryNode => ({ type: 'or', children });
export const not = (child: QueryNode): QueryNode => ({ type: 'not', child });

/** A request for a parsed query (built by hand: the parser is another package). */
export function request(
  root: QueryNode | null,
  extra: Partial<Omit<FallbackRequest, 'query'>> & Partial<Pick<ParsedQuery, 'sites' | 'filetypes'>> = {},
): FallbackRequest {
  const { sites = [], filetypes = [], ...rest } = extra;
  return { q: 'q', count: 10, ...rest, query: { root, sites, filetypes } };
}
