import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * The process's PID namespace (`pid:[4026531836]` on Linux, '' elsewhere): a PID names a process
 * only within its namespace, and two containers sharing a data dir may show the same host name.
 */
export const PID_NAMESPACE = (() => {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
})();

/** Where a process runs: its machine's host name, its PID namespace and its PID. */
export interface ProcessPlace {
  readonly host: string;
  readonly namespace: string;
  readonly pid: number;
}

/** This process's {@link ProcessPlace}. */
export function thisProcess(): ProcessPlace {
  return { host: hostname(), namespace: PID_NAMESPACE, pid: process.pid };
}

/**
 * Whether the process at `place` was one of this machine and PID namespace that no longer runs;
 * false whenever it cannot tell (another machine or container, this process, a PID in use).
 */
export function isGoneProcess(place: ProcessPlace): boolean {
  const { host, namespace, pid } = place;
  if (host !== hostname() || namespace !== PID_NAMESPACE) return false;
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: a process of another user has that PID, so it runs.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
