import { existsSync } from 'node:fs';
import { helperThreads, type QuarryConfig } from '@quarry/core';
import { SingleBar } from 'cli-progress';
import { openStores } from '../runtime.js';
import { diskFullProblem, fileProblem, isDiskFull } from '../usage.js';
import { importJsonl } from './importer.js';
import { IMPORT_HELPERS, pooledLineParser } from './line-parser.js';

/** Worker threads that parse the lines, at most (one core is left to reading and writing). */
const MAX_PARSE_THREADS = 3;

/** Bad lines printed one by one before the rest are only counted. */
const MAX_BAD_LINES_SHOWN = 100;

/** The shell's codes for a command ended by a signal (128 + its number). */
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/** `1 document`, `2 documents`. */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * The first Ctrl-C or SIGTERM (what Docker, systemd and `timeout` send) aborts the returned signal:
 * the import stops after the batch being written and says how far it got. A second one quits at
 * once. Either way `restore` puts the terminal back first: the progress bar hides the cursor and
 * turns line wrapping off until it is stopped. `exitCode` is the first signal's shell code.
 */
function stopOnSignals(restore: () => void): { signal: AbortSignal; exitCode(): number; dispose(): void } {
  const stop = new AbortController();
  let first: keyof typeof SIGNAL_EXIT_CODES = 'SIGINT';
  const on = (name: keyof typeof SIGNAL_EXIT_CODES): void => {
    restore();
    if (stop.signal.aborted) process.exit(SIGNAL_EXIT_CODES[name]);
    first = name;
    stop.abort();
    process.stderr.write(
      `stopping after the batch being written (${name === 'SIGINT' ? 'Ctrl-C' : name} again to quit at once)\n`,
    );
  };
  const onSigint = (): void => on('SIGINT');
  const onSigterm = (): void => on('SIGTERM');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  return {
    signal: stop.signal,
    exitCode: () => SIGNAL_EXIT_CODES[first],
    dispose: () => {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
    },
  };
}

/**
 * `quarry import FILE.jsonl [--batch-size N]`: exit code 0 when every line imported, 1 when any
 * failed, 2 on usage errors. `batchSize`: documents written at a time (the importer's default, 5,000,
 * when undefined).
 */
export async function runImport(
  file: string,
  config: QuarryConfig,
  { batchSize }: { readonly batchSize?: number | undefined } = {},
): Promise<number> {
  if (!existsSync(file)) {
    process.stderr.write(`quarry import: no such file: ${file}\n`);
    return 2;
  }
  // A directory or an unreadable file is a usage error too, said in words (never a raw EISDIR).
  const problem = fileProblem(file);
  if (problem !== null) {
    process.stderr.write(`quarry import: ${file} ${problem}; nothing was imported\n`);
    return 2;
  }
  const services = await openStores(config, { bulk: true });
  const interactive = process.stderr.isTTY === true;
  const bar = interactive
    ? new SingleBar({
        format: 'importing [{bar}] {percentage}% read | {imported} docs written | {failed} bad lines',
        hideCursor: true,
      })
    : null;
  bar?.start(100, 0, { imported: 0, failed: 0 });
  let shown = 0;
  const parser = pooledLineParser(helperThreads(MAX_PARSE_THREADS));
  const interrupt = stopOnSignals(() => bar?.stop());
  let importedSoFar = 0;
  try {
    const summary = await importJsonl(file, {
      index: services.index,
      blobs: services.blobs,
      ...IMPORT_HELPERS,
      parser,
      ...(batchSize === undefined ? {} : { batchSize }),
      signal: interrupt.signal,
      onBadLine(line, reason) {
        if (shown++ < MAX_BAD_LINES_SHOWN) {
          // On a terminal, clear the progress bar's line first; it redraws on the next update.
          process.stderr.write(`${bar ? '\r\x1b[K' : ''}line ${line}: ${reason}\n`);
        }
      },
      onProgress({ bytesRead, totalBytes, imported, failed }) {
        importedSoFar = imported;
        bar?.update(totalBytes > 0 ? Math.min(100, Math.round((100 * bytesRead) / totalBytes)) : 100, {
          imported,
          failed,
        });
      },
    });
    if (summary.interrupted) {
      bar?.stop();
      // What was written stays (and is searchable); the index folds it in later, so no flush here.
      process.stdout.write(
        `interrupted: ${count(summary.imported, 'document')} imported, ${count(summary.failed, 'line')} failed; ` +
          'run the same command again to finish (a URL imported again replaces its document)\n',
      );
      return interrupt.exitCode();
    }
    bar?.update(100);
    bar?.stop();
    // Bulk writes skip background folds; fold once now so that the import ends fully indexed.
    const flushStarted = Date.now();
    await services.index.flush?.();
    const flushSecs = (Date.now() - flushStarted) / 1000;
    if (summary.failed > MAX_BAD_LINES_SHOWN) {
      process.stderr.write(`… and ${summary.failed - MAX_BAD_LINES_SHOWN} more bad lines\n`);
    }
    const secs = summary.elapsedMs / 1000 + flushSecs;
    const rate = secs > 0 ? Math.round(summary.imported / secs) : summary.imported;
    process.stdout.write(
      `imported ${count(summary.imported, 'document')}, ${count(summary.failed, 'line')} failed, in ${secs.toFixed(1)} s ` +
        `(${rate} docs/s, full-text indexes built in ${flushSecs.toFixed(1)} s of it)\n`,
    );
    return summary.failed > 0 ? 1 : 0;
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    bar?.stop();
    // What was written stays; the rest is written by running the same command again.
    process.stderr.write(
      `quarry import: ${diskFullProblem(config.dataDir)}: stopped after ${count(importedSoFar, 'document')} imported; ` +
        'the same command then finishes (a URL imported again replaces its document)\n',
    );
    return 2;
  } finally {
    interrupt.dispose();
    bar?.stop();
    await parser.close();
    await services.close();
  }
}
