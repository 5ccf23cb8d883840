import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from '@jest/globals';
import { describeQueueContract } from '../contract.js';
import { openSqliteQueues } from './open.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-queue-'));
let n = 0;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeQueueContract('sqlite', async (options) => {
  n += 1;
  return openSqliteQueues({ path: join(dir, `q${n}.db`), pollIntervalMs: 20, leaseMs: 5000, ...options });
});
