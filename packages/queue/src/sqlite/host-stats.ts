import type Database from 'better-sqlite3';
import {
  checkHostQuery,
  type HostCounts,
  type HostPage,
  type HostQuery,
  type HostSort,
  topHostReasons,
} from '../hosts.js';

/** ORDER BY of each sort: most first, ties by host name; hosts never finished last by `last`. */
const ORDER: Readonly<Record<HostSort, string>> = {
  queued: 'queued DESC, host',
  done: 'done DESC, host',
  skipped: 'skipped DESC, host',
  failed: 'failed DESC, host',
  last: 'finished_at DESC, host',
};

type FinishedState = 'done' | 'skipped' | 'failed';

/**
 * Keeps each host's finished counts in `hosts` (beside its queued and in-flight ones) as the
 * frontier's URLs change state, inside the frontier's transactions. Counting on the way is what
 * keeps the hosts view O(hosts): grouping the frontier by host took 25 to 50 ms on 200,000 URLs
 * (docs/benchmarks.md, seventy-fifth session), on the thread the process crawls on.
 */
export class HostTally {
  readonly #finished: Database.Statement<{ host: string; state: FinishedState; now: number }>;
  readonly #unfinished: Database.Statement<{ host: string; state: FinishedState }>;
  readonly #recount: Database.Statement<[string]>;

  constructor(db: Database.Database) {
    this.#finished = db.prepare(
      `UPDATE hosts SET done = done + (@state = 'done'), skipped = skipped + (@state = 'skipped'),
         failed = failed + (@state = 'failed'), finished_at = max(finished_at, @now) WHERE host = @host`,
    );
    this.#unfinished = db.prepare(
      `UPDATE hosts SET done = max(0, done - (@state = 'done')), skipped = max(0, skipped - (@state = 'skipped')),
         failed = max(0, failed - (@state = 'failed')) WHERE host = @host`,
    );
    this.#recount = db.prepare(
      `UPDATE hosts SET (done, skipped, failed) = (
         SELECT coalesce(sum(state = 'done'), 0), coalesce(sum(state = 'skipped'), 0),
           coalesce(sum(state = 'failed'), 0)
         FROM frontier f INDEXED BY frontier_host_reason WHERE f.host = hosts.host)
       WHERE host = ?`,
    );
  }

  /** A URL of `host` ended in `state` at `now`. */
  finished(host: string, state: FinishedState, now: number): void {
    this.#finished.run({ host, state, now });
  }

  /** A URL of `host` that had ended in `state` is queued again. */
  unfinished(host: string, state: FinishedState): void {
    this.#unfinished.run({ host, state });
  }

  /** Counts the finished URLs of each host again (after a bulk requeue that did not say their states). */
  recount(hosts: Iterable<string>): void {
    for (const host of new Set(hosts)) this.#recount.run(host);
  }
}

interface HostRow {
  host: string;
  queued: number;
  inFlight: number;
  done: number;
  skipped: number;
  failed: number;
  finishedAt: number;
}

type PageParams = { q: string | null; limit: number; offset: number };

/**
 * Pages of per-host counts of the embedded frontier, for the admin hosts view: the counts from
 * `hosts` (one row a host), the reasons for the listed hosts only, each a range of
 * `frontier_host_reason`. URLs are counted as they stand now, as the frontier's totals are.
 */
export class HostStats {
  readonly #db: Database.Database;
  readonly #page: Readonly<Record<HostSort, Database.Statement<PageParams, HostRow>>>;
  readonly #count: Database.Statement<{ q: string | null }, { n: number }>;
  readonly #reasons: Database.Statement<[string], { state: 'skipped' | 'failed'; reason: string; count: number }>;

  constructor(db: Database.Database) {
    this.#db = db;
    const filter = 'WHERE @q IS NULL OR instr(host, @q) > 0';
    const page = (sort: HostSort) =>
      db.prepare<PageParams, HostRow>(
        `SELECT host, queued, in_flight AS inFlight, done, skipped, failed, finished_at AS finishedAt
         FROM hosts ${filter} ORDER BY ${ORDER[sort]} LIMIT @limit OFFSET @offset`,
      );
    this.#page = {
      queued: page('queued'),
      done: page('done'),
      skipped: page('skipped'),
      failed: page('failed'),
      last: page('last'),
    };
    this.#count = db.prepare(`SELECT count(*) AS n FROM hosts ${filter}`);
    this.#reasons = db.prepare(
      `SELECT state, reason, count(*) AS count FROM frontier INDEXED BY frontier_host_reason
       WHERE host = ? AND state IN ('skipped', 'failed') AND reason IS NOT NULL GROUP BY state, reason`,
    );
  }

  /** One page of hosts (see `CrawlQueue.hosts`), read in one transaction: one snapshot. */
  page(query: HostQuery): HostPage {
    const { sort, limit, offset, q } = checkHostQuery(query);
    return this.#db.transaction(() => {
      const total = this.#count.get({ q: q ?? null })?.n ?? 0;
      const hosts = this.#page[sort].all({ q: q ?? null, limit, offset }).map(
        (r): HostCounts => ({
          host: r.host,
          queued: r.queued,
          inFlight: r.inFlight,
          done: r.done,
          skipped: r.skipped,
          failed: r.failed,
          reasons: topHostReasons(this.#reasons.all(r.host)),
          lastFinishedMs: r.finishedAt > 0 ? r.finishedAt : null,
        }),
      );
      return { total, hosts, counting: 'urls' as const };
    })();
  }
}
