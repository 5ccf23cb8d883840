// Test child: works an embedded crawl queue and hangs on URLs ending in /hang, so that the test can
// SIGKILL it mid-task; with `index`, works the index queue too and hangs on its first batch.
// Usage: node --import register-ts.mjs sqlite-crash-child.ts DB_PATH [LEASE_MS] [index]
import { openSqliteQueues } from '../index.js';

const [path, leaseArg, mode] = process.argv.slice(2);
if (path === undefined) throw new Error('usage: sqlite-crash-child.ts DB_PATH [LEASE_MS] [index]');
const leaseMs = leaseArg === undefined || leaseArg === 'default' ? undefined : Number(leaseArg);
const queues = openSqliteQueues({ path, hostDelayMs: 0, pollIntervalMs: 10, ...(leaseMs ? { leaseMs } : {}) });
queues.crawl.work(
  async (task) => {
    if (task.url.endsWith('/hang')) {
      process.stdout.write(`hang ${task.url}\n`);
      await new Promise(() => {});
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Said once the task's outcome is recorded (the queue settles it before it takes the next).
    setTimeout(() => process.stdout.write(`done ${task.url}\n`), 50);
    return { status: 'done' };
  },
  { concurrency: 2 },
);
if (mode === 'index') {
  queues.index.work(
    async (items) => {
      process.stdout.write(`hang index ${items.length}\n`);
      await new Promise(() => {});
    },
    { maxWaitMs: 1 },
  );
}
