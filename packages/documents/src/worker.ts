/**
 * Worker-thread entry: reads one document and posts `{ ok, result }` or `{ ok: false, error }`.
 * Running here means a hostile file can be stopped (terminate) and cannot exhaust the crawler's
 * heap, and anything a parser library mutates (prototypes included) dies with the worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '@quarry/core';
import { type ExtractJob, extractHere } from './extract-job.js';

// Crawl work yields the cores to searches (see workerPriority).
lowerThreadPriority();
const job = workerData as ExtractJob;
extractHere(job).then(
  (result) => parentPort?.postMessage({ ok: true, result }),
  (error: unknown) => parentPort?.postMessage({ ok: false, error: errorPayload(error) }),
);

function errorPayload(error: unknown): { code: string; message: string } {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const message = error instanceof Error ? error.message : String(error);
  return { code: code.startsWith('document_') ? code : 'document_unreadable', message: message.slice(0, 500) };
}
