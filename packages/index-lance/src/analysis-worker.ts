/**
 * A worker thread of the {@link AnalysisPool} (`analysis-pool.ts`): turns the pages it is sent
 * into rows with the limits it was started with.
 */
import { workerData } from 'node:worker_threads';
import { lowerThreadPriority, type PageDocument } from '@quarry/core';
import { type PageRow, type RowLimits, toRow } from './rows.js';

const limits = workerData as RowLimits;
// Analysing pages for writes yields the cores to searches (see workerPriority).
lowerThreadPriority();

export default function analyse(docs: readonly PageDocument[]): PageRow[] {
  return docs.map((doc) => toRow(doc, limits));
}
