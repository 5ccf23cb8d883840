import type Database from 'better-sqlite3';
import { DEFAULTS, type ResolvedCommonOptions } from '../options.js';
import { isIndexOutage } from '../policy.js';
import type { IndexItem, IndexQueue, IndexStats, IndexWorker, IndexWorkOptions } from '../types.js';
import { indexRetryDelayMs, settlesWithin } from '../util.js';
import type { SqliteCrawlTiming } from './crawl-queue.js';
import { isGoneOwner, newOwner } from './owners.js';
import { Wakeup } from './wakeup.js';

interface Row {
  id: number;
  enqueued_at: number;
  /** Deliveries before this one. */
  attempts: number;
}

interface LeasedRow extends Row {
  readonly doc: string | undefined;
}

/** The embedded index queue: a SQLite table of documents, leased in batches, deleted on success. */
export class SqliteIndexQueue implements IndexQueue {
  readonly #db: Database.Database;
  readonly #options: ResolvedCommonOptions;
  readonly #timing: SqliteCrawlTiming;
  readonly #wakeup = new Wakeup();
  readonly #workers = new Set<IndexWorker>();
  readonly #insert;
  readonly #insertDoc;
  readonly #counts;
  readonly #retryFailed;

  constructor(db: Database.Database, options: ResolvedCommonOptions, timing: SqliteCrawlTiming) {
    this.#db = db;
    this.#options = options;
    this.#timing = timing;
    this.#insert = db.prepare<[number, string]>('INSERT INTO index_queue (enqueued_at, page_id) VALUES (?, ?)');
    this.#insertDoc = db.prepare<[number | bigint, string]>('INSERT INTO index_queue_docs (id, doc) VALUES (?, ?)');
    // The attempts stay spent: the document has this one attempt, then fails again.
    this.#retryFailed = db.prepare<[{ now: number }]>(
      'UPDATE index_queue SET failed = 0, not_before = @now, lease_until = NULL, lease_owner = NULL WHERE failed = 1',
    );
    this.#counts = db.prepare<[{ now: number }], { waiting: number; active: number; failed: number }>(
      `SELECT coalesce(sum(failed = 0 AND (lease_until IS NULL OR lease_until < @now)), 0) AS waiting,
              coalesce(sum(failed = 0 AND lease_until >= @now), 0) AS active,
              coalesce(sum(failed = 1), 0) AS failed
       FROM index_queue`,
    );
  }

  async push(items: readonly IndexItem[]): Promise<void> {
    if (items.length === 0) return;
    const now = Date.now();
    this.#db
      .transaction(() => {
        for (const item of items) {
          const { lastInsertRowid } = this.#insert.run(now, item.id);
          this.#insertDoc.run(lastInsertRowid, JSON.stringify(item));
        }
      })
      .immediate();
    this.#wakeup.notify();
  }

  work(handler: (items: IndexItem[]) => Promise<void>, options: IndexWorkOptions = {}): IndexWorker {
    const batchSize = options.batchSize ?? DEFAULTS.indexBatchSize;
    const maxWaitMs = options.maxWaitMs ?? DEFAULTS.indexMaxWaitMs;
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be a positive integer');
    const worker = new SqliteIndexWorker(this.#db, handler, {
      ...this.#options,
      ...this.#timing,
      batchSize,
      maxWaitMs,
      wakeup: this.#wakeup,
      onClosed: () => this.#workers.delete(worker),
    });
    this.#workers.add(worker);
    return worker;
  }

  async retryFailed(): Promise<number> {
    const { changes } = this.#retryFailed.run({ now: Date.now() });
    if (changes > 0) this.#wakeup.notify();
    return changes;
  }

  async stats(): Promise<IndexStats> {
    return this.#counts.get({ now: Date.now() }) ?? { waiting: 0, active: 0, failed: 0 };
  }

  async close(): Promise<void> {
    await Promise.all([...this.#workers].map((worker) => worker.close()));
  }
}

interface IndexWorkerSettings extends ResolvedCommonOptions, SqliteCrawlTiming {
  readonly batchSize: number;
  readonly maxWaitMs: number;
  readonly wakeup: Wakeup;
  readonly onClosed: () => void;
}

class SqliteIndexWorker implements IndexWorker {
  readonly #db: Database.Database;
  readonly #handler: (items: IndexItem[]) => Promise<void>;
  readonly #settings: IndexWorkerSettings;
  readonly #owner = newOwner();
  readonly #stmts;
  readonly #loop: Promise<void>;
  #closing = false;
  #current: Promise<void> | undefined;
  #closed: Promise<void> | undefined;

  constructor(db: Database.Database, handler: (items: IndexItem[]) => Promise<void>, settings: IndexWorkerSettings) {
    this.#db = db;
    this.#handler = handler;
    this.#settings = settings;
    this.#stmts = {
      ready: db.prepare<[number, number, number], Row>(
        // A page's items in the order they were pushed: one waits while an earlier one of the same
        // page is waiting its retry or in a batch, so a retried upsert never lands after a removal.
        `SELECT id, enqueued_at, attempts FROM index_queue q
         WHERE failed = 0 AND not_before <= ? AND (lease_until IS NULL OR lease_until < ?)
           AND NOT EXISTS (SELECT 1 FROM index_queue o WHERE o.page_id = q.page_id AND o.id < q.id AND o.failed = 0)
         ORDER BY id LIMIT ?`,
      ),
      lease: db.prepare(
        `UPDATE index_queue SET lease_until = @leaseUntil, lease_owner = @owner, attempts = attempts + 1
         WHERE id = @id`,
      ),
      doc: db.prepare<[number], { doc: string }>('SELECT doc FROM index_queue_docs WHERE id = ?'),
      ack: db.prepare('DELETE FROM index_queue WHERE id = @id AND lease_owner = @owner'),
      ackDoc: db.prepare<[number]>('DELETE FROM index_queue_docs WHERE id = ?'),
      nack: db.prepare(
        `UPDATE index_queue SET lease_until = NULL, lease_owner = NULL,
           failed = @failed, not_before = @notBefore
         WHERE id = @id AND lease_owner = @owner`,
      ),
      renew: db.prepare('UPDATE index_queue SET lease_until = @leaseUntil WHERE lease_owner = @owner'),
      owners: db.prepare<[number], { owner: string }>(
        'SELECT DISTINCT lease_owner AS owner FROM index_queue WHERE lease_until >= ? AND lease_owner IS NOT NULL',
      ),
      expireOwner: db.prepare<[string]>('UPDATE index_queue SET lease_until = 0 WHERE lease_owner = ?'),
    };
    this.#loop = this.#run();
  }

  close(): Promise<void> {
    this.#closed ??= this.#shutdown();
    return this.#closed;
  }

  async #run(): Promise<void> {
    let lookedForGoneAt = Number.NEGATIVE_INFINITY;
    while (!this.#closing) {
      let waitMs = this.#settings.pollIntervalMs;
      try {
        // Batches a killed process of this machine left leased are delivered now, not a lease
        // later (see isGoneOwner); looked for at the start and then as often as a lease is renewed.
        if (Date.now() - lookedForGoneAt >= this.#settings.leaseMs / 3) {
          lookedForGoneAt = Date.now();
          this.#expireGoneOwners(lookedForGoneAt);
        }
        const batch = this.#takeBatch(Date.now());
        if (Array.isArray(batch)) {
          this.#current = this.#deliver(batch);
          await this.#current;
          continue;
        }
        if (batch !== null) waitMs = Math.min(waitMs, batch.waitMs);
      } catch (err) {
        // A busy database: report it and look again after the poll interval.
        this.#settings.onError(err);
      }
      await this.#settings.wakeup.wait(Math.max(1, waitMs));
    }
  }

  #expireGoneOwners(now: number): void {
    for (const { owner } of this.#stmts.owners.all(now)) {
      if (isGoneOwner(owner)) this.#stmts.expireOwner.run(owner);
    }
  }

  /**
   * A leased batch with its documents, or how long to wait for a partial batch to fill, or null
   * when nothing waits. Deciding reads only the small rows, however often a push wakes the worker.
   */
  #takeBatch(now: number): LeasedRow[] | { waitMs: number } | null {
    return this.#db
      .transaction(() => {
        const rows = this.#stmts.ready.all(now, now, this.#settings.batchSize);
        const first = rows[0];
        if (first === undefined) return null;
        const oldest = Math.min(...rows.map((row) => row.enqueued_at));
        if (rows.length < this.#settings.batchSize && oldest + this.#settings.maxWaitMs > now) {
          return { waitMs: oldest + this.#settings.maxWaitMs - now };
        }
        const leaseUntil = now + this.#settings.leaseMs;
        for (const row of rows) this.#stmts.lease.run({ id: row.id, owner: this.#owner, leaseUntil });
        return rows.map((row) => ({ ...row, doc: this.#stmts.doc.get(row.id)?.doc }));
      })
      .immediate();
  }

  async #deliver(rows: LeasedRow[]): Promise<void> {
    const heartbeat = setInterval(
      () => {
        try {
          this.#stmts.renew.run({ owner: this.#owner, leaseUntil: Date.now() + this.#settings.leaseMs });
        } catch (err) {
          this.#settings.onError(err);
        }
      },
      Math.max(10, Math.floor(this.#settings.leaseMs / 3)),
    );
    heartbeat.unref();
    let ok = true;
    let outage = false;
    try {
      // A row without its document (written by no release, but a file can be damaged) is acknowledged.
      await this.#handler(rows.flatMap((row) => (row.doc === undefined ? [] : [JSON.parse(row.doc) as IndexItem])));
    } catch (err) {
      ok = false;
      outage = isIndexOutage(err);
    } finally {
      clearInterval(heartbeat);
    }
    const now = Date.now();
    const { indexMaxAttempts, indexRetryDelayMs: baseMs, maxRetryDelayMs } = this.#settings;
    this.#db
      .transaction(() => {
        for (const row of rows) {
          const owner = this.#owner;
          if (ok) {
            if (this.#stmts.ack.run({ id: row.id, owner }).changes > 0) this.#stmts.ackDoc.run(row.id);
            continue;
          }
          const attempts = row.attempts + 1;
          const notBefore = now + indexRetryDelayMs(attempts, baseMs, maxRetryDelayMs);
          // Attempts still count during an outage (the backoff grows), but only to the cap of the delay.
          const failed = !outage && attempts >= indexMaxAttempts ? 1 : 0;
          this.#stmts.nack.run({ id: row.id, owner, failed, notBefore });
        }
      })
      .immediate();
  }

  async #shutdown(): Promise<void> {
    this.#closing = true;
    this.#settings.wakeup.notify();
    // An unfinished batch keeps its lease, which expires: it is redelivered, never lost.
    await settlesWithin(this.#loop, this.#settings.closeTimeoutMs);
    this.#settings.onClosed();
  }
}
