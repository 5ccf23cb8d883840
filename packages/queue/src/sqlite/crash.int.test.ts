import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { doc, doneAfter, task, waitFor, waitIdle } from '../contract/helpers.js';
import type { CrawlTask, IndexItem } from '../types.js';
import { openSqliteQueues } from './open.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-queue-crash-'));
const register = fileURLToPath(new URL('../testing/register-ts.mjs', import.meta.url));
const child = fileURLToPath(new URL('../testing/sqlite-crash-child.ts', import.meta.url));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sqlite queue after SIGKILL', () => {
  it('loses nothing: expired leases are requeued and done URLs are never fetched again', async () => {
    const path = join(dir, 'queue.db');
    const urls = [...Array.from({ length: 9 }, (_, i) => `http://h${i}.test/page`), 'http://z.test/hang'];
    const seeding = openSqliteQueues({ path, hostDelayMs: 0 });
    expect(await seeding.crawl.add(urls.map((u) => task(u)))).toBe(10);
    await seeding.close();

    const proc = spawn(process.execPath, ['--import', register, child, path, '300'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
    await waitFor('the child to hang mid-task', () => output.includes('hang http://z.test/hang'), 15_000);
    proc.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const queues = openSqliteQueues({ path, hostDelayMs: 0, leaseMs: 300, pollIntervalMs: 10 });
    try {
      const before = await queues.crawl.stats();
      expect(before.inFlight).toBeGreaterThanOrEqual(1);
      expect(before.done + before.inFlight + before.queued).toBe(10);
      const calls: CrawlTask[] = [];
      const worker = queues.crawl.work(
        doneAfter((t) => calls.push(t)),
        { concurrency: 4 },
      );
      await waitIdle(queues.crawl);
      await worker.close();
      expect(calls).toHaveLength(10 - before.done);
      expect(new Set(calls.map((c) => c.url)).size).toBe(calls.length);
      expect(calls.find((c) => c.url === 'http://z.test/hang')?.attempt).toBe(2);
      expect(await queues.crawl.stats()).toMatchObject({ done: 10, queued: 0, inFlight: 0, failed: 0 });
      expect(await queues.crawl.add(urls.map((u) => task(u)))).toBe(0);
    } finally {
      await queues.close();
    }
  });

  it('takes up at once what a killed process of this machine left leased, not a lease (60 s) later', async () => {
    const path = join(dir, 'queue-default-lease.db');
    const seeding = openSqliteQueues({ path, hostDelayMs: 0 });
    await seeding.crawl.add([task('http://a.test/page'), task('http://z.test/hang')]);
    await seeding.index.push([doc('http://a.test/one'), doc('http://a.test/two')]);
    await seeding.close();

    // The default lease, as `quarry crawl --wait` has: a crawl killed and started again waited a
    // minute for the tasks the dead process held, showing them in flight.
    const proc = spawn(process.execPath, ['--import', register, child, path, 'default', 'index'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
    await waitFor('the child to hang mid-task', () => /hang http:\/\/z\.test\/hang/.test(output), 15_000);
    await waitFor('the child to hang mid-batch', () => output.includes('hang index 2'), 15_000);
    await waitFor('the child to finish its other task', () => output.includes('done http://a.test/page'), 15_000);
    proc.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const queues = openSqliteQueues({ path, hostDelayMs: 0, pollIntervalMs: 10 });
    try {
      expect(await queues.crawl.stats()).toMatchObject({ inFlight: 1, done: 1 });
      expect(await queues.index.stats()).toMatchObject({ active: 2 });
      const calls: CrawlTask[] = [];
      const indexed: IndexItem[] = [];
      const crawler = queues.crawl.work(
        doneAfter((t) => calls.push(t)),
        { concurrency: 2 },
      );
      const indexer = queues.index.work(
        async (items) => {
          indexed.push(...items);
        },
        { maxWaitMs: 1 },
      );
      await waitIdle(queues.crawl, 15_000);
      await waitFor('the batch delivered again', () => indexed.length === 2, 15_000);
      await Promise.all([crawler.close(), indexer.close()]);
      expect(calls.map((c) => [c.url, c.attempt])).toEqual([['http://z.test/hang', 2]]);
      expect(await queues.index.stats()).toMatchObject({ waiting: 0, active: 0, failed: 0 });
    } finally {
      await queues.close();
    }
  });
});
