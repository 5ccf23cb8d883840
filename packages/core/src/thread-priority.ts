import { readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { configValue } from './config.js';

/**
 * The nice value (0 to 19) of the threads doing crawl and index work beside a process's main
 * thread: page and document extraction, the analysis of pages written. Searches are served by the
 * main thread and the engine's threads at the process's own priority, so under load the kernel
 * gives them the cores first and the crawl the rest; with nothing to serve, the crawl still has
 * every core. `QUARRY_WORKER_PRIORITY` sets it (0: the same priority as the main thread), read
 * through the configuration's parser: a worker thread gets the value its process validated at start
 * (its environment is a copy of the process's), and a bad one throws a `ConfigError` rather than
 * passing for another.
 * @defaultValue 10
 */
export function workerPriority(env: Readonly<Record<string, string | undefined>> = process.env): number {
  return configValue('QUARRY_WORKER_PRIORITY', env);
}

/**
 * Lowers the CPU priority of the calling thread alone to `nice` (never raises it). Linux keeps a
 * nice value per thread, and a thread's id names it to `setpriority`; elsewhere, where only the
 * whole process could be lowered, nothing changes. Threads the calling thread starts afterwards
 * inherit the value. Returns whether the thread now runs at that priority or lower.
 */
export function lowerThreadPriority(nice: number = workerPriority()): boolean {
  if (process.platform !== 'linux' || nice <= 0) return false;
  try {
    // `/proc/thread-self` links to `<pid>/task/<tid>`.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    if (threadNice() >= nice) return true;
    setPriority(tid, nice);
    return threadNice() >= nice;
  } catch {
    // No /proc, or not allowed (a sandbox's seccomp): the thread keeps its priority.
    return false;
  }
}

/** The calling thread's nice value, from `/proc/thread-self/stat` (Linux). */
export function threadNice(): number {
  const stat = readFileSync('/proc/thread-self/stat', 'utf8');
  // Fields after the command name `(…)`, which may itself hold spaces: nice is the 19th field.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}
