import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll } from '@jest/globals';
import type { FallbackRequest, ParsedQuery, QueryNode } from '@quarry/core';
import { type Site, startSite } from '@quarry/testkit';

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
}

/**
 * A fake provider for the whole test file: listening from `beforeAll`, closed in `afterAll`; every
 * path goes to the handler the current test set (503 until one does).
 */
export function useFakeProvider(): FakeProvider {
  let handler: Handler = (_req, res) => res.writeHead(503).end();
  let site: Site | undefined;
  const requests: SeenRequest[] = [];
  beforeAll(async () => {
    site = await startSite(
      {},
      {
        fallback: (req, res) => {
          const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
          requests.push({ url: new URL(req.url ?? '/', 'http://127.0.0.1'), headers: req.headers, closed });
          handler(req, res);
        },
      },
    );
  });
  afterAll(() => site?.close());
  return {
    get baseUrl() {
      if (!site) throw new Error('the fake provider starts in beforeAll');
      return site.origin;
    },
    requests,
    handle: (next) => {
      handler = next;
    },
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
