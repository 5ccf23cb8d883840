import { workerData } from 'node:worker_threads';
import type { IndexQuery, IndexSearchResult } from '@quarry/core';
import Database from 'better-sqlite3';
import type { ThreadSettings } from './index-threads.js';
import { configureConnection } from './schema.js';
import { Searcher, type SearchTuning } from './search.js';
import { serveRequests } from './worker-serve.js';

/** Search thread: its own connection to the index file (WAL readers do not block each other). */
const settings = workerData as ThreadSettings & { readonly tuning: SearchTuning };
const db = new Database(settings.path);
configureConnection(db, settings.busyTimeoutMs, settings.cacheSizeKib);
const searcher = new Searcher(db, settings.tuning);

serveRequests<IndexQuery, IndexSearchResult>(
  (query) => searcher.search(query),
  () => db.close(),
);
