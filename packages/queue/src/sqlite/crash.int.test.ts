import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { doneAfter, task, waitFor, waitIdle } from '../contract/helpers.js';
import type { CrawlTask } from '../types.js';
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

    const proc = spawn(process.execPath, ['--import', register, child, path], { stdio: ['ignore', 'pipe', 'inherit'] });
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
});
