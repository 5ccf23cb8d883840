import { describe, expect, it } from '@jest/globals';
import { NonRetryableError } from '@quarry/core';
import { runWorker, WorkerSlots } from './run-worker.js';

const budget = { timeoutMs: 2_000, maxHeapMb: 64 };
const reply = (body: string): string => `const { parentPort, workerData } = require('node:worker_threads'); ${body}`;

describe('runWorker', () => {
  it('resolves with what the worker posts', async () => {
    const script = reply('parentPort.postMessage({ ok: true, result: workerData.n * 2 });');
    await expect(runWorker<number>(script, { n: 21 }, budget, { eval: true })).resolves.toBe(42);
  });

  it('rejects with the code the worker reports', async () => {
    const script = reply(
      "parentPort.postMessage({ ok: false, error: { code: 'document_unreadable', message: 'bad' } });",
    );
    await expect(runWorker(script, null, budget, { eval: true })).rejects.toMatchObject({
      code: 'document_unreadable',
      message: 'bad',
    });
  });

  it('terminates a worker stuck in a synchronous loop at the timeout', async () => {
    const started = Date.now();
    const error = await runWorker(reply('for (;;) {}'), null, { ...budget, timeoutMs: 300 }, { eval: true }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NonRetryableError);
    expect((error as NonRetryableError).code).toBe('document_timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('turns a heap blow-up into document_too_large', async () => {
    const script = reply('const keep = []; for (;;) keep.push({ a: Math.random(), b: [1, 2, 3] });');
    const error = await runWorker(script, null, { timeoutMs: 20_000, maxHeapMb: 32 }, { eval: true }).catch(
      (e: unknown) => e,
    );
    expect((error as NonRetryableError).code).toBe('document_too_large');
  });

  it('treats a worker that exits without answering as unreadable', async () => {
    await expect(runWorker(reply('process.exit(3);'), null, budget, { eval: true })).rejects.toMatchObject({
      code: 'document_unreadable',
    });
  });
});

describe('runWorker with slots', () => {
  it('runs no more workers at once than the slots, the others after them in turn', async () => {
    // Each worker counts itself in, then waits (up to 1 s) for all four to be in at once: with two
    // slots they never are, so the highest count seen is the number that ran together.
    const shared = new Int32Array(new SharedArrayBuffer(8));
    const script = reply(`
      const counts = workerData.shared;
      const now = Atomics.add(counts, 0, 1) + 1;
      let high = Atomics.load(counts, 1);
      while (now > high && Atomics.compareExchange(counts, 1, high, now) !== high) high = Atomics.load(counts, 1);
      const until = Date.now() + 1000;
      while (Atomics.load(counts, 0) < 4 && Date.now() < until) Atomics.wait(counts, 0, Atomics.load(counts, 0), 50);
      Atomics.sub(counts, 0, 1);
      Atomics.notify(counts, 0);
      parentPort.postMessage({ ok: true, result: workerData.n });`);
    const slots = new WorkerSlots(2);
    const runs = [1, 2, 3, 4].map((n) => runWorker<number>(script, { shared, n }, budget, { eval: true, slots }));
    await expect(Promise.all(runs)).resolves.toEqual([1, 2, 3, 4]);
    expect(shared[1]).toBe(2);
  });

  it('gives a slot back when its worker fails', async () => {
    const slots = new WorkerSlots(1);
    const failing = runWorker(reply('process.exit(3);'), null, budget, { eval: true, slots });
    await expect(failing).rejects.toMatchObject({ code: 'document_unreadable' });
    const script = reply('parentPort.postMessage({ ok: true, result: 7 });');
    await expect(runWorker<number>(script, null, budget, { eval: true, slots })).resolves.toBe(7);
  });
});
