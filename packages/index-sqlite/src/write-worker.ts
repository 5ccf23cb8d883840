import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { PageWriter } from './page-writer.js';
import { configureConnection } from './schema.js';
import type { WriteReply, WriteRequest, WriterSettings } from './write-thread.js';

/** Writer thread: its own connection to the index file, one request at a time, in order. */
const settings = workerData as WriterSettings;
const db = new Database(settings.path);
configureConnection(db, settings.busyTimeoutMs, settings.cacheSizeKib);
const writer = new PageWriter(db);

parentPort?.on('message', (request: WriteRequest) => {
  if (request.op === 'close') {
    db.close();
    parentPort?.close();
    return;
  }
  let reply: WriteReply;
  try {
    if (request.op === 'upsert') writer.upsert(request.pages);
    else writer.delete(request.ids);
    reply = { id: request.id };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
