import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { doc, doneAfter, task, waitFor } from '../contract/helpers.js';
import { describeQueueContract } from '../contract.js';
import type { CrawlTask, IndexItem } from '../types.js';
import { openSqliteQueues } from './open.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-queue-'));
let n = 0;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeQueueContract('sqlite', async (options) => {
  n += 1;
  return openSqliteQueues({ path: join(dir, `q${n}.db`), pollIntervalMs: 20, leaseMs: 5000, ...options });
});

describe('sqlite index queue written by an earlier release', () => {
  it('delivers the documents it kept in index_queue.doc, and afterwards keeps none there', async () => {
    const path = join(dir, 'old-layout.db');
    const old = new Database(path);
    old.exec(`CREATE TABLE index_queue (
      id INTEGER PRIMARY KEY, doc TEXT NOT NULL, enqueued_at INTEGER NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0, not_before INTEGER NOT NULL DEFAULT 0,
      lease_until INTEGER, lease_owner TEXT, failed INTEGER NOT NULL DEFAULT 0)`);
    const waiting = [doc('http://a.test/1'), doc('http://a.test/2')];
    const insert = old.prepare('INSERT INTO index_queue (doc, enqueued_at, attempts, lease_until) VALUES (?, 0, ?, ?)');
    // The second was leased by a worker that died: its lease has expired, its attempt is counted.
    insert.run(JSON.stringify(waiting[0]), 0, null);
    insert.run(JSON.stringify(waiting[1]), 1, 1);
    old.close();

    const queues = openSqliteQueues({ path, pollIntervalMs: 20 });
    await queues.index.push([doc('http://a.test/3')]);
    const got: IndexItem[] = [];
    const worker = queues.index.work(async (batch) => void got.push(...batch), { batchSize: 10, maxWaitMs: 20 });
    await waitFor('three documents', () => got.length >= 3);
    await waitFor('an empty queue', async () => (await queues.index.stats()).waiting === 0);
    await worker.close();
    await queues.close();
    expect(got.slice(0, 2)).toEqual(waiting);

    const db = new Database(path, { readonly: true });
    const columns = db.prepare<[], { name: string }>('PRAGMA table_info(index_queue)').all();
    const left = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM index_queue_docs').get();
    db.close();
    expect(columns.map((c) => c.name)).not.toContain('doc');
    expect(left?.n).toBe(0);
  });
});

describe('sqlite index queue order', () => {
  it("delivers a page's items in the order pushed, a failed upsert's retry before a later removal", async () => {
    const queues = openSqliteQueues({ path: join(dir, 'index-order.db'), pollIntervalMs: 10, indexRetryDelayMs: 200 });
    const page = doc('http://a.test/page');
    const deliveries: string[] = [];
    let calls = 0;
    const worker = queues.index.work(
      async (batch) => {
        calls += 1;
        deliveries.push(...batch.map((item) => ('removed' in item ? 'remove' : 'upsert')));
        if (calls === 1) throw new Error('index write failed');
      },
      { batchSize: 10, maxWaitMs: 10 },
    );
    await queues.index.push([page]);
    await waitFor('the failed upsert', () => calls === 1);
    await queues.index.push([{ id: page.id, removed: true }]);
    await waitFor('an empty queue', async () => {
      const stats = await queues.index.stats();
      return stats.waiting === 0 && stats.active === 0 && calls >= 3;
    });
    await worker.close();
    await queues.close();
    // Before: upsert (failed), remove, upsert (the retry): the removed page came back.
    expect(deliveries).toEqual(['upsert', 'upsert', 'remove']);
  });
});

describe('sqlite crawl tasks that kill their process', () => {
  it('fails a task as crashed once every try was taken without an outcome, and leases the next', async () => {
    const path = join(dir, 'crashes.db');
    const seeding = openSqliteQueues({ path, hostDelayMs: 0, maxAttempts: 3 });
    await seeding.crawl.add([task('http://a.test/poison'), task('http://a.test/fine')]);
    await seeding.close();
    // As three processes left it, each killed while fetching it: three tries taken, leases expired.
    const db = new Database(path);
    db.prepare("UPDATE frontier SET attempt = 3 WHERE url = 'http://a.test/poison'").run();
    db.close();

    const queues = openSqliteQueues({ path, hostDelayMs: 0, pollIntervalMs: 10, maxAttempts: 3 });
    const handled: string[] = [];
    const worker = queues.crawl.work(
      async (t) => {
        handled.push(t.url);
        return { status: 'done' };
      },
      { concurrency: 1 },
    );
    await waitFor('the fine task', () => handled.length === 1);
    await waitFor('nothing left', async () => (await queues.crawl.stats()).queued === 0);
    await worker.close();
    const stats = await queues.crawl.stats();
    await queues.close();
    expect(handled).toEqual(['http://a.test/fine']);
    expect(stats.reasons).toContainEqual(expect.objectContaining({ state: 'failed', reason: 'crashed', count: 1 }));
  });
});

describe('sqlite host delays written by an earlier release', () => {
  it("no longer holds a host to the crawler's own delay an earlier release kept with it", async () => {
    const path = join(dir, 'old-delays.db');
    const seeding = openSqliteQueues({ path, hostDelayMs: 0 });
    await seeding.crawl.add([1, 2, 3].map((i) => task(`http://a.test/${i}`)));
    await seeding.close();
    // As an earlier release left it: the 5 s the crawler was set to then, kept with the host.
    const old = new Database(path);
    old.exec("UPDATE hosts SET delay_ms = 5000 WHERE host = 'a.test'; PRAGMA user_version = 0;");
    old.close();

    const queues = openSqliteQueues({ path, hostDelayMs: 0, pollIntervalMs: 10 });
    const starts: number[] = [];
    const worker = queues.crawl.work(
      async () => {
        starts.push(Date.now());
        return { status: 'done' };
      },
      { concurrency: 1 },
    );
    await waitFor('three tasks', () => starts.length === 3);
    await worker.close();
    await queues.close();
    const gaps = starts.slice(1).map((at, i) => at - (starts[i] ?? at));
    expect(Math.max(...gaps)).toBeLessThan(2_500);
  });
});

describe('sqlite crawl leases of a process that stalled', () => {
  it('does not hand a task out again to the process still running it when its lease ran out during a stall', async () => {
    // A stalled event loop (a suspended laptop, a long synchronous step) sends no heartbeat; when
    // it wakes the worker finds its own lease expired before the heartbeat renews it.
    const queues = openSqliteQueues({ path: join(dir, 'stall.db'), hostDelayMs: 0, pollIntervalMs: 10, leaseMs: 50 });
    await queues.crawl.add([task('http://a.test/slow')]);
    const calls: string[] = [];
    let finish = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const worker = queues.crawl.work(
      async (t) => {
        calls.push(t.url);
        if (calls.length === 1) {
          const until = Date.now() + 200;
          while (Date.now() < until) {
            // The stall: nothing else runs, the lease (50 ms) runs out.
          }
        }
        await finished;
        return { status: 'done' };
      },
      { concurrency: 2 },
    );
    await waitFor('the first call', () => calls.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    finish();
    await waitFor('the task done', async () => (await queues.crawl.stats()).done === 1);
    await worker.close();
    await queues.close();
    expect(calls).toEqual(['http://a.test/slow']);
  });
});

describe('sqlite host counts written by an earlier release', () => {
  it('counts the finished URLs of a file that kept none per host, once, and keeps counting them', async () => {
    const path = join(dir, 'no-host-counts.db');
    const before = openSqliteQueues({ path, pollIntervalMs: 20, hostDelayMs: 0 });
    await before.crawl.add(['http://a.test/1', 'http://a.test/2', 'http://b.test/gone'].map((u) => task(u)));
    const worker = before.crawl.work(
      async (t) => (t.url.endsWith('/gone') ? { status: 'failed', reason: 'http_404' } : { status: 'done' }),
      { concurrency: 2 },
    );
    await waitFor('three finished', async () => (await before.crawl.isIdle()) === true);
    await worker.close();
    await before.close();
    // The layout of releases before 2026-12-05: no finished counts in `hosts`, no host-reason index.
    const old = new Database(path);
    old.exec(`DROP INDEX frontier_host_reason;
      ALTER TABLE hosts DROP COLUMN done; ALTER TABLE hosts DROP COLUMN skipped;
      ALTER TABLE hosts DROP COLUMN failed; ALTER TABLE hosts DROP COLUMN finished_at;`);
    old.close();

    const queues = openSqliteQueues({ path, pollIntervalMs: 20, hostDelayMs: 0 });
    await queues.crawl.add([task('http://b.test/new')]);
    const { hosts } = await queues.crawl.hosts({ sort: 'done', limit: 10, offset: 0 });
    expect(hosts.map(({ host, queued, done, failed, reasons }) => ({ host, queued, done, failed, reasons }))).toEqual([
      { host: 'a.test', queued: 0, done: 2, failed: 0, reasons: [] },
      { host: 'b.test', queued: 1, done: 0, failed: 1, reasons: [{ state: 'failed', reason: 'http_404', count: 1 }] },
    ]);
    expect(hosts.every((h) => typeof h.lastFinishedMs === 'number')).toBe(true);
    const again = queues.crawl.work(async () => ({ status: 'done' }), { concurrency: 1 });
    await waitFor('the new URL finished', () => queues.crawl.isIdle());
    await again.close();
    const b = (await queues.crawl.hosts({ sort: 'done', limit: 10, offset: 0, q: 'b.test' })).hosts[0];
    expect(b).toMatchObject({ queued: 0, done: 1, failed: 1 });
    await queues.close();

    // The upgrade happened once: a count the file holds is not counted again when opened.
    const db = new Database(path);
    const indexes = db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index'").all();
    expect(indexes.map((i) => i.name)).toContain('frontier_host_reason');
    db.prepare("UPDATE hosts SET done = 7 WHERE host = 'a.test'").run();
    db.close();
    const reopened = openSqliteQueues({ path });
    const a = (await reopened.crawl.hosts({ sort: 'done', limit: 1, offset: 0 })).hosts[0];
    await reopened.close();
    expect(a).toMatchObject({ host: 'a.test', done: 7 });
  });
});

describe('sqlite crawl queue, a large add', () => {
  it('admits a sitemap-sized list in parts, letting the event loop run between them', async () => {
    const queues = openSqliteQueues({ path: join(dir, 'large-add.db'), pollIntervalMs: 20 });
    try {
      const urls = Array.from({ length: 5000 }, (_, i) => `http://big.test/p/${i}`);
      // Turns of the event loop while the add runs: none if it were one synchronous transaction.
      let turns = 0;
      let spinning = true;
      const spin = () => {
        if (!spinning) return;
        turns += 1;
        setImmediate(spin);
      };
      setImmediate(spin);
      // Each URL once, however many parts it falls in; a budget counted across the parts.
      const added = await queues.crawl.add([...urls, ...urls.slice(0, 600)].map((url) => task(url)));
      spinning = false;
      expect(added).toBe(5000);
      expect(turns).toBeGreaterThanOrEqual(5);
      expect((await queues.crawl.stats()).queued).toBe(5000);
      const budgeted = Array.from({ length: 1500 }, (_, i) =>
        task(`http://budget.test/p/${i}`, { maxPagesInScope: 1200 }),
      );
      expect(await queues.crawl.add(budgeted)).toBe(1200);
    } finally {
      await queues.close();
    }
  });
});

describe('sqlite forgotten sites written by an earlier release', () => {
  it('removes no pages of the sites it forgot (it did not record whether to), and records it for new ones', async () => {
    const path = join(dir, 'no-remove-pages.db');
    const before = openSqliteQueues({ path });
    await before.crawl.forget(['kept.test', 'removed.test']);
    await before.close();
    // The layout of releases before 2026-12-06: no `remove_pages`.
    const old = new Database(path);
    old.exec('ALTER TABLE forgotten_sites DROP COLUMN remove_pages');
    old.close();

    const queues = openSqliteQueues({ path });
    expect(await queues.crawl.forgotten()).toEqual(['kept.test', 'removed.test']);
    expect(await queues.crawl.forgottenRemovingPages()).toEqual([]);
    await queues.crawl.forget(['removed.test', 'new.test']);
    expect(await queues.crawl.forgottenRemovingPages()).toEqual(['new.test', 'removed.test']);
    await queues.close();
  });

  it('fetches whole, once unforgotten, the pages of the sites it forgot (it did not record whether all were kept)', async () => {
    const path = join(dir, 'no-pages-kept.db');
    const before = openSqliteQueues({ path, pollIntervalMs: 20 });
    const meta = { etag: '"v1"', indexed: '1' };
    await before.crawl.add([task('http://kept.test/1', { meta })]);
    const worker = before.crawl.work(async () => ({ status: 'done' }), { concurrency: 1 });
    await waitFor('the page crawled', async () => (await before.crawl.stats()).done === 1);
    await worker.close();
    await before.crawl.forget(['kept.test'], { keepPages: true });
    await before.close();
    // The layout of releases before 2026-12-07: no `pages_kept`.
    const old = new Database(path);
    old.exec('ALTER TABLE forgotten_sites DROP COLUMN pages_kept');
    old.close();

    const queues = openSqliteQueues({ path, pollIntervalMs: 20 });
    try {
      expect(await queues.crawl.unforget(['kept.test'])).toBe(1);
      const seen: CrawlTask[] = [];
      const again = queues.crawl.work(
        doneAfter((t) => seen.push(t)),
        { concurrency: 1 },
      );
      await waitFor('the page crawled again', () => seen.length === 1);
      await again.close();
      expect(seen[0]?.meta).toEqual({ indexed: '1' });
    } finally {
      await queues.close();
    }
  });
});
