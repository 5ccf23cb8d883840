import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobStore, PageDocument } from '@quarry/core';
import { BackendUnavailableError, isPageId, NonRetryableError, ValidationError } from '@quarry/core';

/** Options of {@link FileBlobStore}. */
export interface FileBlobStoreOptions {
  /** Root folder of the store; created on the first write. */
  readonly dir: string;
  /**
   * How many files {@link FileBlobStore.putMany} writes at once.
   * @defaultValue 16
   */
  readonly writeConcurrency?: number;
}

const DEFAULT_WRITE_CONCURRENCY = 16;
/** Where writes are staged: one folder, so a killed writer's files are found without a walk. */
const TEMP_FOLDER = '.tmp';
/** A temp file this old is a killed writer's: no write takes an hour. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Page documents as JSON files, one per page, in folders sharded by id (`ab/cd/<id>.json`) so no
 * folder grows past a few thousand entries. Writes are atomic (temp file in `.tmp/` on the same
 * filesystem, fsync, rename): a reader sees the old document or the new one, never a torn file;
 * {@link FileBlobStore.removeStaleTemp} clears what killed writers left there. Ids that are not
 * page ids (see `isPageId`) never reach the filesystem: they are simply not found.
 *
 * Page ids are base64url, so two ids could differ only in letter case; on a case-insensitive
 * filesystem they would share a file. With 128-bit ids that pair is astronomically unlikely, and
 * keeping the id as the file name keeps the store easy to inspect by hand.
 */
export class FileBlobStore implements BlobStore {
  readonly #dir: string;
  readonly #writeConcurrency: number;

  constructor(options: FileBlobStoreOptions) {
    this.#dir = options.dir;
    this.#writeConcurrency = Math.max(1, options.writeConcurrency ?? DEFAULT_WRITE_CONCURRENCY);
  }

  /** Writes one document atomically; throws a `ValidationError` when its id is not a page id. */
  async put(doc: PageDocument): Promise<void> {
    if (!isPageId(doc.id)) throw new ValidationError(`not a page id: ${JSON.stringify(doc.id)}`, 'id');
    const folder = this.#folderOf(doc.id);
    const target = join(folder, `${doc.id}.json`);
    // A unique temp name per writer: concurrent writers of one id never share a temp file, and
    // the last rename wins with a complete document.
    const temps = join(this.#dir, TEMP_FOLDER);
    const temp = join(temps, `${doc.id}.${randomBytes(6).toString('hex')}.tmp`);
    const body = JSON.stringify(doc);
    try {
      await mkdir(folder, { recursive: true });
      await mkdir(temps, { recursive: true });
      const handle = await open(temp, 'wx', 0o644);
      try {
        await handle.writeFile(body, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, target);
      await syncFolder(folder);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw unavailable(`cannot write blob ${doc.id}`, error);
    }
  }

  /** Writes documents (each atomically), a few at a time. */
  async putMany(docs: readonly PageDocument[]): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < docs.length) {
        const doc = docs[next++]!;
        await this.put(doc);
      }
    };
    const workers = Array.from({ length: Math.min(this.#writeConcurrency, docs.length) }, worker);
    await Promise.all(workers);
  }

  /** The stored document, or null for an unknown or malformed id. */
  async get(id: string): Promise<PageDocument | null> {
    if (!isPageId(id)) return null;
    let text: string;
    try {
      text = await readFile(this.#pathOf(id), 'utf8');
    } catch (error) {
      if (isNotFound(error)) return null;
      throw unavailable(`cannot read blob ${id}`, error);
    }
    let doc: PageDocument | null;
    try {
      doc = JSON.parse(text) as PageDocument | null;
    } catch (error) {
      throw new NonRetryableError(`blob ${id} is not valid JSON`, 'blob_corrupt', error);
    }
    if (doc === null || typeof doc !== 'object' || doc.id !== id) {
      throw new NonRetryableError(`blob ${id} does not hold its own document`, 'blob_corrupt');
    }
    return doc;
  }

  /** Whether a document is stored under this id (false for a malformed id). */
  async has(id: string): Promise<boolean> {
    if (!isPageId(id)) return false;
    try {
      const handle = await open(this.#pathOf(id), 'r');
      await handle.close();
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw unavailable(`cannot read blob ${id}`, error);
    }
  }

  /** Removes a document; unknown and malformed ids are ignored. */
  async delete(id: string): Promise<void> {
    if (!isPageId(id)) return;
    try {
      await unlink(this.#pathOf(id));
    } catch (error) {
      if (!isNotFound(error)) throw unavailable(`cannot delete blob ${id}`, error);
    }
  }

  /**
   * Removes the temp files of writes that never finished (a process killed while writing), those
   * older than `olderThanMs`, so that a live writer's are kept. Returns how many it removed.
   */
  async removeStaleTemp(olderThanMs = STALE_TEMP_MS): Promise<number> {
    const folder = join(this.#dir, TEMP_FOLDER);
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for (const name of await listFolder(folder)) {
      if (!name.endsWith('.tmp')) continue;
      const path = join(folder, name);
      try {
        if ((await stat(path)).mtimeMs > cutoff) continue;
        await rm(path, { force: true });
        removed++;
      } catch (error) {
        if (!isNotFound(error)) throw unavailable(`cannot remove ${name}`, error);
      }
    }
    return removed;
  }

  /**
   * Every stored id, folder by folder (in no particular order); temp files and stray names are
   * skipped. For rebuilding an index from the stored pages (`quarry reindex`).
   */
  async *ids(): AsyncGenerator<string> {
    for (const outer of await listFolder(this.#dir)) {
      if (outer === TEMP_FOLDER) continue;
      for (const inner of await listFolder(join(this.#dir, outer))) {
        for (const name of await listFolder(join(this.#dir, outer, inner))) {
          if (!name.endsWith('.json')) continue;
          const id = name.slice(0, -'.json'.length);
          if (isPageId(id) && this.#folderOf(id) === join(this.#dir, outer, inner)) yield id;
        }
      }
    }
  }

  #folderOf(id: string): string {
    return join(this.#dir, id.slice(0, 2), id.slice(2, 4));
  }

  #pathOf(id: string): string {
    return join(this.#folderOf(id), `${id}.json`);
  }
}

/** Makes the rename durable; some platforms cannot fsync a folder, which only costs durability. */
async function syncFolder(folder: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // Best effort by design (Windows, some network filesystems).
  } finally {
    await handle?.close();
  }
}

/** Names in a folder, sorted; none when it does not exist. */
async function listFolder(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).sort();
  } catch (error) {
    if (isNotFound(error)) return [];
    throw unavailable(`cannot list ${folder}`, error);
  }
}

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function unavailable(message: string, cause: unknown): BackendUnavailableError {
  const code = (cause as NodeJS.ErrnoException | null)?.code;
  return new BackendUnavailableError(code ? `${message}: ${code}` : message, cause);
}
