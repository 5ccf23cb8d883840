import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileBlobStore } from '@quarry/blobstore';
import {
  type ConfigOverrides,
  type IndexQuery,
  loadConfig,
  type PageDocument,
  pageIdForUrl,
  type SearchIndex,
  toIsoUtc,
} from '@quarry/core';
import { LanceSearchIndex } from '@quarry/index-lance';
import { pino } from 'pino';
import type { ApiDeps } from '../deps.js';

const DAY_MS = 86_400_000;

/** A page crawled `ageDays` ago. */
export function page(url: string, fields: Partial<PageDocument> & { ageDays?: number } = {}): PageDocument {
  const { ageDays = 0, ...rest } = fields;
  const body = rest.body_text ?? `A page about ${url}.`;
  return {
    id: pageIdForUrl(url),
    url,
    title: `Title of ${url}`,
    body_text: body,
    lang: 'en',
    author: null,
    published_at: null,
    crawled_at: toIsoUtc(new Date(Date.now() - ageDays * DAY_MS)),
    site_name: null,
    has_llms_txt: false,
    filetype: 'html',
    domain: new URL(url).hostname,
    word_count: body.split(/\s+/).filter(Boolean).length,
    ...rest,
  };
}

/** The corpus the API tests search: a few distinct pages plus 15 `widget` pages for paging. */
export const CORPUS: readonly PageDocument[] = [
  page('https://example.com/quarry', {
    title: 'Quarry search engine guide',
    body_text: 'Quarry is a self-hosted search engine for retrieval augmented generation.',
    site_name: 'Example',
    author: 'Ada Lovelace',
    published_at: '2026-01-05T10:00:00Z',
    has_llms_txt: true,
  }),
  page('https://docs.example.com/quarry-api', {
    title: 'Quarry API reference',
    body_text: 'The quarry API answers search requests with structured results.',
  }),
  page('https://news.example.cn/zh', {
    title: '搜索引擎新闻',
    body_text: '这是一篇关于搜索引擎 quarry 的中文新闻。',
    lang: 'zh',
    ageDays: 3,
  }),
  page('https://old.example.org/quarry-history', {
    title: 'A history of quarry',
    body_text: 'An old page about the quarry project history.',
    ageDays: 800,
  }),
  ...Array.from({ length: 15 }, (_, i) =>
    page(`https://widgets.example.net/${i}`, { title: `Widget ${i}`, body_text: `widget catalogue entry ${i}` }),
  ),
];

/** An index, a blob store and a log sink on a temp dir; `deps` is ready for `createApp`. */
export interface Fixture {
  readonly dir: string;
  readonly index: SearchIndex;
  readonly blobs: FileBlobStore;
  readonly logs: string[];
  deps(env?: ConfigOverrides, extra?: Partial<ApiDeps>): ApiDeps;
  cleanup(): Promise<void>;
}

/** Builds a {@link Fixture} holding {@link CORPUS} in the real SQLite index and blob store. */
export async function createFixture(docs: readonly PageDocument[] = CORPUS): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), 'quarry-api-'));
  const index: SearchIndex = await LanceSearchIndex.open({ path: join(dir, 'index') });
  const blobs = new FileBlobStore({ dir: join(dir, 'blobs') });
  await blobs.putMany(docs);
  await index.upsert(docs);
  const logs: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
  return {
    dir,
    index,
    blobs,
    logs,
    deps: (env = {}, extra = {}) => ({ config: loadConfig({}, env), index, blobs, logger, ...extra }),
    cleanup: async () => {
      await index.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `index` answering as itself, each query it is asked pushed to `asked` first. */
export function recording(index: SearchIndex, asked: IndexQuery[]): SearchIndex {
  return {
    ...index,
    upsert: (docs) => index.upsert(docs),
    delete: (ids) => index.delete(ids),
    has: (id) => index.has(id),
    count: () => index.count(),
    ping: () => index.ping(),
    close: () => index.close(),
    ...(index.heldSpellings ? { heldSpellings: (words: readonly string[]) => index.heldSpellings!(words) } : {}),
    search: (query) => {
      asked.push(query);
      return index.search(query);
    },
  };
}
