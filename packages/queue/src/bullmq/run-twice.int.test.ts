import { expect, it } from '@jest/globals';
import { describeWithServer } from '@quarry/testkit';
import { task, waitFor, waitIdle } from '../contract/helpers.js';
import { useTestRedis } from '../testing/test-redis.js';
import type { CrawlHandler } from '../types.js';
import { urlHash } from './crawl-state.js';

/**
 * A job whose lock lapsed while its first run went on (an outage longer than the lock: the run
 * could not renew it) is moved back to the queue by BullMQ and run again. Deleting the lock makes
 * that happen at once, as after an outage with Redis's data kept.
 */
describeWithServer('redis', 'bullmq: a job run twice counts its URL once', () => {
  const redis = useTestRedis();
  const url = 'http://a.test/slow';
  const jobKey = (prefix: string) => `${prefix}:crawl:u${urlHash(url).toString('base64url')}`;

  /** A handler whose first run waits for `release`; every run is counted in `runs`. */
  const slowFirstRun = () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const state = { runs: 0, release };
    const handler: CrawlHandler = async () => {
      if (++state.runs === 1) await released;
      return { status: 'done' };
    };
    return { state, handler };
  };

  it('a second run that ends first is counted, the first run ending after it is not', async () => {
    const queues = await redis.open('twice1');
    const { state, handler } = slowFirstRun();
    // No politeness slot: both runs go at once, as when the host's slot lease has lapsed too.
    const worker = queues.crawl.work(handler, { concurrency: 2, needsNoRequest: () => true });
    try {
      await queues.crawl.add([task(url)]);
      await waitFor('the first run', () => state.runs === 1);
      await redis.client.del(`${jobKey('twice1')}:lock`);
      await waitFor('the second run', () => state.runs === 2, 5_000);
      await waitFor('the second run recorded', async () => (await queues.crawl.stats()).done === 1);
      state.release();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const stats = await queues.crawl.stats();
      expect(stats).toMatchObject({ done: 1, failed: 0, skipped: 0 });
      const hosts = await queues.crawl.hosts({ sort: 'done', limit: 10, offset: 0 });
      expect(hosts.hosts[0]).toMatchObject({ host: 'a.test', done: 1, queued: 0 });
    } finally {
      state.release();
      await worker.close();
      await queues.close();
    }
  });

  it('a run of a job whose URL finished meanwhile ends without calling the handler', async () => {
    const queues = await redis.open('twice2');
    const { state, handler } = slowFirstRun();
    // One at a time: the second run starts once the first has ended.
    const worker = queues.crawl.work(handler, { concurrency: 1 });
    try {
      await queues.crawl.add([task(url)]);
      await waitFor('the first run', () => state.runs === 1);
      await redis.client.del(`${jobKey('twice2')}:lock`);
      // BullMQ counts the stall as it moves the job back.
      await waitFor('the job moved back', async () => Number(await redis.client.hget(jobKey('twice2'), 'stc')) >= 1);
      state.release();
      await waitFor('the URL recorded', async () => (await queues.crawl.stats()).done === 1);
      await waitIdle(queues.crawl);
      expect(state.runs).toBe(1);
      expect(await queues.crawl.stats()).toMatchObject({ done: 1, failed: 0, skipped: 0 });
    } finally {
      state.release();
      await worker.close();
      await queues.close();
    }
  });
});
