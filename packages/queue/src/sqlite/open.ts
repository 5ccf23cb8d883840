import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type CommonQueueOptions, DEFAULTS, resolveCommonOptions } from '../options.js';
import type { Queues } from '../types.js';
import { SqliteCrawlQueue } from './crawl-queue.js';
import { SqliteFingerprintStore } from './fingerprints.js';
import { ForgottenSites } from './forgotten.js';
import { Frontier } from './frontier.js';
import { HostStats } from './host-stats.js';
import { SqliteIndexQueue } from './index-queue.js';
import { migrate } from './schema.js';

/** Options of the embedded (SQLite) queues. */
export interface SqliteQueueOptions extends CommonQueueOptions {
  /** The database file, e.g. `<data dir>/queue.db`; created with its directory when missing. */
  readonly path: string;
  /**
   * How long a leased task or index batch stays in flight without a heartbeat. After a crash, its
   * work is handed out again once this has passed, or at once by a worker of this machine that
   * sees the crashed process gone (see owners.ts). @defaultValue 60000
   */
  readonly leaseMs?: number;
  /** Longest sleep of an idle worker before it looks at the database again. @defaultValue 250 */
  readonly pollIntervalMs?: number;
}

/**
 * Opens (or creates) the embedded crawl frontier and index queue in one SQLite file. Workers run in
 * this process; several processes may share the file (leases keep their work apart).
 *
 * @example const queues = openSqliteQueues({ path: 'data/queue.db', hostDelayMs: 1000 });
 */
export function openSqliteQueues(options: SqliteQueueOptions): Queues {
  const common = resolveCommonOptions(options);
  const timing = {
    leaseMs: options.leaseMs ?? DEFAULTS.leaseMs,
    pollIntervalMs: options.pollIntervalMs ?? DEFAULTS.pollIntervalMs,
  };
  if (timing.leaseMs < 1 || timing.pollIntervalMs < 1)
    throw new RangeError('leaseMs and pollIntervalMs must be positive');
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path);
  try {
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  const frontier = new Frontier(db, {
    ...timing,
    hostDelayMs: common.hostDelayMs,
    perHostConcurrency: common.perHostConcurrency,
    maxAttempts: common.maxAttempts,
  });
  const crawl = new SqliteCrawlQueue(frontier, new HostStats(db), new ForgottenSites(db), common, timing);
  const index = new SqliteIndexQueue(db, common, timing);
  let closed: Promise<void> | undefined;
  return {
    crawl,
    index,
    fingerprints: new SqliteFingerprintStore(db),
    close() {
      closed ??= (async () => {
        await Promise.all([crawl.close(), index.close()]);
        db.close();
      })();
      return closed;
    },
  };
}
