import type { Logger } from 'pino';

/** How long the same error is counted rather than logged again. */
const QUIET_MS = 60_000;
/** Distinct messages remembered; beyond, the record starts over (each is logged again once). */
const MAX_MESSAGES = 100;

/** Reports a backend's connection errors to the log; see {@link outageLog}. */
export interface OutageLog {
  /** Logs the error, or counts it when the same message was logged less than a minute ago. */
  error(err: unknown): void;
  /** Logs that the backend answers again, when errors were logged since it last did. */
  recovered(): void;
}

/**
 * A backend's errors for the log without a flood: a Redis client that lost its server reports each
 * reconnection attempt (several a second, from each client), and each used to print a stack trace.
 * The first of each message is logged as a warning with no stack; repeats within a minute are
 * counted and the count goes with the next line logged for it. `what` names the connection and
 * its user ("Redis (queues)", "Redis (rate limits)").
 */
export function outageLog(logger: Logger, what: string, clock: () => number = Date.now): OutageLog {
  const seen = new Map<string, { at: number; repeated: number }>();
  let failing = false;
  return {
    error(err) {
      failing = true;
      const message = err instanceof Error ? err.message : String(err);
      const now = clock();
      const last = seen.get(message);
      if (last && now - last.at < QUIET_MS) {
        last.repeated++;
        return;
      }
      if (seen.size >= MAX_MESSAGES) seen.clear();
      seen.set(message, { at: now, repeated: 0 });
      logger.warn({ err: message, ...(last?.repeated ? { repeated: last.repeated } : {}) }, `${what}: error`);
    },
    recovered() {
      if (!failing) return;
      failing = false;
      seen.clear();
      logger.info(`${what}: answers again`);
    },
  };
}

/** Sends an ioredis client's errors and reconnections to an {@link OutageLog}. */
export function watchRedis(
  client: {
    on(event: 'error', listener: (err: unknown) => void): unknown;
    on(event: 'ready', listener: () => void): unknown;
  },
  log: OutageLog,
): void {
  client.on('error', (err) => log.error(err));
  client.on('ready', () => log.recovered());
}
