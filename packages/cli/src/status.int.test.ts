import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openSqliteQueues } from '@quarry/queue';
import { requireBuiltCli, runCli } from './testing/run-cli.js';

/** Failure reasons of the crawl below: two more than the ten the stats list a state. */
const FAILURE_REASONS = 12;

describe('quarry status with more reasons than it lists', () => {
  let dir: string;
  const quarry = (args: string[]) => runCli(args, { QUARRY_DATA_DIR: dir, LOG_LEVEL: 'silent' });

  beforeAll(async () => {
    requireBuiltCli();
    dir = mkdtempSync(join(tmpdir(), 'quarry-status-'));
    // A crawl's ends written by the real embedded queue in the data dir, without a network.
    const queues = openSqliteQueues({ path: join(dir, 'queue.db'), hostDelayMs: 0, pollIntervalMs: 10 });
    try {
      const urls = Array.from({ length: FAILURE_REASONS }, (_, n) => `https://example.org/f${n}`);
      await queues.crawl.add(
        urls.map((url) => ({ url, depth: 0, scope: 'example.org', seed: 'https://example.org/' })),
      );
      const worker = queues.crawl.work(
        async (task) => ({ status: 'failed', reason: `http_${400 + urls.indexOf(task.url)}` }),
        { concurrency: 4 },
      );
      const deadline = Date.now() + 10_000;
      while (!(await queues.crawl.isIdle()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await worker.close();
    } finally {
      await queues.close();
    }
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts the URLs of the reasons it does not list, so its rows add up to the failed count', async () => {
    const text = await quarry(['status']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`0 skipped, ${FAILURE_REASONS} failed`);
    const failed = text.stdout.slice(text.stdout.indexOf('failed, by reason:')).split('\n').slice(1, -1);
    expect(failed).toHaveLength(11);
    expect(failed.at(-1)).toBe('        2  other reasons');
    const counts = failed.map((line) => Number(line.trim().split(/\s+/)[0]));
    expect(counts.reduce((total, n) => total + n, 0)).toBe(FAILURE_REASONS);

    const json = JSON.parse((await quarry(['status', '--json'])).stdout);
    expect(json.crawl.failed).toBe(FAILURE_REASONS);
    expect(json.crawl.reasons).toHaveLength(10);
    expect(json.otherReasons).toEqual({ skipped: 0, failed: 2 });
  }, 120_000);
});
