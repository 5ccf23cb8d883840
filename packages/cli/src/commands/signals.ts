import type { Logger } from 'pino';

/** Resolves on the first SIGTERM or SIGINT. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', on);
      process.off('SIGINT', on);
      resolve(signal);
    };
    process.on('SIGTERM', on);
    process.on('SIGINT', on);
  });
}

/**
 * How long closing may take after the signal: longer than an in-flight page's fetch needs to end
 * (its deadline is 30 s, but closing aborts it), shorter than an orchestrator's usual grace (30 s).
 */
export const SHUTDOWN_DEADLINE_MS = 25_000;

/** A step of a shutdown: what it closes (named in the log if it never ends), and how. */
export type ShutdownStep = readonly [name: string, close: () => unknown];

/**
 * Runs the steps of a shutdown in order. A step that does not end within `deadlineMs` of the start
 * (a queue's Redis client closing waits for its server, for as long as the server is away: a
 * distributed `quarry start` stopped while Redis was down ran on for twenty minutes) ends the
 * process with exit code 1, naming the step; a second signal still kills the process at once (the
 * signal's default, once {@link untilSignal} has resolved).
 */
export async function shutDown(
  logger: Pick<Logger, 'error'>,
  steps: readonly ShutdownStep[],
  { deadlineMs = SHUTDOWN_DEADLINE_MS, exit = (code: number) => process.exit(code) as never } = {},
): Promise<void> {
  let waitingOn = '';
  const timer = setTimeout(() => {
    logger.error({ waitingOn, deadlineMs }, 'shutdown did not finish in time: exiting');
    process.stderr.write(`quarry: ${waitingOn} did not close within ${deadlineMs / 1000} s; exiting\n`);
    exit(1);
  }, deadlineMs);
  // The process ends when the steps do; the timer only stands by for a step that never ends.
  timer.unref();
  try {
    for (const [name, close] of steps) {
      waitingOn = name;
      await close();
    }
  } finally {
    clearTimeout(timer);
  }
}
