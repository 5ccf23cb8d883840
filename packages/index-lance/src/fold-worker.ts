/**
 * The fold process (see `fold-process.ts`): folds an index's new rows into its full-text indexes
 * when asked, at a low CPU priority, so that a fold never takes the cores searches need. Its
 * priority is lowered before the engine loads, so the engine's threads inherit it.
 */
import { getPriority, setPriority } from 'node:os';
import { configValue } from '@quarry/core';
import type { FoldReply, FoldRequest } from './fold-process.js';

// Set by the parent from its `foldPriority` option, and read with the configuration's parser: an
// empty value is the default, and one out of 0 to 19 stops this process (its folds fail) rather
// than fold at some other priority. 0 lowers nothing, as a priority is never raised here.
const priority = configValue('QUARRY_FOLD_PRIORITY', process.env);
try {
  if (priority > getPriority()) setPriority(priority);
} catch {
  // Not allowed here: the fold still runs, at the parent's priority.
}
const lancedb = await import('@lancedb/lancedb');
const { foldOnce } = await import('./fold.js');

/** The table of each index folded so far, opened once (its caches serve the next fold). */
const tables = new Map<string, Promise<import('@lancedb/lancedb').Table>>();

async function tableOf(path: string, table: string) {
  let opened = tables.get(path);
  if (!opened) {
    opened = lancedb.connect(path).then((db) => db.openTable(table));
    tables.set(path, opened);
  }
  // The newest version: the commits made since this process last folded are folded too.
  const found = await opened;
  await found.checkoutLatest();
  return found;
}

process.on('message', async (request: FoldRequest) => {
  let reply: FoldReply;
  try {
    const table = await tableOf(request.path, request.table);
    const result = await foldOnce(table, request.keepVersionsMs, request.floor);
    reply = { id: request.id, ok: true, ...result };
  } catch (error) {
    reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  process.send?.(reply);
});
// The index that asked is gone: nothing is left to fold for.
process.on('disconnect', () => process.exit(0));
