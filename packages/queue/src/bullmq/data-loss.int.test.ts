import { expect, it } from '@jest/globals';
import { describeWithServer, startRedis } from '@quarry/testkit';
import { task, waitFor } from '../contract/helpers.js';
import type { Queues } from '../types.js';
import { openBullmqQueues } from './open.js';

const LOST = /^Redis lost the crawl state \(noticed \d{4}-\d\d-\d\dT[\d:]+Z\): the URLs queued before are gone/;

describeWithServer('redis', 'bullmq: a Redis that comes back empty', () => {
  /** Queues on `url` whose errors and ready connections are counted. */
  const open = async (url: string, prefix: string) => {
    const seen = { errors: [] as string[], ready: 0 };
    const queues: Queues = await openBullmqQueues({
      redisUrl: url,
      prefix,
      onError: (err) => seen.errors.push(err instanceof Error ? err.message : String(err)),
      onReady: () => seen.ready++,
    });
    return { queues, seen };
  };

  it('is noticed by the processes that had it open, said in words with the remedy, and shown to the next', async () => {
    const server = await startRedis();
    const opened: Queues[] = [];
    try {
      const { queues, seen } = await open(server.url, 'lost');
      opened.push(queues);
      await queues.crawl.add([task('http://a.test/1'), task('http://a.test/2')]);
      expect((await queues.notices?.()) ?? []).toEqual([]);

      await server.restart(); // Without persistence: empty.
      // Before, the queues reconnected as if nothing had happened: 0 queued, nothing said.
      await waitFor(
        'the loss noticed',
        () => seen.errors.some((e) => e.startsWith('Redis lost the crawl state')),
        20_000,
      );
      expect(seen.errors.find((e) => e.startsWith('Redis lost'))).toMatch(
        /queue the seeds again \(quarry crawl --seeds/,
      );
      expect(await queues.notices?.()).toEqual([expect.stringMatching(LOST)]);
      // Another process (quarry status) opened after it sees the note.
      const later = await open(server.url, 'lost');
      opened.push(later.queues);
      expect(await later.queues.notices?.()).toEqual([expect.stringMatching(LOST)]);
      expect(later.seen.errors).toEqual([]);
    } finally {
      await Promise.all(opened.map((q) => q.close()));
      await server.stop();
    }
  }, 60_000);

  it('a restart that keeps the data is no loss', async () => {
    const server = await startRedis({ appendOnly: true });
    const { queues, seen } = await open(server.url, 'kept');
    try {
      await queues.crawl.add([task('http://a.test/1')]);
      const ready = seen.ready;
      await server.restart();
      await waitFor('the connection ready again', () => seen.ready > ready, 20_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(seen.errors.filter((e) => e.startsWith('Redis lost'))).toEqual([]);
      expect((await queues.notices?.()) ?? []).toEqual([]);
      expect((await queues.crawl.stats()).queued).toBe(1);
    } finally {
      await queues.close();
      await server.stop();
    }
  }, 60_000);
});
