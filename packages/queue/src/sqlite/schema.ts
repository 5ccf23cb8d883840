import type Database from 'better-sqlite3';

/**
 * Tables of the embedded queues. The frontier keeps every URL ever admitted (that is the dedup set
 * and the crawl's history); `hosts` holds politeness state and per-host counters so leasing never
 * scans tasks of hosts that are not ready; `scopes` counts admitted URLs for budgets; `fingerprints`
 * maps a main text's fingerprint to the URL whose document holds it (see fingerprints.ts).
 * `index_queue` holds an item's delivery state and `index_queue_docs` its document (tens of KB of
 * JSON), so that leasing, counting and acknowledging never read or rewrite the document.
 * `forgotten_sites` lists the sites whose URLs the crawl refuses (see forgotten.ts).
 * `hosts` also counts each host's finished URLs by state (see host-stats.ts, and
 * {@link addHostCounts} for files of earlier releases), and `frontier_host_reason` finds the skip
 * and failure reasons of one host: the admin hosts view reads both, never a scan of the frontier.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS frontier (
  seq INTEGER PRIMARY KEY,
  url TEXT NOT NULL UNIQUE,
  host TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'in_flight', 'done', 'skipped', 'failed')),
  depth INTEGER NOT NULL,
  scope TEXT NOT NULL,
  seed TEXT NOT NULL,
  render TEXT,
  attempt INTEGER NOT NULL DEFAULT 0,
  not_before INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER,
  lease_owner TEXT,
  reason TEXT,
  meta TEXT,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS frontier_host_ready ON frontier (host, state, not_before, seq);
CREATE INDEX IF NOT EXISTS frontier_state_reason ON frontier (state, reason);
CREATE INDEX IF NOT EXISTS frontier_state_not_before ON frontier (state, not_before);
CREATE INDEX IF NOT EXISTS frontier_state_updated ON frontier (state, updated_at);
CREATE INDEX IF NOT EXISTS frontier_seed ON frontier (seed);
CREATE INDEX IF NOT EXISTS frontier_host_reason ON frontier (host, state, reason);
CREATE TABLE IF NOT EXISTS hosts (
  host TEXT PRIMARY KEY,
  next_allowed_at INTEGER NOT NULL DEFAULT 0,
  last_start_at INTEGER NOT NULL DEFAULT 0,
  in_flight INTEGER NOT NULL DEFAULT 0,
  queued INTEGER NOT NULL DEFAULT 0,
  delay_ms INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS hosts_ready ON hosts (queued, next_allowed_at);
CREATE TABLE IF NOT EXISTS scopes (
  scope TEXT PRIMARY KEY,
  admitted INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS index_queue (
  id INTEGER PRIMARY KEY,
  enqueued_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  not_before INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER,
  lease_owner TEXT,
  failed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS index_queue_ready ON index_queue (failed, not_before, id);
CREATE TABLE IF NOT EXISTS index_queue_docs (
  id INTEGER PRIMARY KEY,
  doc TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS forgotten_sites (
  site TEXT PRIMARY KEY,
  forgotten_at INTEGER NOT NULL,
  remove_pages INTEGER NOT NULL DEFAULT 0,
  pages_kept INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS fingerprints (
  fingerprint TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  canonical INTEGER NOT NULL
) WITHOUT ROWID;
`;

/** Sets the connection up (WAL, so readers never block the worker) and creates missing tables. */
export function migrate(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode loses at most the last transactions on power loss, never on a process crash.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  moveIndexDocs(db);
  forgetDefaultDelays(db);
  addPageIds(db);
  addHostCounts(db);
  addRemovePages(db);
  addPagesKept(db);
}

/**
 * Releases before 2026-12-06 did not record whether a forgotten site's pages were to be removed
 * (`remove_pages`): the column is added, 0 for the sites they forgot, so that an upgrade never
 * removes pages a forget kept (`--keep-pages`).
 */
function addRemovePages(db: Database.Database): void {
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(forgotten_sites)').all();
  if (!columns.some((column) => column.name === 'remove_pages')) {
    db.exec('ALTER TABLE forgotten_sites ADD COLUMN remove_pages INTEGER NOT NULL DEFAULT 0');
  }
}

/**
 * Releases before 2026-12-07 did not record whether every forget of a site kept its pages
 * (`pages_kept`, which lets `unforget` recrawl them with their validators): the column is added, 0
 * for the sites they forgot, whose pages are then fetched whole (they may have been removed).
 */
function addPagesKept(db: Database.Database): void {
  const columns = db.prepare<[], { name: string }>('PRAGMA table_info(forgotten_sites)').all();
  if (!columns.some((column) => column.name === 'pages_kept')) {
    db.exec('ALTER TABLE forgotten_sites ADD COLUMN pages_kept INTEGER NOT NULL DEFAULT 0');
  }
}

/**
 * Releases before 2026-12-05 counted only each host's queued and in-flight URLs. The finished ones
 * are counted too now (done, skipped, failed, and when one last finished), for the admin hosts
 * view: the columns are added and filled from the frontier once, in one transaction (a process of
 * an earlier release sharing the file meanwhile does not keep them: they are right again after the
 * next recrawl or re-seed of the host, or once the columns are dropped and the file opened again).
 */
function addHostCounts(db: Database.Database): void {
  const has = () =>
    db
      .prepare<[], { name: string }>('PRAGMA table_info(hosts)')
      .all()
      .some((column) => column.name === 'finished_at');
  if (has()) return;
  db.transaction(() => {
    if (has()) return;
    db.exec(`ALTER TABLE hosts ADD COLUMN done INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE hosts ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE hosts ADD COLUMN failed INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE hosts ADD COLUMN finished_at INTEGER NOT NULL DEFAULT 0;
      INSERT OR IGNORE INTO hosts (host) SELECT DISTINCT host FROM frontier;
      UPDATE hosts SET (done, skipped, failed, finished_at) = (
        SELECT coalesce(sum(state = 'done'), 0), coalesce(sum(state = 'skipped'), 0),
          coalesce(sum(state = 'failed'), 0),
          coalesce(max(CASE WHEN state IN ('done', 'skipped', 'failed') THEN updated_at END), 0)
        FROM frontier f WHERE f.host = hosts.host);`);
  }).immediate();
}

/**
 * Releases before 2026-12-05 kept no page id beside a queued index item, so a failed upsert retried
 * after its backoff could land after a later removal (or newer version) of the same page, which then
 * came back. Items are now delivered one page at a time, in order (see the index worker's `ready`);
 * items queued before keep a null id and their old order.
 */
function addPageIds(db: Database.Database): void {
  const has = () =>
    db
      .prepare<[], { name: string }>('PRAGMA table_info(index_queue)')
      .all()
      .some((column) => column.name === 'page_id');
  if (!has()) {
    db.transaction(() => {
      if (!has()) db.exec('ALTER TABLE index_queue ADD COLUMN page_id TEXT');
    }).immediate();
  }
  db.exec('CREATE INDEX IF NOT EXISTS index_queue_page ON index_queue (page_id, id)');
}

/**
 * Releases before 2026-12-01 kept in `hosts.delay_ms` the delay the crawler used for a host, its
 * own QUARRY_HOST_DELAY_MS included, for good: a lower setting never applied to a host crawled
 * before. It now holds only what the host's robots.txt asks (the queue adds the setting itself);
 * the old values are cleared once (`user_version` 1), and each host's Crawl-delay is read again
 * on its next task.
 */
function forgetDefaultDelays(db: Database.Database): void {
  const version = () => db.pragma('user_version', { simple: true }) as number;
  if (version() >= 1) return;
  db.transaction(() => {
    if (version() >= 1) return;
    db.exec('UPDATE hosts SET delay_ms = 0; PRAGMA user_version = 1;');
  }).immediate();
}

/**
 * Releases before 2026-11-28 kept each document in `index_queue.doc`. Its waiting items keep their
 * ids, attempts and leases; their documents move to `index_queue_docs`. Once, in one transaction,
 * so another process opening the file at the same time sees either layout whole.
 */
function moveIndexDocs(db: Database.Database): void {
  const hasDoc = () =>
    db
      .prepare<[], { name: string }>('PRAGMA table_info(index_queue)')
      .all()
      .some((column) => column.name === 'doc');
  if (!hasDoc()) return;
  db.transaction(() => {
    if (!hasDoc()) return;
    db.exec(`INSERT OR IGNORE INTO index_queue_docs (id, doc) SELECT id, doc FROM index_queue;
             ALTER TABLE index_queue DROP COLUMN doc;`);
  }).immediate();
}
