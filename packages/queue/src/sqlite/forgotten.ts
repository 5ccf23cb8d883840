import type Database from 'better-sqlite3';
import {
  DUPLICATE_REASON,
  hostMayBeWithin,
  type LiftedSite,
  SITE_FORGOTTEN,
  stillIndexed,
  withinSites,
} from '../forget.js';
import type { NewCrawlTask } from '../types.js';

/**
 * The forgotten sites of the embedded crawl (`CrawlQueue.forget`), in `forgotten_sites`, and the
 * frontier's URLs they drop and give back. A site's queued URLs are found host by host through
 * `hosts` (one row a host) and the frontier's (host, state) indexes, never a scan of the frontier.
 */
export class ForgottenSites {
  readonly #db: Database.Database;
  readonly #stmts;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#stmts = {
      list: db.prepare<[], { site: string }>('SELECT site FROM forgotten_sites ORDER BY site'),
      removing: db.prepare<[], { site: string }>(
        'SELECT site FROM forgotten_sites WHERE remove_pages = 1 ORDER BY site',
      ),
      // pages_kept stays 0 once a forget of the site did not keep them: they may have been removed.
      insert: db.prepare(
        `INSERT INTO forgotten_sites (site, forgotten_at, remove_pages, pages_kept) VALUES (@site, @now, @remove, @kept)
         ON CONFLICT (site) DO UPDATE SET remove_pages = excluded.remove_pages,
           pages_kept = min(pages_kept, excluded.pages_kept)`,
      ),
      remove: db.prepare<[string], { forgotten_at: number; pages_kept: number }>(
        'DELETE FROM forgotten_sites WHERE site = ? RETURNING forgotten_at, pages_kept',
      ),
      hosts: db.prepare<[], { host: string }>('SELECT host FROM hosts'),
      queued: db.prepare<[string], { seq: number; url: string }>(
        "SELECT seq, url FROM frontier WHERE host = ? AND state = 'queued'",
      ),
      copies: db.prepare<[string], { seq: number; url: string; host: string; meta: string | null }>(
        "SELECT seq, url, host, meta FROM frontier WHERE state = 'skipped' AND reason = ?",
      ),
      copyAgain: db.prepare(
        `UPDATE frontier SET state = 'queued', reason = NULL, attempt = 0, not_before = 0, updated_at = @now,
           meta = json_remove(meta, '$.etag', '$.lastModified', '$.duplicateOf')
         WHERE seq = @seq AND state = 'skipped'`,
      ),
      hostSkippedAgain: db.prepare(
        'UPDATE hosts SET queued = queued + @n, skipped = max(0, skipped - @n) WHERE host = @host',
      ),
      done: db.prepare<[string], { seq: number; url: string; updated_at: number }>(
        "SELECT seq, url, updated_at FROM frontier WHERE host = ? AND state = 'done'",
      ),
      recrawl: db.prepare(
        `UPDATE frontier SET state = 'queued', reason = NULL, attempt = 0, not_before = 0, updated_at = @now
         WHERE seq = @seq AND state = 'done'`,
      ),
      again: db.prepare(
        `UPDATE frontier SET state = 'queued', reason = NULL, attempt = 0, not_before = 0, updated_at = @now,
           meta = CASE WHEN meta IS NULL THEN NULL ELSE json_remove(meta, '$.etag', '$.lastModified') END
         WHERE seq = @seq AND state = 'done'`,
      ),
      hostDoneAgain: db.prepare('UPDATE hosts SET queued = queued + @n, done = max(0, done - @n) WHERE host = @host'),
      dropped: db.prepare<[string, string], { seq: number; url: string }>(
        "SELECT seq, url FROM frontier WHERE host = ? AND state = 'skipped' AND reason = ?",
      ),
      drop: db.prepare(
        `UPDATE frontier SET state = 'skipped', reason = @reason, lease_until = NULL, lease_owner = NULL,
           updated_at = @now WHERE seq = @seq AND state = 'queued'`,
      ),
      giveBack: db.prepare(
        `UPDATE frontier SET state = 'queued', reason = NULL, attempt = 0, not_before = 0, updated_at = @now
         WHERE seq = @seq AND state = 'skipped' AND reason = @reason`,
      ),
      hostDropped: db.prepare(
        `UPDATE hosts SET queued = max(0, queued - @n), skipped = skipped + @n, finished_at = max(finished_at, @now)
         WHERE host = @host`,
      ),
      hostGivenBack: db.prepare(
        'UPDATE hosts SET queued = queued + @n, skipped = max(0, skipped - @n) WHERE host = @host',
      ),
    };
  }

  /** The forgotten sites, by name. */
  list(): string[] {
    return this.#stmts.list.all().map((row) => row.site);
  }

  /** The forgotten sites whose pages are to be removed (see `CrawlQueue.forgottenRemovingPages`), by name. */
  removingPages(): string[] {
    return this.#stmts.removing.all().map((row) => row.site);
  }

  /** The tasks `add` may admit: those outside every forgotten site. */
  admissible(tasks: readonly NewCrawlTask[]): readonly NewCrawlTask[] {
    const sites = this.list();
    return sites.length === 0 ? tasks : tasks.filter((task) => !withinSites(task.url, sites));
  }

  /**
   * Records the sites (and whether their pages are to be removed: a site forgotten again takes the
   * last forget's word) and ends their queued URLs skipped; how many were dropped. Copies of their
   * pages on other sites are queued again when the pages are removed (see #copiesAgain), and stay
   * skipped while they are kept. One transaction.
   */
  forget(sites: readonly string[], now: number, keepPages: boolean): number {
    return this.#db
      .transaction(() => {
        const [remove, kept] = keepPages ? [0, 1] : [1, 0];
        for (const site of sites) this.#stmts.insert.run({ site, now, remove, kept });
        let dropped = 0;
        for (const host of this.#hostsOf(sites)) {
          const rows = this.#stmts.queued.all(host).filter((row) => withinSites(row.url, sites));
          for (const row of rows) this.#stmts.drop.run({ seq: row.seq, reason: SITE_FORGOTTEN, now });
          if (rows.length > 0) this.#stmts.hostDropped.run({ host, n: rows.length, now });
          dropped += rows.length;
        }
        if (!keepPages) this.#copiesAgain(sites, now);
        return dropped;
      })
      .immediate();
  }

  /**
   * Lifts the sites and queues again the URLs they dropped, and those they had crawled (with their
   * validators when their pages were kept, see `stillIndexed`), but not those still within another
   * forgotten site; how many were queued. One transaction.
   */
  unforget(sites: readonly string[], now: number): number {
    return this.#db
      .transaction(() => {
        const lifted: LiftedSite[] = [];
        for (const site of sites) {
          const row = this.#stmts.remove.get(site);
          if (row) lifted.push({ site, forgottenAt: row.forgotten_at, pagesKept: row.pages_kept === 1 });
        }
        if (lifted.length === 0) return 0;
        const names = lifted.map((site) => site.site);
        const still = this.list();
        let queued = 0;
        for (const host of this.#hostsOf(names)) {
          const rows = this.#stmts.dropped
            .all(host, SITE_FORGOTTEN)
            .filter((row) => withinSites(row.url, names) && !withinSites(row.url, still));
          for (const row of rows) this.#stmts.giveBack.run({ seq: row.seq, reason: SITE_FORGOTTEN, now });
          if (rows.length > 0) this.#stmts.hostGivenBack.run({ host, n: rows.length });
          // Crawled before: a page still indexed is recrawled (an unchanged one answers 304 and keeps
          // its entry); one removed with its site is fetched whole.
          const done = this.#stmts.done
            .all(host)
            .filter((row) => withinSites(row.url, names) && !withinSites(row.url, still));
          for (const row of done) {
            const again = stillIndexed(row.url, row.updated_at, lifted) ? this.#stmts.recrawl : this.#stmts.again;
            again.run({ seq: row.seq, now });
          }
          if (done.length > 0) this.#stmts.hostDoneAgain.run({ host, n: done.length });
          queued += rows.length + done.length;
        }
        return queued;
      })
      .immediate();
  }

  /**
   * Queues again, fetched whole, the pages of other sites skipped as copies of a page of `sites`
   * (`duplicateOf`): that page held their text and leaves the index with its site.
   */
  #copiesAgain(sites: readonly string[], now: number): void {
    const perHost = new Map<string, number>();
    for (const row of this.#stmts.copies.all(DUPLICATE_REASON)) {
      let holder: unknown;
      try {
        holder = row.meta === null ? undefined : (JSON.parse(row.meta) as { duplicateOf?: unknown }).duplicateOf;
      } catch {
        continue;
      }
      if (typeof holder !== 'string' || !withinSites(holder, sites) || withinSites(row.url, sites)) continue;
      if (this.#stmts.copyAgain.run({ seq: row.seq, now }).changes > 0) {
        perHost.set(row.host, (perHost.get(row.host) ?? 0) + 1);
      }
    }
    for (const [host, n] of perHost) this.#stmts.hostSkippedAgain.run({ host, n });
  }

  /** The crawl's hosts that may hold URLs of the sites. */
  #hostsOf(sites: readonly string[]): string[] {
    return this.#stmts.hosts
      .all()
      .map((row) => row.host)
      .filter((host) => sites.some((site) => hostMayBeWithin(host, site)));
  }
}
