import { renameSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** The entries of `value` that are not undefined, so that spreading them over defaults keeps the defaults. */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Lets the engine's compute pool use every core unless the operator chose (`LANCE_CPU_THREADS`).
 * The engine reserves two cores for I/O and sizes its compute pool from the rest, with one thread
 * at least: on a 2-core machine it built the full-text indexes on one thread (43 s for 100,000
 * pages here; 28 s on two). It reads the variable once, at its first compute task, so this runs
 * before any table is opened (in `LanceSearchIndex.open`); the fold process inherits it with the
 * parent's environment.
 */
export function useEveryCore(): void {
  process.env.LANCE_CPU_THREADS ??= String(availableParallelism());
}

/**
 * Writes `text` to `path` through a file of this process renamed into place: another process
 * reading it at the same moment sees the old content or the new, never a part.
 */
export function writeFileAtomically(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}
