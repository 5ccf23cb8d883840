// Test child: one crawler process on a shared Redis. It records every handler start and completion
// (with its worker's name) in Redis and hangs on the first try of any URL ending in /hang (on every
// try with HANG 'always'), so the test can SIGKILL it there.
// Usage: node --import register-ts.mjs bullmq-worker-child.ts REDIS_URL PREFIX NAME [first|always]
import { Redis } from 'ioredis';
import { openBullmqQueues } from '../index.js';

const [redisUrl, prefix, name, hang = 'first'] = process.argv.slice(2);
if (redisUrl === undefined || prefix === undefined || name === undefined) {
  throw new Error('usage: bullmq-worker-child.ts REDIS_URL PREFIX NAME [first|always]');
}
const log = new Redis(redisUrl);
const queues = await openBullmqQueues({ redisUrl, prefix, hostDelayMs: 100, lockMs: 1000, stalledIntervalMs: 300 });
const worker = queues.crawl.work(
  async (task) => {
    const host = new URL(task.url).hostname;
    await log.rpush(`${prefix}:test:starts`, JSON.stringify({ url: task.url, host, at: Date.now(), worker: name }));
    const hangs =
      task.url.endsWith('/hang') && (hang === 'always' || (await log.set(`${prefix}:test:hung`, name, 'NX')) === 'OK');
    if (hangs) {
      process.stdout.write(`hang ${task.url}\n`);
      await new Promise(() => {});
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    await log.rpush(`${prefix}:test:done`, JSON.stringify({ url: task.url, worker: name }));
    return { status: 'done' };
  },
  { concurrency: 4 },
);
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void worker
    .close()
    .then(() => queues.close())
    .then(() => log.quit())
    .finally(() => process.exit(0));
});
