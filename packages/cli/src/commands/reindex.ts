import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FileBlobStore } from '@quarry/blobstore';
import type { PageDocument, QuarryConfig } from '@quarry/core';
import { DATA_LAYOUT, openIndex } from '../runtime.js';

/** Pages written to the new index per batch. */
const BATCH_DOCS = 2000;
/** A progress line at most this often. */
const PROGRESS_EVERY_MS = 2000;

/**
 * `quarry reindex`: rebuilds the embedded search index from the stored pages (the blob store holds
 * every indexed page in full). It builds a new index beside the old one and swaps it in at the end,
 * so an interrupted run leaves the old index untouched; the old `index/` (or a previous release's
 * `index.db`) is removed after the swap. Stop `quarry start`/`serve` on the same data dir first.
 * Returns the exit code: 0, or 1 when stored pages could not be read (they are listed).
 */
export async function runReindex(config: QuarryConfig): Promise<number> {
  if (config.meiliUrl) {
    process.stderr.write('quarry reindex: rebuilds the embedded index only; unset MEILI_URL\n');
    return 2;
  }
  const blobs = new FileBlobStore({ dir: join(config.dataDir, DATA_LAYOUT.blobs) });
  const target = join(config.dataDir, DATA_LAYOUT.index);
  const building = `${target}.building`;
  rmSync(building, { recursive: true, force: true });
  const index = await openIndex(config, { bulk: true, path: building });
  const started = Date.now();
  let indexed = 0;
  let failed = 0;
  let lastReport = started;
  try {
    let batch: PageDocument[] = [];
    for await (const id of blobs.ids()) {
      try {
        const doc = await blobs.get(id);
        if (doc) batch.push(doc);
      } catch (error) {
        failed++;
        process.stderr.write(`page ${id}: ${(error as Error).message}\n`);
      }
      if (batch.length >= BATCH_DOCS) {
        await index.upsert(batch);
        indexed += batch.length;
        batch = [];
        if (Date.now() - lastReport >= PROGRESS_EVERY_MS) {
          lastReport = Date.now();
          process.stderr.write(`reindex: ${indexed} pages written\n`);
        }
      }
    }
    if (batch.length > 0) await index.upsert(batch);
    indexed += batch.length;
    process.stderr.write(`reindex: ${indexed} pages written; building the full-text indexes\n`);
    await index.flush?.();
  } finally {
    await index.close();
  }
  rmSync(`${target}.old`, { recursive: true, force: true });
  if (existsSync(target)) renameSync(target, `${target}.old`);
  renameSync(building, target);
  rmSync(`${target}.old`, { recursive: true, force: true });
  rmSync(join(config.dataDir, DATA_LAYOUT.legacyIndex), { force: true });
  for (const suffix of ['-wal', '-shm'])
    rmSync(join(config.dataDir, DATA_LAYOUT.legacyIndex + suffix), { force: true });
  const secs = (Date.now() - started) / 1000;
  process.stdout.write(
    `reindexed ${indexed} pages in ${secs.toFixed(1)} s${failed > 0 ? `, ${failed} unreadable` : ''}\n`,
  );
  return failed > 0 ? 1 : 0;
}
