import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isGoneProcess, type ProcessPlace, thisProcess } from '@quarry/core';
import { DATA_LAYOUT } from './data-dir.js';

/** Registrations made by this process, which name its files apart (a process may open the index twice). */
let registrations = 0;

/** A process that has a data dir's embedded index open, as it registered itself. */
export interface IndexUser extends ProcessPlace {
  /** The command it runs (`start`, `serve`, `reindex`...). */
  readonly command: string;
}

/**
 * Registers this process as a user of the data dir's embedded index until the returned function
 * is called (or the process exits): `quarry reindex` swaps the index's folder, and a process that
 * had the old one open answered every search with nothing, then failed on LanceDB's missing files
 * once it wrote. Several processes may use one index at once (`start`, `mcp`, `import`, `status`);
 * only the swap needs it to itself. Best effort: a data dir that cannot take the file is left as it is.
 */
export function registerIndexUser(dataDir: string, command: string): () => void {
  const dir = join(dataDir, DATA_LAYOUT.indexUsers);
  const place = thisProcess();
  registrations += 1;
  const file = join(dir, `${place.pid}-${command}-${registrations}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify({ ...place, command } satisfies IndexUser));
  } catch {
    return () => {};
  }
  const unregister = (): void => {
    process.off('exit', unregister);
    rmSync(file, { force: true });
  };
  process.on('exit', unregister);
  return unregister;
}

/**
 * The other processes that have the data dir's index open now. A registration whose process no
 * longer runs (killed, crashed) is removed; one of another machine or container counts as open,
 * since nothing here can tell it is gone.
 */
export function liveIndexUsers(dataDir: string): IndexUser[] {
  const dir = join(dataDir, DATA_LAYOUT.indexUsers);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const self = thisProcess();
  const users: IndexUser[] = [];
  for (const name of names) {
    const file = join(dir, name);
    let user: IndexUser;
    try {
      user = JSON.parse(readFileSync(file, 'utf8')) as IndexUser;
    } catch {
      continue; // being written or removed as we look, or not ours
    }
    if (typeof user?.pid !== 'number' || typeof user.command !== 'string') continue;
    if (user.pid === self.pid && user.host === self.host && user.namespace === self.namespace) continue;
    if (isGoneProcess(user)) rmSync(file, { force: true });
    else users.push(user);
  }
  return users;
}

/** `quarry start (pid 1234)`, `quarry serve (pid 77) and quarry mcp (pid 78)`, for messages. */
export function describeUsers(users: readonly IndexUser[]): string {
  const named = users.map((user) => `quarry ${user.command} (pid ${user.pid})`);
  return named.length <= 1 ? (named[0] ?? '') : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
}
