import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { describeWithServer, type RedisServer, startRedis } from '@quarry/testkit';
import { openBullmqQueues } from './bullmq/open.js';
import { openSqliteQueues } from './sqlite/open.js';
import type { Queues } from './types.js';

/** The holder of a text outlives the process: a restarted crawler still stores the text once. */
async function survivesReopen(open: () => Promise<Queues>): Promise<void> {
  const first = await open();
  await first.fingerprints.claim('fp-1', { url: 'http://a.test/index.html', canonical: false });
  await first.fingerprints.claim('fp-1', { url: 'http://a.test/', canonical: false });
  await first.close();
  const second = await open();
  try {
    expect(await second.fingerprints.holder('fp-1')).toBe('http://a.test/');
    expect(await second.fingerprints.claim('fp-1', { url: 'http://a.test/index.html', canonical: false })).toEqual({
      owner: 'http://a.test/',
      replaced: null,
    });
  } finally {
    await second.close();
  }
}

describe('fingerprints across restarts: sqlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-fp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the holder of each text in the database file', async () => {
    await survivesReopen(async () => openSqliteQueues({ path: join(dir, 'queue.db') }));
  });
});

describeWithServer('redis', 'fingerprints across restarts: bullmq', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('keeps the holder of each text in Redis', async () => {
    await survivesReopen(() => openBullmqQueues({ redisUrl: redis.url, prefix: 'fp-restart' }));
  });
});
