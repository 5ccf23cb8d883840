import { expect, it } from '@jest/globals';
import { describeWithServer } from '@quarry/testkit';
import { UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { task, waitFor, waitIdle } from '../contract/helpers.js';
import { useTestRedis } from '../testing/test-redis.js';
import { startWorkerChild } from '../testing/worker-children.js';
import type { Queues } from '../types.js';
import { STALLED_TOO_OFTEN } from './crashed.js';
import { QUEUE_NAME } from './crawl-state.js';

describeWithServer('redis', 'bullmq: a job BullMQ fails on its own is recorded as failed crashed', () => {
  const redis = useTestRedis();
  const url = 'http://a.test/hang';

  /** What status and a re-seed see of the URL: failed `crashed`, and queued again by the re-seed. */
  const expectCrashedAndRequeued = async (queues: Queues) => {
    const stats = await queues.crawl.stats();
    expect(stats).toMatchObject({ queued: 0, inFlight: 0, done: 0, failed: 1 });
    expect(stats.reasons).toEqual([{ state: 'failed', reason: 'crashed', count: 1, examples: [url] }]);
    const { hosts } = await queues.crawl.hosts({ sort: 'failed', limit: 1, offset: 0 });
    expect(hosts[0]).toMatchObject({ host: 'a.test', queued: 0, failed: 1, reasons: [{ reason: 'crashed' }] });
    expect(await queues.crawl.requeue([url], ['failed'])).toEqual([
      { url, state: 'failed', reason: 'crashed', requeued: true, meta: {} },
    ]);
  };

  it('a page whose process was killed on each of its tries: counted, with its reason, and seedable again', async () => {
    const prefix = 'crash1';
    const queues = await redis.open(prefix);
    const children = [];
    try {
      await queues.crawl.add([task(url)]);
      // Three tries, each ended by kill -9 (the children's lock is 1 s, checked every 0.3 s).
      for (const name of ['w1', 'w2', 'w3']) {
        const child = startWorkerChild(redis.url, prefix, name, { hang: 'always' });
        children.push(child);
        await waitFor(`${name} to hang`, () => child.output.includes('hang '), 20_000);
        child.proc.kill('SIGKILL');
        await child.exited;
      }
      // The next worker fails the job for BullMQ (stalled more than twice) and records it; it hangs on no URL.
      await redis.client.set(`${prefix}:test:hung`, 'test');
      const last = startWorkerChild(redis.url, prefix, 'w4');
      children.push(last);
      await waitFor('the URL recorded', async () => (await queues.crawl.stats()).failed === 1, 20_000);
      await expectCrashedAndRequeued(queues);
      await waitFor('the URL crawled again', async () => (await queues.crawl.stats()).done === 1, 20_000);
      expect(await queues.crawl.stats()).toMatchObject({ queued: 0, done: 1, failed: 0, reasons: [] });
    } finally {
      for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGTERM');
      await Promise.all(children.map((c) => c.exited));
      await queues.close();
    }
  }, 90_000);

  it('one failed while no worker was looking is recorded by the next worker to start, once', async () => {
    const prefix = 'crash2';
    const queues = await redis.open(prefix);
    try {
      await queues.crawl.add([task(url)]);
      // As a process killed right after BullMQ failed the job would leave it (or a release before
      // this one): failed in BullMQ's failed set, the URL recorded nowhere.
      const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
      const bare = new Worker(
        QUEUE_NAME,
        async () => {
          throw new UnrecoverableError(STALLED_TOO_OFTEN);
        },
        { connection, prefix },
      );
      await waitFor('the job failed', async () => (await queues.bullQueues?.[0]?.getFailedCount()) === 1);
      await bare.close();
      connection.disconnect();
      expect(await queues.crawl.stats()).toMatchObject({ queued: 0, inFlight: 0, failed: 0 });

      const crawled: string[] = [];
      const worker = queues.crawl.work(
        async (t) => {
          crawled.push(t.url);
          return { status: 'done' };
        },
        { concurrency: 1 },
      );
      try {
        await waitFor('the URL recorded', async () => (await queues.crawl.stats()).failed === 1);
        await expectCrashedAndRequeued(queues);
        await waitIdle(queues.crawl);
        // The old failed job stays in BullMQ's failed set; later sweeps do not fail the URL again.
        await new Promise((resolve) => setTimeout(resolve, 1_200));
        expect(crawled).toEqual([url]);
        expect(await queues.crawl.stats()).toMatchObject({ done: 1, failed: 0, reasons: [] });
        expect(await queues.bullQueues?.[0]?.getFailedCount()).toBe(1);
      } finally {
        await worker.close();
      }
    } finally {
      await queues.close();
    }
  });
});
