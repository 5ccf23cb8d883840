import { type CrawlQueue, DEFAULTS, type FinishedState } from '@quarry/queue';
import type { Logger } from 'pino';

/** Every finished state: pages that were crawled, skipped (robots, noindex) or failed get a new look. */
export const RECRAWL_STATES: readonly FinishedState[] = ['done', 'skipped', 'failed'];
/** Most batches one sweep queues, so a huge backlog enters the frontier over several sweeps. */
const MAX_BATCHES_PER_SWEEP = 10;
const MIN_SWEEP_MS = 1000;
const MAX_SWEEP_MS = 600_000;

/**
 * Queues every URL that finished at least `olderThanMs` ago again (oldest first, in batches), so
 * each is fetched with the validators of its last crawl. Resolves to how many were queued.
 */
export async function recrawlOlderThan(
  crawl: CrawlQueue,
  olderThanMs: number,
  maxBatches = Number.POSITIVE_INFINITY,
): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < maxBatches; batch += 1) {
    // One call queues at most DEFAULTS.recrawlLimit; fewer means none is left.
    const queued = await crawl.recrawl({ olderThanMs, states: RECRAWL_STATES });
    total += queued;
    if (queued < DEFAULTS.recrawlLimit) break;
  }
  return total;
}

/** A running recrawl schedule; `close` stops it (a sweep in progress finishes first). */
export interface RecrawlSchedule {
  close(): Promise<void>;
}

/**
 * Sweeps the frontier for pages last crawled more than `afterMs` ago, at once and then every tenth
 * of `afterMs` (between 1 s and 10 min). Safe with several processes: each URL is taken once.
 */
export function scheduleRecrawls(crawl: CrawlQueue, afterMs: number, logger: Logger): RecrawlSchedule {
  const sweepMs = Math.min(MAX_SWEEP_MS, Math.max(MIN_SWEEP_MS, Math.floor(afterMs / 10)));
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = running.then(async () => {
      try {
        const queued = await recrawlOlderThan(crawl, afterMs, MAX_BATCHES_PER_SWEEP);
        if (queued > 0) logger.info({ queued }, 'queued pages for recrawl');
      } catch (error) {
        logger.warn({ err: (error as Error).message }, 'recrawl sweep failed; trying again later');
      }
    });
  };
  sweep();
  const timer = setInterval(sweep, sweepMs);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}
