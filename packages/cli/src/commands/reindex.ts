import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FileBlobStore } from '@quarry/blobstore';
import type { PageDocument, QuarryConfig } from '@quarry/core';
import { describeUsers, liveIndexUsers, registerIndexUser } from '../index-users.js';
import { DATA_LAYOUT, openIndex } from '../runtime.js';

/** Pages written to the new index per batch. */
const BATCH_DOCS = 2000;
/** A progress line at most this often. */
const PROGRESS_EVERY_MS = 2000;

/**
 * `quarry reindex`: rebuilds the embedded search index from the stored pages (the blob store holds
 * every indexed page in full). It builds a new index beside the old one and swaps it in at the end,
 * so an interrupted run leaves the old index untouched; the old `index/` (or a previous release's
 * `index.db`) is removed after the swap. Refused (exit 2) while another process has the index open
 * (`quarry start`, `serve`, `mcp`...), and those refuse to open it while it runs (see index-users.ts).
 * Returns the exit code: 0, or 1 when stored pages could not be read (they are listed).
 */
export async function runReindex(config: QuarryConfig): Promise<number> {
  if (config.meiliUrl) {
    process.stderr.write('quarry reindex: rebuilds the embedded index only; unset MEILI_URL\n');
    return 2;
  }
  // The swap pulls the index from under any process that has it open: it searched nothing, then
  // failed on LanceDB's missing files once it wrote.
  const users = liveIndexUsers(config.dataDir);
  if (users.length > 0) {
    process.stderr.write(
      `quarry reindex: ${describeUsers(users)} ${users.length === 1 ? 'has' : 'have'} the index in ${config.dataDir} open; stop ${users.length === 1 ? 'it' : 'them'} first\n`,
    );
    return 2;
  }
  const unregister = registerIndexUser(config.dataDir, 'reindex');
  try {
    return await rebuild(config);
  } finally {
    unregister();
  }
}

async function rebuild(config: QuarryConfig): Promise<number> {
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
