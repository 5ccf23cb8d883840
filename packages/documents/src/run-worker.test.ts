import { describe, expect, it } from '@jest/globals';
import { NonRetryableError } from '@quarry/core';
import { runWorker } from './run-worker.js';

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
