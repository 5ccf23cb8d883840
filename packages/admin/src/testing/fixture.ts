// Test support (excluded from the build): a real admin router over real embedded backends.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PageDocument, pageIdForUrl } from '@quarry/core';
import { ANALYSIS_FILE, LanceSearchIndex } from '@quarry/index-lance';
import { openSqliteQueues, type Queues } from '@quarry/queue';
import express from 'express';
import { type AdminRouterOptions, createAdminRouter } from '../index.js';

/** The admin token of every fixture. */
export const TOKEN = 'fixture-admin-token-0123456789abcdef';

/** A running app with `/admin` mounted over SQLite queues and a SQLite search index. */
export interface AdminFixture {
  readonly app: express.Express;
  readonly server: Server;
  /** `http://127.0.0.1:<port>`, also the Origin our own pages send. */
  readonly origin: string;
  readonly queues: Queues;
  readonly searchIndex: LanceSearchIndex;
  readonly dir: string;
  close(): Promise<void>;
}

/**
 * Starts a fixture on a free loopback port; extra router options override the defaults. With
 * `earlierAnalysis`, the index holds a page analysed by an earlier release (it has a notice), in a
 * folder whose name holds markup.
 */
export async function startAdminFixture(
  extra: Partial<Omit<AdminRouterOptions, 'crawl' | 'index' | 'searchIndex'>> = {},
  { earlierAnalysis = false } = {},
): Promise<AdminFixture> {
  const dir = mkdtempSync(join(tmpdir(), earlierAnalysis ? 'quarry-admin-<i>-' : 'quarry-admin-'));
  const queues = openSqliteQueues({ path: join(dir, 'queue.db'), hostDelayMs: 0, pollIntervalMs: 10 });
  if (earlierAnalysis) {
    const written = await LanceSearchIndex.open({ path: join(dir, 'index') });
    await written.upsert([page(0)]);
    await written.close();
    rmSync(join(dir, 'index', ANALYSIS_FILE));
  }
  const searchIndex = await LanceSearchIndex.open({ path: join(dir, 'index') });
  const app = express();
  app.use(
    '/admin',
    createAdminRouter({ token: TOKEN, crawl: queues.crawl, index: queues.index, searchIndex, ...extra }),
  );
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    server,
    origin: `http://127.0.0.1:${port}`,
    queues,
    searchIndex,
    dir,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queues.close();
      await searchIndex.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A small valid page document. */
export function page(n: number): PageDocument {
  const url = `https://example.org/page-${n}`;
  return {
    id: pageIdForUrl(url),
    url,
    title: `Page ${n}`,
    body_text: `Body text of page number ${n} about quarries and stone.`,
    lang: 'en',
    author: null,
    published_at: null,
    crawled_at: '2026-01-01T00:00:00Z',
    site_name: null,
    has_llms_txt: false,
    filetype: 'html',
    domain: 'example.org',
    word_count: 9,
  };
}

/** How a crawled URL of {@link crawlOutcomes} ends. */
export type Outcome = { status: 'done' } | { status: 'skipped' | 'failed'; reason: string };

/** Queues `outcomes`' URLs and crawls them until the queue is idle, each ending as given. */
export async function crawlOutcomes(fx: AdminFixture, outcomes: Readonly<Record<string, Outcome>>): Promise<void> {
  const urls = Object.keys(outcomes);
  await fx.queues.crawl.add(urls.map((url) => ({ url, depth: 0, scope: 'example.org', seed: 'https://example.org/' })));
  const worker = fx.queues.crawl.work(async (task) => outcomes[task.url] ?? { status: 'done' }, { concurrency: 4 });
  const deadline = Date.now() + 10_000;
  while (!(await fx.queues.crawl.isIdle()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await worker.close();
}
