/**
 * A worker thread of the {@link AnalysisPool} (`analysis-pool.ts`): turns the pages it is sent
 * into rows with the limits it was started with.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { PageDocument } from '@quarry/core';
import { type PageRow, type RowLimits, toRow } from './rows.js';

export interface AnalysisRequest {
  readonly id: number;
  readonly docs: readonly PageDocument[];
}

export type AnalysisReply =
  | { readonly id: number; readonly ok: true; readonly rows: PageRow[] }
  | { readonly id: number; readonly ok: false; readonly message: string };

const limits = workerData as RowLimits;

parentPort?.on('message', (request: AnalysisRequest) => {
  let reply: AnalysisReply;
  try {
    reply = { id: request.id, ok: true, rows: request.docs.map((doc) => toRow(doc, limits)) };
  } catch (error) {
    reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
