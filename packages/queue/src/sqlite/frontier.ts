import type Database from 'better-sqlite3';
import { CRASHED_REASON, hostKey } from '../policy.js';
import type { CrawlStats, CrawlTask, FinishedState, NewCrawlTask, UrlStanding } from '../types.js';
import { FrontierStats } from './frontier-stats.js';
import { HostTally } from './host-stats.js';

/** Politeness and lease settings the frontier applies when leasing. */
export interface FrontierSettings {
  readonly hostDelayMs: number;
  readonly perHostConcurrency: number;
  readonly leaseMs: number;
  /**
   * Tries a task gets. A task whose tries were all taken without an outcome (its process died on
   * it: out of memory, a native crash, a supervisor's kill) is failed as `crashed` when it would be
   * leased again, instead of taking down every process that leases it.
   * @defaultValue unlimited
   */
  readonly maxAttempts?: number;
}

interface FrontierRow {
  url: string;
  host: string;
  depth: number;
  scope: string;
  seed: string;
  render: string | null;
  attempt: number;
  meta: string | null;
}

/** How a leased task ended, as the frontier records it. */
export type Settlement =
  | {
      kind: 'finished';
      state: 'done' | 'skipped' | 'failed';
      reason: string | null;
      hostDelayMs?: number;
      hostBackoffUntil?: number;
      /** When the handler's last request to the host was sent: the host's next delay counts from it when later. */
      lastRequestAt?: number;
      /** Merged into the stored meta (an empty string clears a key). */
      meta?: Readonly<Record<string, string>>;
    }
  | { kind: 'retry'; notBefore: number; reason: string; hostBackoffUntil: number }
  /** Not a try: aborted by close(), or postponed by its handler (which may raise the host's delay and rest). */
  | { kind: 'release'; hostDelayMs?: number; hostBackoffUntil?: number; lastRequestAt?: number };

/**
 * The embedded crawl frontier: synchronous, every state change in one SQLite transaction, so a
 * process killed at any point leaves a consistent file (in-flight rows come back when their lease
 * expires, or once a process of the same machine sees their owner gone; done rows stay done).
 */
export class Frontier {
  readonly #db: Database.Database;
  readonly #settings: FrontierSettings;
  readonly #stmts;
  readonly #tally: HostTally;
  readonly #stats: FrontierStats;

  constructor(db: Database.Database, settings: FrontierSettings) {
    this.#db = db;
    this.#settings = settings;
    this.#tally = new HostTally(db);
    this.#stats = new FrontierStats(db);
    this.#stmts = {
      exists: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM frontier WHERE url = ?'),
      scopeCount: db.prepare<[string], { admitted: number }>('SELECT admitted FROM scopes WHERE scope = ?'),
      insert: db.prepare(
        `INSERT OR IGNORE INTO frontier (url, host, state, depth, scope, seed, render, meta, updated_at)
         VALUES (@url, @host, 'queued', @depth, @scope, @seed, @render, @meta, @now)`,
      ),
      admitScope: db.prepare(
        'INSERT INTO scopes (scope, admitted) VALUES (?, 1) ON CONFLICT (scope) DO UPDATE SET admitted = admitted + 1',
      ),
      hostQueued: db.prepare(
        'INSERT INTO hosts (host, queued) VALUES (?, 1) ON CONFLICT (host) DO UPDATE SET queued = queued + 1',
      ),
      reclaim: db.prepare(
        `UPDATE frontier SET state = 'queued', lease_until = NULL, lease_owner = NULL, updated_at = @now
         WHERE state = 'in_flight' AND lease_until < @now`,
      ),
      recount: db.prepare(
        `UPDATE hosts SET
           in_flight = (SELECT count(*) FROM frontier f WHERE f.host = hosts.host AND f.state = 'in_flight'),
           queued = (SELECT count(*) FROM frontier f WHERE f.host = hosts.host AND f.state = 'queued')
         WHERE in_flight > 0`,
      ),
      readyHosts: db.prepare<[number, number], { host: string }>(
        `SELECT host FROM hosts WHERE queued > 0 AND next_allowed_at <= ? AND in_flight < ?
         ORDER BY next_allowed_at`,
      ),
      nextTask: db.prepare<[string, number], FrontierRow & { seq: number }>(
        `SELECT seq, url, host, depth, scope, seed, render, attempt, meta FROM frontier
         WHERE host = ? AND state = 'queued' AND not_before <= ? ORDER BY not_before, seq LIMIT 1`,
      ),
      failCrashed: db.prepare(
        `UPDATE frontier SET state = 'failed', reason = @reason, lease_until = NULL, lease_owner = NULL,
           updated_at = @now WHERE seq = @seq AND state = 'queued'`,
      ),
      hostUnqueued: db.prepare('UPDATE hosts SET queued = max(0, queued - 1) WHERE host = ?'),
      take: db.prepare(
        `UPDATE frontier SET state = 'in_flight', attempt = attempt + 1, lease_until = @leaseUntil,
           lease_owner = @owner, updated_at = @now WHERE seq = @seq`,
      ),
      // A task that sends its host no request (see CrawlWorkOptions.needsNoRequest): in flight, no slot.
      startHostWithoutSlot: db.prepare(
        'UPDATE hosts SET in_flight = in_flight + 1, queued = queued - 1 WHERE host = @host',
      ),
      startHost: db.prepare(
        `UPDATE hosts SET in_flight = in_flight + 1, queued = queued - 1, last_start_at = @now,
           next_allowed_at = max(next_allowed_at, @now + max(delay_ms, @defaultDelayMs)) WHERE host = @host`,
      ),
      settle: db.prepare(
        `UPDATE frontier SET state = @state, reason = @reason, not_before = @notBefore,
           attempt = attempt - @refund, lease_until = NULL, lease_owner = NULL, updated_at = @now,
           meta = CASE WHEN @meta IS NULL THEN meta ELSE json_patch(coalesce(meta, '{}'), @meta) END
         WHERE url = @url AND state = 'in_flight' AND lease_owner = @owner`,
      ),
      recrawl: db.prepare<{ now: number; cutoff: number; limit: number; states: string }, { host: string }>(
        `UPDATE frontier SET state = 'queued', attempt = 0, reason = NULL, not_before = 0, updated_at = @now
         WHERE seq IN (
           SELECT seq FROM frontier
           WHERE state IN (SELECT value FROM json_each(@states)) AND updated_at <= @cutoff
           ORDER BY updated_at LIMIT @limit)
         RETURNING host`,
      ),
      hostRequeued: db.prepare('UPDATE hosts SET queued = queued + ? WHERE host = ?'),
      endHost: db.prepare(
        `UPDATE hosts SET in_flight = max(in_flight - 1, 0), queued = queued + @requeued,
           delay_ms = max(delay_ms, @raisedDelayMs),
           last_start_at = max(last_start_at, @lastRequestAt),
           next_allowed_at = max(next_allowed_at, @backoffUntil,
             max(last_start_at, @lastRequestAt) + max(delay_ms, @raisedDelayMs, @defaultDelayMs))
         WHERE host = @host`,
      ),
      renew: db.prepare(
        `UPDATE frontier SET lease_until = @leaseUntil WHERE lease_owner = @owner AND state = 'in_flight'`,
      ),
      owners: db.prepare<[], { owner: string }>(
        `SELECT DISTINCT lease_owner AS owner FROM frontier WHERE state = 'in_flight' AND lease_owner IS NOT NULL`,
      ),
      expireOwner: db.prepare<[string]>(
        `UPDATE frontier SET lease_until = 0 WHERE lease_owner = ? AND state = 'in_flight'`,
      ),
      standing: db.prepare<[string], { state: string; reason: string | null; host: string; meta: string | null }>(
        'SELECT state, reason, host, meta FROM frontier WHERE url = ?',
      ),
      requeueSeed: db.prepare<
        { seed: string; now: number; meta: string | null; render: string | null },
        { host: string }
      >(
        `UPDATE frontier SET state = 'queued', attempt = 0, reason = NULL, not_before = 0, updated_at = @now,
           meta = CASE WHEN @meta IS NULL THEN meta ELSE json_patch(coalesce(meta, '{}'), @meta) END,
           render = coalesce(@render, render)
         WHERE seed = @seed AND state IN ('done', 'skipped', 'failed')
         RETURNING host`,
      ),
      requeue: db.prepare(
        `UPDATE frontier SET state = 'queued', attempt = 0, reason = NULL, not_before = 0, updated_at = @now
         WHERE url = @url`,
      ),
      busy: db.prepare<[], { one: number }>(
        "SELECT 1 AS one FROM frontier WHERE state IN ('queued', 'in_flight') LIMIT 1",
      ),
      nextHostAt: db.prepare<[number, number], { at: number | null }>(
        'SELECT min(next_allowed_at) AS at FROM hosts WHERE queued > 0 AND in_flight < ? AND next_allowed_at > ?',
      ),
      nextTaskAt: db.prepare<[number], { at: number | null }>(
        "SELECT min(not_before) AS at FROM frontier WHERE state = 'queued' AND not_before > ?",
      ),
    };
  }

  /** URLs admitted to `scope` and counted in it (see CrawlQueue.admittedInScope). */
  admittedInScope(scope: string): number {
    return this.#stmts.scopeCount.get(scope)?.admitted ?? 0;
  }

  /** Admits new URLs (dedup by URL for the crawl's whole life, budgets per scope); returns how many. */
  add(tasks: readonly NewCrawlTask[], now: number): number {
    const rows = tasks.map((task) => ({ task, host: hostKey(task.url) }));
    return this.#db
      .transaction(() => {
        let added = 0;
        for (const { task, host } of rows) {
          if (this.#stmts.exists.get(task.url) !== undefined) continue;
          if (task.maxPagesInScope !== undefined && !task.uncounted) {
            const admitted = this.#stmts.scopeCount.get(task.scope)?.admitted ?? 0;
            if (admitted >= task.maxPagesInScope) continue;
          }
          this.#stmts.insert.run({
            url: task.url,
            host,
            depth: task.depth,
            scope: task.scope,
            seed: task.seed,
            render: task.render ?? null,
            meta: task.meta === undefined ? null : JSON.stringify(task.meta),
            now,
          });
          if (!task.uncounted) this.#stmts.admitScope.run(task.scope);
          this.#stmts.hostQueued.run(host);
          added += 1;
        }
        return added;
      })
      .immediate();
  }

  /**
   * Leases up to `limit` ready tasks of ready hosts (one per host per call, besides those that
   * `needsNoRequest` says send none: they take no politeness slot, and the host's next task is
   * leased in the same call) to `owner`.
   */
  lease(limit: number, owner: string, now: number, needsNoRequest?: (task: CrawlTask) => boolean): CrawlTask[] {
    if (limit <= 0) return [];
    return this.#db
      .transaction(() => {
        this.#reclaimExpired(now);
        const leased: CrawlTask[] = [];
        for (const { host } of this.#stmts.readyHosts.all(now, this.#settings.perHostConcurrency)) {
          if (leased.length >= limit) break;
          let row = this.#nextLeasable(host, now);
          while (row !== undefined && leased.length < limit) {
            this.#stmts.take.run({ seq: row.seq, owner, now, leaseUntil: now + this.#settings.leaseMs });
            const task = toTask(row);
            leased.push(task);
            if (!needsNoRequest?.(task)) {
              this.#stmts.startHost.run({ host, now, defaultDelayMs: this.#settings.hostDelayMs });
              break;
            }
            this.#stmts.startHostWithoutSlot.run({ host });
            row = this.#nextLeasable(host, now);
          }
        }
        return leased;
      })
      .immediate();
  }

  /** The host's next task to lease, failing as `crashed` those whose tries were all taken before. */
  #nextLeasable(host: string, now: number): (FrontierRow & { seq: number }) | undefined {
    let row = this.#stmts.nextTask.get(host, now);
    while (row !== undefined && row.attempt >= (this.#settings.maxAttempts ?? Number.POSITIVE_INFINITY)) {
      this.#stmts.failCrashed.run({ seq: row.seq, now, reason: CRASHED_REASON });
      this.#stmts.hostUnqueued.run(host);
      this.#tally.finished(host, 'failed', now);
      row = this.#stmts.nextTask.get(host, now);
    }
    return row;
  }

  /** Records how a leased task ended; ignored when the lease was lost (expired and re-leased). */
  settle(url: string, owner: string, settlement: Settlement, now: number): void {
    const host = hostKey(url);
    this.#db
      .transaction(() => {
        const common = { url, owner, now };
        let changed: number;
        let requeued = 0;
        let raisedDelayMs = 0;
        let backoffUntil = 0;
        const lastRequestAt = settlement.kind === 'retry' ? 0 : (settlement.lastRequestAt ?? 0);
        if (settlement.kind === 'finished') {
          changed = this.#stmts.settle.run({
            ...common,
            state: settlement.state,
            reason: settlement.reason,
            notBefore: 0,
            refund: 0,
            meta: metaPatch(settlement.meta),
          }).changes;
          raisedDelayMs = Math.max(0, Math.round(settlement.hostDelayMs ?? 0));
          backoffUntil = settlement.hostBackoffUntil ?? 0;
          if (changed > 0) this.#tally.finished(host, settlement.state, now);
        } else if (settlement.kind === 'retry') {
          changed = this.#stmts.settle.run({
            ...common,
            state: 'queued',
            reason: settlement.reason,
            notBefore: settlement.notBefore,
            refund: 0,
            meta: null,
          }).changes;
          requeued = 1;
          backoffUntil = settlement.hostBackoffUntil;
        } else {
          // Aborted by close() or postponed: the try did not happen, so it does not count against maxAttempts.
          changed = this.#stmts.settle.run({
            ...common,
            state: 'queued',
            reason: null,
            notBefore: 0,
            refund: 1,
            meta: null,
          }).changes;
          requeued = 1;
          raisedDelayMs = Math.max(0, Math.round(settlement.hostDelayMs ?? 0));
          backoffUntil = settlement.hostBackoffUntil ?? 0;
        }
        if (changed > 0) {
          const defaultDelayMs = this.#settings.hostDelayMs;
          this.#stmts.endHost.run({ host, requeued, raisedDelayMs, defaultDelayMs, backoffUntil, lastRequestAt });
        }
      })
      .immediate();
  }

  /** Queues up to `limit` URLs that finished in `states` at or before `cutoff`, oldest first. */
  recrawl(states: readonly FinishedState[], cutoff: number, limit: number, now: number): number {
    return this.#db
      .transaction(() => {
        const rows = this.#stmts.recrawl.all({ now, cutoff, limit, states: JSON.stringify(states) });
        this.#countRequeued(rows);
        return rows.length;
      })
      .immediate();
  }

  /** Queues the named URLs again when they finished in one of `states`; reports where each stood. */
  requeue(urls: readonly string[], states: readonly FinishedState[], now: number): UrlStanding[] {
    return this.#db
      .transaction(() =>
        urls.map((url): UrlStanding => {
          const row = this.#stmts.standing.get(url);
          if (row === undefined) return { url, state: 'unknown', requeued: false };
          if (row.state === 'queued' || row.state === 'in_flight') return { url, state: 'pending', requeued: false };
          const state = row.state as FinishedState;
          const requeued = states.includes(state);
          if (requeued) {
            this.#stmts.requeue.run({ url, now });
            this.#stmts.hostRequeued.run(1, row.host);
            this.#tally.unfinished(row.host, state);
          }
          const meta = row.meta === null ? {} : (JSON.parse(row.meta) as Record<string, string>);
          return { url, state, ...(row.reason === null ? {} : { reason: row.reason }), requeued, meta };
        }),
      )
      .immediate();
  }

  /** Queues again every finished URL of each seed with its meta laid over their own; how many per seed. */
  requeueSeeds(settings: ReadonlyMap<string, Readonly<Record<string, string>>>, now: number): Map<string, number> {
    return this.#db
      .transaction(() => {
        const queued = new Map<string, number>();
        for (const [seed, meta] of settings) {
          const rows = this.#stmts.requeueSeed.all({ seed, now, meta: metaPatch(meta), render: meta.render || null });
          this.#countRequeued(rows);
          queued.set(seed, rows.length);
        }
        return queued;
      })
      .immediate();
  }

  /**
   * Adds the URLs queued again to their hosts' queued counts, and counts those hosts' finished URLs
   * again (the rows do not say which state each left), inside the caller's transaction.
   */
  #countRequeued(rows: ReadonlyArray<{ host: string }>): void {
    const perHost = new Map<string, number>();
    for (const { host } of rows) perHost.set(host, (perHost.get(host) ?? 0) + 1);
    for (const [host, n] of perHost) this.#stmts.hostRequeued.run(n, host);
    this.#tally.recount(perHost.keys());
  }

  /**
   * Ends at once the leases of the owners `isGone` says no longer run (a process of this machine
   * killed mid-crawl): their tasks go back to the queue at the next lease, with the try counted, as
   * when a lease runs out. Returns how many tasks were in flight for them.
   */
  expireGoneOwners(isGone: (owner: string) => boolean): number {
    let expired = 0;
    for (const { owner } of this.#stmts.owners.all()) {
      if (isGone(owner)) expired += this.#stmts.expireOwner.run(owner).changes;
    }
    return expired;
  }

  /** Extends the leases of everything `owner` has in flight (a heartbeat while handlers run). */
  renew(owner: string, now: number): void {
    this.#stmts.renew.run({ owner, leaseUntil: now + this.#settings.leaseMs });
  }

  stats(): CrawlStats {
    return this.#stats.read();
  }

  isIdle(): boolean {
    return this.#stmts.busy.get() === undefined;
  }

  /** The earliest future time a task may become leasable, or null when that depends on a completion. */
  nextWakeAt(now: number): number | null {
    const host = this.#stmts.nextHostAt.get(this.#settings.perHostConcurrency, now)?.at ?? null;
    const task = this.#stmts.nextTaskAt.get(now)?.at ?? null;
    if (host === null) return task;
    return task === null ? host : Math.min(host, task);
  }

  /** Leases of dead processes run out; their tasks go back to the queue with the try counted. */
  #reclaimExpired(now: number): void {
    if (this.#stmts.reclaim.run({ now }).changes > 0) this.#stmts.recount.run();
  }
}

/** The JSON merge patch for a stored meta: '' clears a key (RFC 7396 null). */
function metaPatch(meta: Readonly<Record<string, string>> | undefined): string | null {
  if (meta === undefined || Object.keys(meta).length === 0) return null;
  return JSON.stringify(Object.fromEntries(Object.entries(meta).map(([k, v]) => [k, v === '' ? null : v])));
}

function toTask(row: FrontierRow): CrawlTask {
  const task: CrawlTask = {
    url: row.url,
    depth: row.depth,
    scope: row.scope,
    seed: row.seed,
    attempt: row.attempt + 1,
    ...(row.render === null ? {} : { render: row.render as NonNullable<CrawlTask['render']> }),
    ...(row.meta === null ? {} : { meta: JSON.parse(row.meta) as Record<string, string> }),
  };
  return task;
}
