import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { BackendUnavailableError, NonRetryableError, type PageDocument } from '@quarry/core';
import { parseQuery } from '@quarry/query';
import { indexSettings } from './fields.js';
import { MeiliSearchIndex } from './meili-index.js';
import { INDEX_DEFAULTS } from './options.js';

/**
 * A stand-in Meilisearch on 127.0.0.1 that answers the documented routes the client calls, keeps
 * documents in memory and records every request: it checks what this backend sends and how it
 * handles tasks and errors, not Meilisearch's search behaviour (the contract suite does that).
 */
interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

class FakeMeili {
  readonly requests: Recorded[] = [];
  readonly docs = new Map<string, Record<string, unknown>>();
  indexExists = false;
  failNextTask: string | null = null;
  searchStatus = 200;
  #tasks = new Map<number, { status: string; error: { code: string } | null }>();
  #server: Server = createServer((req, res) => void this.#handle(req, res.writeHead.bind(res), res.end.bind(res)));

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #task(): Record<string, unknown> {
    const uid = this.#tasks.size;
    const failed = this.failNextTask;
    this.failNextTask = null;
    this.#tasks.set(uid, failed ? { status: 'failed', error: { code: failed } } : { status: 'succeeded', error: null });
    return { taskUid: uid, indexUid: 'pages', status: 'enqueued', type: 'documentAdditionOrUpdate', enqueuedAt: '' };
  }

  async #handle(
    req: IncomingMessage,
    head: (s: number, h: Record<string, string>) => unknown,
    end: (b: string) => unknown,
  ) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://x');
    const body = raw === '' ? undefined : JSON.parse(raw);
    this.requests.push({ method: req.method ?? '', path: url.pathname, body });
    const send = (status: number, payload: unknown): void => {
      head(status, { 'content-type': 'application/json' });
      end(JSON.stringify(payload));
    };
    const notFound = (code: string) => send(404, { message: code, code, type: 'invalid_request', link: '' });
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /health') return send(200, { status: 'available' });
    const taskRoute = route.match(/^GET \/tasks\/(\d+)$/);
    if (taskRoute) {
      const m = taskRoute;
      const task = this.#tasks.get(Number(m[1]));
      if (!task) return notFound('task_not_found');
      return send(200, {
        uid: Number(m[1]),
        indexUid: 'pages',
        type: 'x',
        canceledBy: null,
        details: {},
        duration: null,
        enqueuedAt: '',
        startedAt: null,
        finishedAt: null,
        batchUid: 0,
        ...task,
      });
    }
    if (route === 'POST /indexes') {
      this.indexExists = true;
      return send(202, this.#task());
    }
    if (route.match(/^GET \/indexes\/[^/]+$/)) {
      return this.indexExists
        ? send(200, { uid: 'pages', primaryKey: 'id', createdAt: '', updatedAt: '' })
        : notFound('index_not_found');
    }
    if (route.match(/^PATCH \/indexes\/[^/]+\/settings$/)) return send(202, this.#task());
    if (route.match(/^POST \/indexes\/[^/]+\/documents$/)) {
      for (const doc of body as Record<string, unknown>[]) this.docs.set(String(doc.id), doc);
      return send(202, this.#task());
    }
    if (route.match(/^POST \/indexes\/[^/]+\/documents\/delete-batch$/)) {
      for (const id of body as string[]) this.docs.delete(id);
      return send(202, this.#task());
    }
    const documentRoute = route.match(/^GET \/indexes\/[^/]+\/documents\/([^/]+)$/);
    if (documentRoute) {
      const m = documentRoute;
      const doc = this.docs.get(decodeURIComponent(m[1]!));
      return doc ? send(200, { id: doc.id }) : notFound('document_not_found');
    }
    if (route.match(/^GET \/indexes\/[^/]+\/stats$/))
      return send(200, { numberOfDocuments: this.docs.size, isIndexing: false });
    if (route.match(/^POST \/indexes\/[^/]+\/search$/) || route === 'POST /multi-search') {
      if (this.searchStatus !== 200)
        return send(this.searchStatus, {
          message: 'no',
          code: 'invalid_search_filter',
          type: 'invalid_request',
          link: '',
        });
      const hits = [...this.docs.values()].map((doc, i) => ({
        ...doc,
        _rankingScore: 1 / (i + 1),
        _formatted: { body: doc.body },
      }));
      return send(200, { hits, estimatedTotalHits: hits.length, processingTimeMs: 1, query: '', offset: 0, limit: 20 });
    }
    return notFound('route_not_found');
  }
}

function page(id: string, title: string, body: string): PageDocument {
  return {
    id,
    url: `https://docs.example.com/${id}`,
    title,
    body_text: body,
    lang: 'en',
    author: null,
    published_at: null,
    crawled_at: '2026-11-22T08:15:00Z',
    site_name: null,
    has_llms_txt: false,
    filetype: 'html',
    domain: 'docs.example.com',
    word_count: body.split(' ').length,
  };
}

describe('MeiliSearchIndex against a stand-in server', () => {
  const fake = new FakeMeili();
  let url: string;
  let index: MeiliSearchIndex;

  beforeAll(async () => {
    url = await fake.start();
    index = await MeiliSearchIndex.open({ url, indexName: 'pages', batchSize: 2, taskPollIntervalMs: 5 });
  });
  afterEach(() => {
    fake.requests.length = 0;
  });
  afterAll(async () => {
    await fake.stop();
  });

  it('created the index with primary key id and applied the settings', async () => {
    const fresh = new FakeMeili();
    const freshUrl = await fresh.start();
    try {
      await MeiliSearchIndex.open({ url: freshUrl, indexName: 'pages', taskPollIntervalMs: 5 });
      const create = fresh.requests.find((r) => r.method === 'POST' && r.path === '/indexes');
      expect(create?.body).toEqual({ uid: 'pages', primaryKey: 'id' });
      const settings = fresh.requests.find((r) => r.method === 'PATCH');
      expect(settings?.body).toEqual(JSON.parse(JSON.stringify(indexSettings(INDEX_DEFAULTS))));
    } finally {
      await fresh.stop();
    }
  });

  it('upserts in batches, waiting for each task', async () => {
    await index.upsert(['a', 'b', 'c', 'd', 'e'].map((id) => page(`${id}`.repeat(3), `Title ${id}`, `Body ${id}`)));
    const posts = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/documents'));
    expect(posts.map((r) => (r.body as unknown[]).length)).toEqual([2, 2, 1]);
    expect(fake.requests.filter((r) => r.path.startsWith('/tasks/')).length).toBeGreaterThanOrEqual(3);
    expect(await index.count()).toBe(5);
  });

  it('throws when a task fails', async () => {
    fake.failNextTask = 'invalid_document_fields';
    const error = await index.upsert([page('zzz', 'T', 'B')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NonRetryableError);
    expect((error as NonRetryableError).code).toBe('index_task_failed');
    expect((error as Error).message).toContain('invalid_document_fields');
  });

  it('refuses ids Meilisearch cannot hold before sending anything', async () => {
    await expect(index.upsert([page('../x', 'T', 'B')])).rejects.toThrow(/document id/);
    expect(await index.has('../x')).toBe(false);
    expect(fake.requests).toHaveLength(0);
  });

  it('answers has from the document route, 404 meaning false', async () => {
    expect(await index.has('aaa')).toBe(true);
    expect(await index.has('nope')).toBe(false);
  });

  it('deletes valid ids only, in one waited task', async () => {
    await index.delete(['bbb', 'not an id', 'bbb']);
    const deletes = fake.requests.filter((r) => r.path.endsWith('/documents/delete-batch'));
    expect(deletes.map((r) => r.body)).toEqual([['bbb']]);
    expect(await index.has('bbb')).toBe(false);
  });

  it('sends one search for a conjunction and a federated multi-search for OR', async () => {
    const one = await index.search({ query: parseQuery('body -title site:docs.example.com'), limit: 2, offset: 0 });
    const search = fake.requests.find((r) => r.path === '/indexes/pages/search');
    expect(search?.body).toMatchObject({
      q: '-title body',
      filter: 'site_hosts = "docs.example.com"',
      limit: 2,
      offset: 0,
    });
    expect(one.hits.length).toBeGreaterThan(0);
    for (const hit of one.hits) {
      expect(hit.score).toBeGreaterThan(0);
      expect(hit.snippet).toBe(fake.docs.get(hit.id)?.body);
    }

    await index.search({ query: parseQuery('a OR b'), limit: 5, offset: 10 });
    const multi = fake.requests.find((r) => r.path === '/multi-search');
    expect(multi?.body).toMatchObject({ federation: { offset: 10, limit: 5 }, queries: [{ q: 'a' }, { q: 'b' }] });
  });

  it('maps server errors to retryable and refusals to non-retryable errors', async () => {
    const run = () => index.search({ query: parseQuery('x'), limit: 1, offset: 0 }).catch((e: unknown) => e);
    fake.searchStatus = 503;
    expect(await run()).toBeInstanceOf(BackendUnavailableError);
    fake.searchStatus = 400;
    const refused = await run();
    expect(refused).toBeInstanceOf(NonRetryableError);
    expect((refused as Error).message).toContain('invalid_search_filter');
    fake.searchStatus = 200;
  });

  it('pings, and refuses work after close', async () => {
    await expect(index.ping()).resolves.toBeUndefined();
    const other = await MeiliSearchIndex.open({ url, indexName: 'pages', taskPollIntervalMs: 5 });
    await other.close();
    await expect(other.count()).rejects.toBeInstanceOf(BackendUnavailableError);
  });

  it('reports an unreachable server as BackendUnavailableError', async () => {
    const error = await MeiliSearchIndex.open({
      url: 'http://127.0.0.1:1',
      indexName: 'pages',
      requestTimeoutMs: 2000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendUnavailableError);
    expect((error as Error).message).not.toContain('127.0.0.1');
  });
});
