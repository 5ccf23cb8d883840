import { workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { ThreadSettings, WriteRequest } from './index-threads.js';
import { PageWriter } from './page-writer.js';
import { configureConnection } from './schema.js';
import { serveRequests } from './worker-serve.js';

/** Writer thread: its own connection to the index file, one write at a time, in order. */
const settings = workerData as ThreadSettings;
const db = new Database(settings.path);
configureConnection(db, settings.busyTimeoutMs, settings.cacheSizeKib);
const writer = new PageWriter(db);

serveRequests<WriteRequest, null>(
  (request) => {
    if (request.op === 'upsert') writer.upsert(request.batch);
    else writer.delete(request.ids);
    return null;
  },
  () => db.close(),
);
