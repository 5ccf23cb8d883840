/**
 * The fold process (see `fold-process.ts`): folds an index's new rows into its full-text indexes
 * when asked, at a low CPU priority, so that a fold never takes the cores searches need. Its
 * priority is lowered before the engine loads, so the engine's threads inherit it.
 */
import { setPriority } from 'node:os';
import type { FoldReply, FoldRequest } from './fold-process.js';

const priority = Number(process.env.QUARRY_FOLD_PRIORITY ?? 10);
try {
  setPriority(priority);
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
