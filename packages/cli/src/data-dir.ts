import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fsProblem, UsageError } from './usage.js';

/** Where each embedded store lives inside the data dir. */
export const DATA_LAYOUT = {
  /** The LanceDB search index (a folder). */
  index: 'index',
  /** Where releases before the LanceDB index kept their SQLite FTS5 index; `quarry reindex` replaces it. */
  legacyIndex: 'index.db',
  queue: 'queue.db',
  keys: 'keys.db',
  blobs: 'blobs',
  /** The admin token `quarry start` generates when QUARRY_ADMIN_TOKEN is not set. */
  adminToken: 'admin-token',
  /** The dashboard's logged-out sessions, kept until they would have expired (no secret: ids only). */
  adminLogouts: 'admin-logouts.json',
  /** One file per process with the embedded index open (see index-users.ts). */
  indexUsers: 'index.users',
} as const;

/** What Quarry opens in the data dir: the layout, and SQLite's journal files beside each database. */
const OPENED: readonly string[] = Object.values(DATA_LAYOUT)
  .flatMap((entry) => (entry.endsWith('.db') ? [entry, `${entry}-wal`, `${entry}-shm`] : [entry]))
  .sort();

/**
 * How a command uses the data dir:
 * - `create`: opens its stores there and creates it when missing (start, serve, crawl, import...);
 * - `existing`: serves what is there, and warns on stderr when the dir does not exist or holds no
 *   pages (`quarry mcp`: a typo in a hand-written desktop config otherwise answered "No results"
 *   with no word why). It still serves, created empty: a new install's agent config may come
 *   first, and its crawls fill the dir later;
 * - `none`: does not open it (`keys` and `crawl` on Redis), so only a file in its place is refused.
 */
export type DataDirUse = 'create' | 'existing' | 'none';

/**
 * Checks the data directory before anything opens it, so that a path the command cannot use is a
 * usage error (exit 2) naming QUARRY_DATA_DIR and --data, never a raw SQLite or errno message. An
 * existing dir and what it holds must be readable and writable: every command opening the
 * embedded stores writes there, even `status` (SQLite keeps its journal beside the database).
 */
export function checkDataDir(dataDir: string, use: DataDirUse = 'create'): void {
  const name = `QUARRY_DATA_DIR (or --data) "${dataDir}"`;
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dataDir).isDirectory();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'ENOENT') throw new UsageError(`${name}: ${fsProblem(error) ?? 'cannot be used'}`);
    if (use === 'none') return;
    const problem = createDir(dataDir);
    if (problem !== null) throw new UsageError(`${name} cannot be created: ${problem}`);
    if (use === 'existing') warn(`${name} did not exist: it was created empty, and ${NOTHING_FOUND}`);
    return;
  }
  if (!isDirectory) throw new UsageError(`${name}: expected a directory, found a file`);
  if (use === 'none') return;
  const problem = accessProblem(dataDir);
  if (problem !== null) {
    throw new UsageError(
      `${name} ${problem}; Quarry writes there even to read (SQLite keeps a journal beside each database)`,
    );
  }
  // Files left by another user (a first run with sudo) fail the same way: name them, grouped by
  // problem. Only Quarry's own: a data dir may hold other files (`--data .` in a project).
  const entries = new Map<string, string[]>();
  for (const entry of OPENED) {
    if (!existsSync(join(dataDir, entry))) continue;
    const entryProblem = accessProblem(join(dataDir, entry));
    if (entryProblem !== null) entries.set(entryProblem, [...(entries.get(entryProblem) ?? []), entry]);
  }
  if (entries.size > 0) {
    const lines = [...entries].map(([entryProblem, names]) => `${names.join(', ')} ${entryProblem}`);
    throw new UsageError(`${name}: ${lines.join('; ')}`);
  }
  if (use === 'existing' && !holdsPages(dataDir)) warn(`${name} holds no pages yet: ${NOTHING_FOUND}`);
}

/** What a reader of a data dir without pages answers, and what to check. */
const NOTHING_FOUND =
  'every search finds nothing until pages are crawled or imported there (is the path right? quarry start, crawl or import fill it)';

/** A warning on stderr: a reader's stdout may carry a protocol (`quarry mcp`). */
function warn(message: string): void {
  process.stderr.write(`quarry: warning: ${message}\n`);
}

/** Whether pages were ever stored in the dir (the blob store is written before the index), or an earlier release's index. */
function holdsPages(dataDir: string): boolean {
  return existsSync(join(dataDir, DATA_LAYOUT.blobs)) || existsSync(join(dataDir, DATA_LAYOUT.legacyIndex));
}

/** Why this process cannot read and write `path` (a dir must also be searchable), or null. */
function accessProblem(path: string): string | null {
  const dir = statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  try {
    accessSync(path, constants.R_OK | (dir ? constants.X_OK : 0));
  } catch (error) {
    return `cannot be read (${osReason(error)})`;
  }
  try {
    accessSync(path, constants.W_OK);
  } catch (error) {
    return `cannot be written (${osReason(error)})`;
  }
  return null;
}

/**
 * Creates a missing dir and its missing parents, one at a time, or says why it cannot: its nearest
 * existing ancestor is no directory or cannot be written, or the file system refuses. The data dir
 * itself is its owner's alone (0700), whatever the umask: it holds the admin token, the queue's
 * seeds and every page's text, which no other user of the machine needs (a dir that exists keeps
 * the mode its operator gave it; parents get the umask's). (Node 20's
 * recursive `mkdirSync` never returns where a file system answers ENOENT under a directory that
 * exists, as /proc and /sys do, so it is not used here.)
 */
function createDir(dataDir: string): string | null {
  const missing: string[] = [];
  let ancestor = resolve(dataDir);
  while (!existsSync(ancestor) && dirname(ancestor) !== ancestor) {
    missing.unshift(ancestor);
    ancestor = dirname(ancestor);
  }
  if (!statSync(ancestor).isDirectory()) return `${ancestor} is a file, not a directory`;
  try {
    accessSync(ancestor, constants.W_OK | constants.X_OK);
  } catch (error) {
    return `${ancestor} cannot be written (${osReason(error)})`;
  }
  const own = resolve(dataDir);
  for (const dir of missing) {
    try {
      mkdirSync(dir, dir === own ? { mode: 0o700 } : undefined);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'EEXIST') continue; // made meanwhile by another process
      return `making ${dir} failed (${osReason(error)})`;
    }
  }
  return null;
}

/** The operating system's words for a file-system error ("permission denied", "read-only file system"), without the errno name. */
function osReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /^E[A-Z]+: ([^,]+)/.exec(message)?.[1] ?? fsProblem(error) ?? 'cannot be used';
}
