import type { BullmqQueueOptions } from './bullmq/open.js';
import type { Queues } from './types.js';

export type { BullmqQueueOptions } from './bullmq/open.js';

/**
 * Opens the distributed crawl and index queues on Redis (see bullmq/open.ts). BullMQ and ioredis
 * load with the first call: a process on the embedded queues never loads them (about 0.4 s of
 * start-up and 20 MB).
 *
 * @example const queues = await openBullmqQueues({ redisUrl: 'redis://127.0.0.1:6379', hostDelayMs: 1000 });
 */
export async function openBullmqQueues(options: BullmqQueueOptions): Promise<Queues> {
  const { openBullmqQueues: open } = await import('./bullmq/open.js');
  return open(options);
}
