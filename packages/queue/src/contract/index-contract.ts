import { afterEach, expect, it } from '@jest/globals';
import { BackendUnavailableError } from '@quarry/core';
import type { CommonQueueOptions } from '../options.js';
import { type IndexItem, type IndexWorker, isRemoval, type Queues } from '../types.js';
import { doc, type OpenQueues, waitFor } from './helpers.js';

/** The index-queue half of the contract: batching, at-least-once redelivery, stats, close. */
export function describeIndexContract(open: OpenQueues): void {
  let queues: Queues | undefined;
  let workers: IndexWorker[] = [];
  const start = async (options: CommonQueueOptions = {}): Promise<Queues> => {
    queues = await open({ indexRetryDelayMs: 20, closeTimeoutMs: 2000, ...options });
    return queues;
  };

  afterEach(async () => {
    await Promise.all(workers.map((w) => w.close()));
    workers = [];
    await queues?.close();
    queues = undefined;
  });

  it('delivers every document in batches of at most batchSize', async () => {
    const { index } = await start();
    const docs = [1, 2, 3, 4, 5, 6, 7].map((n) => doc(`http://a.test/${n}`));
    await index.push(docs);
    expect((await index.stats()).waiting).toBe(7);
    const batches: IndexItem[][] = [];
    workers.push(index.work(async (batch) => void batches.push(batch), { batchSize: 3, maxWaitMs: 50 }));
    await waitFor('all documents', () => batches.flat().length >= 7);
    expect(Math.max(...batches.map((b) => b.length))).toBe(3);
    expect(
      batches
        .flat()
        .map((d) => d.id)
        .sort(),
    ).toEqual(docs.map((d) => d.id).sort());
    expect(batches.flat()[0]).toEqual(docs[0]);
    await waitFor('empty stats', async () => (await index.stats()).waiting + (await index.stats()).active === 0);
  });

  it('gives documents whose indexing failed for good one more attempt when asked', async () => {
    const { index } = await start({ indexMaxAttempts: 1 });
    await index.push([doc('http://a.test/1')]);
    let down = true;
    const got: IndexItem[] = [];
    workers.push(
      index.work(
        async (batch) => {
          if (down) throw new Error('the index is down');
          got.push(...batch);
        },
        { batchSize: 10, maxWaitMs: 20 },
      ),
    );
    await waitFor('a failed document', async () => (await index.stats()).failed === 1);
    down = false;
    expect(await index.retryFailed()).toBe(1);
    await waitFor('the document, delivered again', () => got.length === 1);
    expect(got[0]?.id).toBe(doc('http://a.test/1').id);
    expect((await index.stats()).failed).toBe(0);
    expect(await index.retryFailed()).toBe(0);
  });

  it('never fails a document for an outage of the index: the batch waits and comes back', async () => {
    const { index } = await start({ indexMaxAttempts: 1 });
    await index.push([doc('http://a.test/1')]);
    let outages = 0;
    const got: IndexItem[] = [];
    workers.push(
      index.work(
        async (batch) => {
          if (outages < 3) {
            outages += 1;
            throw new BackendUnavailableError('the index is down');
          }
          got.push(...batch);
        },
        { batchSize: 10, maxWaitMs: 20 },
      ),
    );
    await waitFor('the document, after three outages', () => got.length === 1);
    expect(outages).toBe(3);
    expect((await index.stats()).failed).toBe(0);
  });

  it("carries removals beside documents, each page's in the order they were pushed", async () => {
    const { index } = await start();
    const page = doc('http://a.test/1');
    await index.push([page]);
    await index.push([{ id: page.id, removed: true }, doc('http://a.test/2')]);
    const got: IndexItem[] = [];
    workers.push(index.work(async (batch) => void got.push(...batch), { batchSize: 10, maxWaitMs: 50 }));
    await waitFor('three items', () => got.length >= 3);
    const named = got.map((item) => (isRemoval(item) ? `removed:${item.id}` : item.url));
    expect(named.filter((name) => name !== 'http://a.test/2')).toEqual(['http://a.test/1', `removed:${page.id}`]);
    expect(named).toContain('http://a.test/2');
    expect(got.find((item) => !isRemoval(item) && item.url === page.url)).toEqual(page);
  });

  it('hands over a partial batch after maxWaitMs', async () => {
    const { index } = await start();
    const batches: { size: number; at: number }[] = [];
    workers.push(
      index.work(async (batch) => void batches.push({ size: batch.length, at: Date.now() }), {
        batchSize: 50,
        maxWaitMs: 150,
      }),
    );
    const pushedAt = Date.now();
    await index.push([doc('http://a.test/1'), doc('http://a.test/2')]);
    await waitFor('a batch', () => batches.length > 0, 5000);
    expect(batches[0]?.size).toBe(2);
    expect((batches[0]?.at ?? 0) - pushedAt).toBeLessThan(1500);
  });

  it('redelivers a batch whose handler rejected (at least once)', async () => {
    const { index } = await start();
    await index.push([doc('http://a.test/1'), doc('http://a.test/2')]);
    let calls = 0;
    const acked: string[] = [];
    workers.push(
      index.work(
        async (batch) => {
          calls += 1;
          if (calls === 1) throw new Error('index unavailable');
          acked.push(...batch.map((d) => (isRemoval(d) ? `removed:${d.id}` : d.url)));
        },
        { batchSize: 10, maxWaitMs: 20 },
      ),
    );
    await waitFor('both acknowledged', () => acked.length >= 2);
    expect(acked.sort()).toEqual(['http://a.test/1', 'http://a.test/2']);
    await waitFor('empty stats', async () => {
      const s = await index.stats();
      return s.waiting === 0 && s.active === 0;
    });
    expect((await index.stats()).failed).toBe(0);
  });

  it('counts documents as failed after indexMaxAttempts deliveries', async () => {
    const { index } = await start({ indexMaxAttempts: 2 });
    await index.push([doc('http://a.test/poison')]);
    let calls = 0;
    workers.push(
      index.work(
        async () => {
          calls += 1;
          throw new Error('bad document');
        },
        { batchSize: 10, maxWaitMs: 10 },
      ),
    );
    await waitFor('failed', async () => (await index.stats()).failed === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toBe(2);
    expect(await index.stats()).toEqual({ waiting: 0, active: 0, failed: 1 });
  });

  it('close waits for the batch in hand and then stops delivering', async () => {
    const { index } = await start();
    await index.push([doc('http://a.test/1')]);
    let finished = 0;
    const worker = index.work(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        finished += 1;
      },
      { batchSize: 1, maxWaitMs: 10 },
    );
    await waitFor('active', async () => (await index.stats()).active === 1);
    await worker.close();
    expect(finished).toBe(1);
    await index.push([doc('http://a.test/2')]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(finished).toBe(1);
    expect((await index.stats()).waiting).toBe(1);
  });
}
