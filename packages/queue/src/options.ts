/** Options both backends share. Every default lives in {@link DEFAULTS}. */
export interface CommonQueueOptions {
  /** Least time between two task starts on one host. @defaultValue 1000 */
  readonly hostDelayMs?: number;
  /** Tasks in flight at once on one host, over all workers. @defaultValue 1 */
  readonly perHostConcurrency?: number;
  /** Tries of a task before it fails with the last error's code. @defaultValue 3 */
  readonly maxAttempts?: number;
  /** Backoff after the first failed try; doubles with each further try. @defaultValue 2000 */
  readonly retryBaseDelayMs?: number;
  /** Cap of the retry backoff (and of a host backoff asked by Retry-After). @defaultValue 600000 */
  readonly maxRetryDelayMs?: number;
  /** How long `worker.close()` waits for in-flight handlers before aborting them. @defaultValue 10000 */
  readonly closeTimeoutMs?: number;
  /** Deliveries of an index batch before its documents count as failed. @defaultValue 10 */
  readonly indexMaxAttempts?: number;
  /** Backoff before an index batch is redelivered after its handler rejected. @defaultValue 1000 */
  readonly indexRetryDelayMs?: number;
  /**
   * Called with backend errors a worker survives (a busy database, a lost Redis connection), so the
   * caller can log them; the work is retried either way. @defaultValue ignore
   */
  readonly onError?: (err: unknown) => void;
}

/** Defaults of every option in this package, in one place. */
export const DEFAULTS = {
  hostDelayMs: 1000,
  perHostConcurrency: 1,
  maxAttempts: 3,
  retryBaseDelayMs: 2000,
  maxRetryDelayMs: 600_000,
  closeTimeoutMs: 10_000,
  indexMaxAttempts: 10,
  indexRetryDelayMs: 1000,
  indexBatchSize: 100,
  indexMaxWaitMs: 500,
  /** SQLite: how long a leased task stays in flight without a heartbeat. */
  leaseMs: 60_000,
  /** SQLite: longest sleep of an idle worker between looks at the frontier. */
  pollIntervalMs: 250,
  /** BullMQ: key prefix. */
  prefix: 'quarry',
  /** BullMQ: job lock and host slot lease; see BullmqQueueOptions.lockMs for when a dead worker's job is retried. */
  lockMs: 30_000,
  /** BullMQ: how often stalled jobs are looked for. */
  stalledIntervalMs: 30_000,
  /** BullMQ: failed jobs kept (with their reason) per queue. */
  keepFailedJobs: 1000,
  /** BullMQ: completed jobs kept per queue (Redis memory stays bounded). */
  keepCompletedJobs: 100,
  /** URLs queued by one `CrawlQueue.recrawl` call when it names no limit. */
  recrawlLimit: 10_000,
} as const;

/** Common options with every default applied. */
export type ResolvedCommonOptions = Required<CommonQueueOptions>;

const ignore = (): void => {};

/** Applies the defaults and rejects nonsense (negative delays, zero attempts). */
export function resolveCommonOptions(options: CommonQueueOptions): ResolvedCommonOptions {
  const resolved: ResolvedCommonOptions = {
    hostDelayMs: options.hostDelayMs ?? DEFAULTS.hostDelayMs,
    perHostConcurrency: options.perHostConcurrency ?? DEFAULTS.perHostConcurrency,
    maxAttempts: options.maxAttempts ?? DEFAULTS.maxAttempts,
    retryBaseDelayMs: options.retryBaseDelayMs ?? DEFAULTS.retryBaseDelayMs,
    maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
    closeTimeoutMs: options.closeTimeoutMs ?? DEFAULTS.closeTimeoutMs,
    indexMaxAttempts: options.indexMaxAttempts ?? DEFAULTS.indexMaxAttempts,
    indexRetryDelayMs: options.indexRetryDelayMs ?? DEFAULTS.indexRetryDelayMs,
    onError: options.onError ?? ignore,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (typeof value === 'function') continue;
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number`);
  }
  if (resolved.perHostConcurrency < 1 || resolved.maxAttempts < 1 || resolved.indexMaxAttempts < 1) {
    throw new RangeError('perHostConcurrency, maxAttempts and indexMaxAttempts must be at least 1');
  }
  return resolved;
}
