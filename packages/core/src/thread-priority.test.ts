import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from '@jest/globals';
import { ConfigError } from './config.js';
import { threadNice, workerPriority } from './thread-priority.js';
import { builtModuleUrl } from './worker-pool.js';

const linux = process.platform === 'linux' && existsSync('/proc/thread-self/stat');
const built = builtModuleUrl(import.meta.url, 'thread-priority.js');

/**
 * What a worker thread reports after lowering its own priority to each of `nices` in turn (the built
 * module), or to its default (`lowerThreadPriority()`), in an environment of its own when `env` is given.
 */
function inWorker(
  nices: readonly number[] | 'default',
  env?: Record<string, string>,
): Promise<{ lowered: boolean[]; nice: number }> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(workerData.url).then((m) => {
      const nices = workerData.nices;
      const lowered = nices === 'default' ? [m.lowerThreadPriority()] : nices.map((nice) => m.lowerThreadPriority(nice));
      parentPort.postMessage({ lowered, nice: m.threadNice() });
    });`;
  const worker = new Worker(code, { eval: true, workerData: { url: built.href, nices }, ...(env ? { env } : {}) });
  return new Promise((resolve, reject) => {
    worker.once('message', (message) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

describe('worker thread priority', () => {
  const saved = process.env.QUARRY_WORKER_PRIORITY;
  afterEach(() => {
    if (saved === undefined) delete process.env.QUARRY_WORKER_PRIORITY;
    else process.env.QUARRY_WORKER_PRIORITY = saved;
  });

  it('reads QUARRY_WORKER_PRIORITY as the configuration does: empty is the default, a bad value an error', () => {
    delete process.env.QUARRY_WORKER_PRIORITY;
    expect(workerPriority()).toBe(10);
    // Number('') was 0: an empty value turned the lowering off instead of meaning the default.
    for (const [set, expected] of [
      ['', 10],
      ['0', 0],
      ['5', 5],
      ['19', 19],
    ] as const) {
      process.env.QUARRY_WORKER_PRIORITY = set;
      expect(workerPriority()).toBe(expected);
    }
    // Each once passed silently for the default 10.
    for (const set of ['20', '-3', '2.5', 'high', ' ']) {
      process.env.QUARRY_WORKER_PRIORITY = set;
      expect(() => workerPriority()).toThrow(ConfigError);
      expect(() => workerPriority()).toThrow(`QUARRY_WORKER_PRIORITY=${JSON.stringify(set)}: expected`);
    }
    expect(workerPriority({ QUARRY_WORKER_PRIORITY: '7' })).toBe(7);
  });

  (linux ? it : it.skip)('lowers a worker thread whose QUARRY_WORKER_PRIORITY is empty to the default', async () => {
    const before = threadNice();
    expect(await inWorker('default', { QUARRY_WORKER_PRIORITY: '' })).toEqual({
      lowered: [true],
      nice: Math.max(before, 10),
    });
  });

  (linux ? it : it.skip)('lowers the calling thread alone, and never raises it', async () => {
    const before = threadNice();
    const low = Math.max(before, 7);
    expect(await inWorker([low])).toEqual({ lowered: [true], nice: low });
    // The main thread keeps its own.
    expect(threadNice()).toBe(before);
    // Asking a thread already lower for a higher priority leaves it low; 0 asks nothing.
    expect(await inWorker([low, low - 4])).toEqual({ lowered: [true, true], nice: low });
    expect(await inWorker([0])).toEqual({ lowered: [false], nice: before });
  });
});
