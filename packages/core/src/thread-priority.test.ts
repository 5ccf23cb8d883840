import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from '@jest/globals';
import { threadNice, workerPriority } from './thread-priority.js';
import { builtModuleUrl } from './worker-pool.js';

const linux = process.platform === 'linux' && existsSync('/proc/thread-self/stat');
const built = builtModuleUrl(import.meta.url, 'thread-priority.js');

/** What a worker thread reports after lowering its own priority to each of `nices` in turn (the built module). */
function inWorker(...nices: number[]): Promise<{ lowered: boolean[]; nice: number }> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(workerData.url).then((m) => {
      const lowered = workerData.nices.map((nice) => m.lowerThreadPriority(nice));
      parentPort.postMessage({ lowered, nice: m.threadNice() });
    });`;
  const worker = new Worker(code, { eval: true, workerData: { url: built.href, nices } });
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

  it('reads QUARRY_WORKER_PRIORITY, keeping the default for values out of 0–19', () => {
    delete process.env.QUARRY_WORKER_PRIORITY;
    expect(workerPriority()).toBe(10);
    for (const [set, expected] of [
      ['0', 0],
      ['5', 5],
      ['19', 19],
      ['20', 10],
      ['-3', 10],
      ['2.5', 10],
      ['high', 10],
    ] as const) {
      process.env.QUARRY_WORKER_PRIORITY = set;
      expect(workerPriority()).toBe(expected);
    }
  });

  (linux ? it : it.skip)('lowers the calling thread alone, and never raises it', async () => {
    const before = threadNice();
    const low = Math.max(before, 7);
    expect(await inWorker(low)).toEqual({ lowered: [true], nice: low });
    // The main thread keeps its own.
    expect(threadNice()).toBe(before);
    // Asking a thread already lower for a higher priority leaves it low; 0 asks nothing.
    expect(await inWorker(low, low - 4)).toEqual({ lowered: [true, true], nice: low });
    expect(await inWorker(0)).toEqual({ lowered: [false], nice: before });
  });
});
