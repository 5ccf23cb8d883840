// Test child: works an embedded crawl queue and hangs on URLs ending in /hang, so that the test can
// SIGKILL it mid-task. Usage: node --import register-ts.mjs sqlite-crash-child.ts DB_PATH
import { openSqliteQueues } from '../index.js';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: sqlite-crash-child.ts DB_PATH');
const queues = openSqliteQueues({ path, hostDelayMs: 0, leaseMs: 300, pollIntervalMs: 10 });
queues.crawl.work(
  async (task) => {
    if (task.url.endsWith('/hang')) {
      process.stdout.write(`hang ${task.url}\n`);
      await new Promise(() => {});
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { status: 'done' };
  },
  { concurrency: 2 },
);
