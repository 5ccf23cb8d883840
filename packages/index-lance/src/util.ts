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
 * The URL of a built module of this package that runs apart (a worker thread, a child process):
 * beside the calling module, or in `dist/` when the caller runs from its source (tests).
 *
 * @param here - the caller's `import.meta.url`
 * @param name - the module's file name in `dist/`, e.g. `fold-worker.js`
 */
export function builtModuleUrl(here: string, name: string): URL {
  return here.endsWith('.ts') ? new URL(`../dist/${name}`, here) : new URL(`./${name}`, here);
}
