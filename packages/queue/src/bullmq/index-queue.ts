import { randomUUID } from 'node:crypto';
import { type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { DEFAULTS } from '../options.js';
import { isIndexOutage } from '../policy.js';
import { isRedisOutOfMemoryError } from '../redis-memory.js';
import {
  type IndexItem,
  type IndexQueue,
  type IndexStats,
  type IndexWorker,
  type IndexWorkOptions,
  isRemoval,
} from '../types.js';
import { indexRetryDelayMs, settlesWithin, sleep } from '../util.js';
import type { BullmqCrawlSettings } from './crawl-state.js';
import { MemoryWait } from './memory-wait.js';

/** Settings of the distributed index queue. */
export interface BullmqIndexSettings extends BullmqCrawlSettings {
  readonly pollIntervalMs: number;
}

const QUEUE_NAME = 'index';

/**
 * The distributed index queue: one BullMQ job per document, fetched manually in batches so that
 * documents from many crawler processes are indexed together. Completed jobs are removed at once
 * (documents are large); failed ones are kept up to `keepFailedJobs`.
 */
export class BullmqIndexQueue implements IndexQueue {
  readonly #redis: Redis;
  readonly #settings: BullmqIndexSettings;
  readonly #queue: Queue<IndexItem>;

  /** The BullMQ queue underneath (for dashboards). */
  get bullQueue(): Queue<IndexItem> {
    return this.#queue;
  }
  readonly #workers = new Set<IndexWorker>();

  constructor(redis: Redis, settings: BullmqIndexSettings) {
    this.#redis = redis;
    this.#settings = settings;
    this.#queue = new Queue<IndexItem>(QUEUE_NAME, {
      connection: redis,
      prefix: settings.prefix,
      defaultJobOptions: {
        attempts: settings.indexMaxAttempts,
        backoff: { type: 'exponential', delay: settings.indexRetryDelayMs },
        removeOnComplete: true,
        removeOnFail: { count: settings.keepFailedJobs },
      },
    });
    // Without a listener BullMQ prints each connection error with console.error (a flood while Redis is down).
    this.#queue.on('error', (err) => settings.onError(err));
  }

  async push(items: readonly IndexItem[]): Promise<void> {
    if (items.length === 0) return;
    await this.#queue.addBulk(items.map((item) => ({ name: isRemoval(item) ? 'removal' : 'doc', data: item })));
  }

  async retryFailed(): Promise<number> {
    // Only the failed jobs BullMQ kept (`keepFailedJobs`); their attempts stay spent, as in SQLite.
    const failed = await this.#queue.getFailedCount();
    if (failed > 0) await this.#queue.retryJobs({ state: 'failed' });
    return failed;
  }

  work(handler: (items: IndexItem[]) => Promise<void>, options: IndexWorkOptions = {}): IndexWorker {
    const batchSize = options.batchSize ?? DEFAULTS.indexBatchSize;
    const maxWaitMs = options.maxWaitMs ?? DEFAULTS.indexMaxWaitMs;
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be a positive integer');
    const worker = new BullmqIndexWorker(this.#redis, handler, { ...this.#settings, batchSize, maxWaitMs }, () =>
      this.#workers.delete(worker),
    );
    this.#workers.add(worker);
    return worker;
  }

  async stats(): Promise<IndexStats> {
    const c = await this.#queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active', 'failed');
    const n = (v: number | undefined) => v ?? 0;
    return {
      waiting: n(c.waiting) + n(c.delayed) + n(c.prioritized),
      active: n(c.active),
      failed: n(c.failed),
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.#workers].map((worker) => worker.close()));
    await this.#queue.close();
  }
}

/** Seconds an idle index worker's blocking wait for a job lasts before it asks again. */
const IDLE_WAIT_SECS = 5;

interface IndexWorkerSettings extends BullmqIndexSettings {
  readonly batchSize: number;
  readonly maxWaitMs: number;
}

class BullmqIndexWorker implements IndexWorker {
  readonly #handler: (items: IndexItem[]) => Promise<void>;
  readonly #settings: IndexWorkerSettings;
  readonly #worker: Worker<IndexItem>;
  readonly #tokenPrefix = randomUUID();
  readonly #onClosed: () => void;
  readonly #loop: Promise<void>;
  readonly #memory: MemoryWait;
  #tokens = 0;
  #closing = false;
  /** True while the loop waits on Redis for a first job (see #collect). */
  #waiting = false;
  #closed: Promise<void> | undefined;

  constructor(
    redis: Redis,
    handler: (items: IndexItem[]) => Promise<void>,
    settings: IndexWorkerSettings,
    onClosed: () => void,
  ) {
    this.#handler = handler;
    this.#settings = settings;
    this.#onClosed = onClosed;
    this.#worker = new Worker<IndexItem>(QUEUE_NAME, null, {
      connection: redis,
      prefix: settings.prefix,
      autorun: false,
      // An idle worker waits this long in one blocking call for its first job (see #collect).
      drainDelay: IDLE_WAIT_SECS,
      lockDuration: settings.lockMs,
      stalledInterval: settings.stalledIntervalMs,
      maxStalledCount: 2,
    });
    // A Redis at its maxmemory refuses the script that takes a job: the loop waits until it takes
    // writes again, said once, instead of asking (and logging the refusal) every poll interval.
    this.#memory = new MemoryWait(redis, `${settings.prefix}:index:write-probe`, {
      refusing: (err) => settings.onError(err),
      writable: () => settings.onReady(),
    });
    this.#worker.on('error', (err) => {
      if (isRedisOutOfMemoryError(err)) void this.#memory.untilWritable(err);
      else settings.onError(err);
    });
    // Manual fetching needs the stalled checker started by hand (BullMQ docs, "manually processing jobs").
    this.#worker.startStalledCheckTimer().catch(settings.onError);
    this.#loop = this.#run();
  }

  close(): Promise<void> {
    this.#closed ??= this.#shutdown();
    return this.#closed;
  }

  async #run(): Promise<void> {
    while (!this.#closing) {
      try {
        const batch = await this.#collect();
        if (batch.length === 0) await sleep(this.#settings.pollIntervalMs);
        else await this.#deliver(batch);
      } catch (err) {
        if (this.#closing) break; // The wait ended by close().
        if (isRedisOutOfMemoryError(err)) {
          await this.#memory.untilWritable(err);
          continue;
        }
        this.#settings.onError(err);
        await sleep(this.#settings.pollIntervalMs);
      }
    }
  }

  /**
   * Up to batchSize jobs: whatever arrives within maxWaitMs of the first one. The first is waited
   * for in a blocking call (BullMQ's marker, woken by a job's arrival), so an idle worker sends
   * Redis one command every {@link IDLE_WAIT_SECS} s, not one every poll interval (four a second).
   */
  async #collect(): Promise<{ job: Job<IndexItem>; token: string }[]> {
    const batch: { job: Job<IndexItem>; token: string }[] = [];
    let deadline = Infinity;
    while (batch.length < this.#settings.batchSize && !this.#closing) {
      const token = `${this.#tokenPrefix}:${this.#tokens++}`;
      const first = batch.length === 0;
      this.#waiting = first;
      let job: Job<IndexItem> | undefined;
      try {
        job = await this.#worker.getNextJob(token, { block: first });
      } finally {
        this.#waiting = false;
      }
      if (job) {
        batch.push({ job, token });
        if (deadline === Infinity) deadline = Date.now() + this.#settings.maxWaitMs;
        continue;
      }
      const left = deadline - Date.now();
      if (batch.length === 0 || left <= 0) break;
      await sleep(Math.min(left, this.#settings.pollIntervalMs, 50));
    }
    return batch;
  }

  async #deliver(batch: { job: Job<IndexItem>; token: string }[]): Promise<void> {
    const extend = setInterval(
      () => {
        for (const { job, token } of batch) job.extendLock(token, this.#settings.lockMs).catch(this.#settings.onError);
      },
      Math.max(10, Math.floor(this.#settings.lockMs / 2)),
    );
    let failure: Error | undefined;
    try {
      await this.#handler(batch.map(({ job }) => job.data));
    } catch (err) {
      failure = err instanceof Error ? err : new Error('index handler failed');
    } finally {
      clearInterval(extend);
    }
    // An outage of the index spends no attempt: the batch waits (backing off) and comes back.
    const outage = isIndexOutage(failure);
    const { indexRetryDelayMs: baseMs, maxRetryDelayMs } = this.#settings;
    await Promise.all(
      batch.map(({ job, token }) =>
        failure === undefined
          ? job.moveToCompleted(null, token, false)
          : outage
            ? job.moveToDelayed(Date.now() + indexRetryDelayMs(job.attemptsStarted, baseMs, maxRetryDelayMs), token)
            : job.moveToFailed(failure, token, false),
      ),
    );
  }

  async #shutdown(): Promise<void> {
    this.#closing = true;
    this.#memory.stop();
    // A loop waiting for a first job holds no job: closing the worker ends its wait at once. A
    // close that fails (Redis away: the blocked command is cut off) is reported, not thrown, or the
    // process's shutdown would stop at it.
    // The loop is not waited for then: with Redis away its wait ends only when the reconnection
    // gives up.
    const idle = this.#waiting;
    const closed = idle ? this.#worker.close(true).catch(this.#settings.onError) : undefined;
    // A batch still in the handler keeps its locks; when they lapse, BullMQ redelivers it.
    if (!idle) await settlesWithin(this.#loop, this.#settings.closeTimeoutMs);
    await (closed ?? this.#worker.close(true).catch(this.#settings.onError));
    this.#onClosed();
  }
}
