import { accessSync, constants, statSync } from 'node:fs';

/**
 * A bad command line or configuration found inside an action: `main` prints its message (one line,
 * or one line per problem) and exits 2. Commander's own parse errors never reach it.
 */
export class UsageError extends Error {}

/** Human words for the file-system errors a user's path can cause; never the raw errno. */
const FS_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'does not exist',
  ENOTDIR: 'has a part that is not a directory',
  EISDIR: 'is a directory, not a file',
  EEXIST: 'exists and is not a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'is on a read-only file system',
  ENAMETOOLONG: 'is too long',
  ELOOP: 'has too many symbolic links',
};

/** What went wrong with a path, in words, or null when `error` is not a known file-system error. */
export function fsProblem(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? (FS_PROBLEMS[code] ?? null) : null;
}

/**
 * Whether `error`, or an error it was caused by, says the disk is full: ENOSPC from Node, SQLite's
 * SQLITE_FULL ("database or disk is full"), or LanceDB's "No space left on device".
 */
export function isDiskFull(error: unknown): boolean {
  for (let e = error, depth = 0; e !== null && e !== undefined && depth < 8; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (code === 'ENOSPC' || code === 'SQLITE_FULL') return true;
    if (typeof message === 'string' && /no space left on device|database or disk is full/i.test(message)) return true;
    e = cause;
  }
  return false;
}

/** What a command tells the operator when the data dir's disk is full. */
export function diskFullProblem(dataDir: string): string {
  return `the disk holding QUARRY_DATA_DIR (or --data) "${dataDir}" is full (no space left on device); free some space and run the same command again`;
}

/** Why a file given on the command line cannot be read, in words, or null when it can. */
export function fileProblem(path: string): string | null {
  try {
    if (statSync(path).isDirectory()) return FS_PROBLEMS.EISDIR!;
    accessSync(path, constants.R_OK);
    return null;
  } catch (error) {
    return fsProblem(error) ?? 'cannot be read';
  }
}

/** Why a listening socket could not be opened, in words naming the setting, or null for other errors. */
export function listenProblem(error: unknown): string | null {
  const { code, syscall, address, port, hostname } = (error ?? {}) as {
    code?: unknown;
    syscall?: unknown;
    address?: unknown;
    port?: unknown;
    hostname?: unknown;
  };
  if (syscall !== 'listen' && syscall !== 'bind' && syscall !== 'getaddrinfo') return null;
  // A name that does not resolve fails in getaddrinfo, whose error has a hostname but no address.
  const where = typeof port === 'number' ? `${String(address ?? '')}:${port}` : String(address ?? hostname ?? error);
  if (code === 'EADDRINUSE') return `cannot listen on ${where}: the port is in use (set PORT or --port)`;
  if (code === 'EACCES') return `cannot listen on ${where}: permission denied (ports below 1024 need privileges)`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `cannot listen on ${where}: QUARRY_HOST is not an address of this machine`;
  }
  return null;
}
