import type Database from 'better-sqlite3';
import { type CrawlStats, REASON_EXAMPLES } from '../types.js';

/** Reasons listed per state, and failures in `topFailures`. */
const TOP_FAILURES = 10;

/**
 * The crawl's figures as the frontier holds them (`CrawlQueue.stats`): URLs per state, the most
 * frequent reasons of skipped and failed ones, and a few example URLs of each reason.
 */
export class FrontierStats {
  readonly #stmts;

  constructor(db: Database.Database) {
    this.#stmts = {
      counts: db.prepare<[], { state: string; n: number }>('SELECT state, count(*) AS n FROM frontier GROUP BY state'),
      topFailures: db.prepare<[number], { reason: string; count: number }>(
        `SELECT reason, count(*) AS count FROM frontier WHERE state = 'failed' AND reason IS NOT NULL
         GROUP BY reason ORDER BY count DESC, reason LIMIT ?`,
      ),
      reasons: db.prepare<[string, number], { reason: string; count: number }>(
        `SELECT reason, count(*) AS count FROM frontier WHERE state = ? AND reason IS NOT NULL
         GROUP BY reason ORDER BY count DESC, reason LIMIT ?`,
      ),
      // Newest admitted first; the (state, reason) index walks rowids in order, so no sort.
      examples: db.prepare<[string, string, number], { url: string }>(
        'SELECT url FROM frontier WHERE state = ? AND reason = ? ORDER BY seq DESC LIMIT ?',
      ),
    };
  }

  read(): CrawlStats {
    const counts: Record<string, number> = {};
    for (const { state, n } of this.#stmts.counts.iterate()) counts[state] = n;
    return {
      queued: counts.queued ?? 0,
      inFlight: counts.in_flight ?? 0,
      done: counts.done ?? 0,
      skipped: counts.skipped ?? 0,
      failed: counts.failed ?? 0,
      topFailures: this.#stmts.topFailures.all(TOP_FAILURES),
      reasons: (['skipped', 'failed'] as const).flatMap((state) =>
        this.#stmts.reasons.all(state, TOP_FAILURES).map(({ reason, count }) => ({
          state,
          reason,
          count,
          examples: this.#stmts.examples.all(state, reason, REASON_EXAMPLES).map((r) => r.url),
        })),
      ),
    };
  }
}
