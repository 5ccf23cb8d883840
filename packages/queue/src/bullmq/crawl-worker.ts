import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { SITE_FORGOTTEN, withinSites } from '../forget.js';
import {
  askedNoRequest,
  checkOutcome,
  classifyError,
  hostKey,
  requestAgoOf,
  restMsOf,
  retryDelayMs,
  safeReason,
} from '../policy.js';
import { isRedisOutOfMemoryError } from '../redis-memory.js';
import {
  type CrawlHandler,
  type CrawlTask,
  type CrawlWorker,
  type CrawlWorkOptions,
  FINISHED_STATES,
  type FinishedState,
} from '../types.js';
import { settlesWithin } from '../util.js';
import { FailedJobSweep, failedUnrecorded } from './crashed.js';
import {
  type BullmqCrawlSettings,
  HOST_KEY_TTL_MS,
  type JobData,
  type Keys,
  mergeMeta,
  QUEUE_NAME,
  SLOT_TICK_MS,
  urlHash,
} from './crawl-state.js';
import { isRedisConnectionError, REDIS_UNAVAILABLE } from './errors.js';
import { type FinishResult, recordFinish } from './finish.js';
import { MemoryWait } from './memory-wait.js';
import { ACQUIRE, RELEASE, RENEW } from './scripts.js';
import { type ReasonKeys, reasonKeys } from './standing.js';

/**
 * What a job returns when its URL had finished before it ran: the job is a stale copy (BullMQ ran
 * it again after its lock lapsed, or it was retried by hand), and a URL is crawled again only by a
 * recrawl or a re-seed, which take it out of its finished state first.
 */
const FINISHED_BEFORE = 'finished_before';

/**
 * Thrown to make BullMQ retry; carries the host backoff and the task's own soonest retry, which
 * the custom backoff strategy honours.
 */
class RetryLater extends Error {
  readonly hostBackoffMs: number;
  readonly retryFloorMs: number;
  constructor(code: string, hostBackoffMs: number, retryFloorMs = 0) {
    super(code);
    this.hostBackoffMs = hostBackoffMs;
    this.retryFloorMs = retryFloorMs;
  }
}

/** A worker of the distributed crawl queue: politeness in Redis scripts, outcomes counted as they are recorded. */
export class BullmqCrawlWorker implements CrawlWorker {
  readonly #redis: Redis;
  readonly #keys: Keys;
  readonly #reasonKeys: ReasonKeys;
  readonly #handler: CrawlHandler;
  readonly #needsNoRequest: CrawlWorkOptions['needsNoRequest'];
  readonly #settings: BullmqCrawlSettings;
  readonly #worker: Worker<JobData, string>;
  readonly #controllers = new Set<AbortController>();
  readonly #onClosed: () => void;
  readonly #failedJobs: FailedJobSweep;
  readonly #sweepTimer: NodeJS.Timeout;
  readonly #memory: MemoryWait;
  #closing = false;
  #closed: Promise<void> | undefined;

  constructor(
    redis: Redis,
    keys: Keys,
    handler: CrawlHandler,
    options: CrawlWorkOptions,
    settings: BullmqCrawlSettings,
    onClosed: () => void,
  ) {
    this.#redis = redis;
    this.#keys = keys;
    this.#reasonKeys = reasonKeys(settings.prefix, keys.reasons);
    this.#handler = handler;
    this.#needsNoRequest = options.needsNoRequest;
    this.#settings = settings;
    this.#onClosed = onClosed;
    this.#worker = new Worker<JobData, string>(QUEUE_NAME, (job, token) => this.#process(job, token), {
      connection: redis,
      prefix: settings.prefix,
      concurrency: options.concurrency,
      lockDuration: settings.lockMs,
      stalledInterval: settings.stalledIntervalMs,
      // A job whose worker died is retried twice before it counts as failed ("stalled").
      maxStalledCount: 2,
      settings: {
        backoffStrategy: (attemptsMade: number, _type?: string, err?: Error) =>
          err instanceof RetryLater
            ? Math.max(retryDelayMs(attemptsMade, err.hostBackoffMs, settings), err.retryFloorMs)
            : retryDelayMs(attemptsMade, 0, settings),
      },
    });
    // A Redis at its maxmemory: the worker takes no job until it takes writes again (see MemoryWait).
    this.#memory = new MemoryWait(redis, `${settings.prefix}:crawl-state:write-probe`, {
      refusing: (err) => {
        settings.onError(err);
        if (!this.#closing) void this.#worker.pause(true);
      },
      writable: () => {
        if (!this.#closing) void this.#worker.resume();
        settings.onReady();
      },
    });
    this.#worker.on('error', (err) => {
      if (isRedisOutOfMemoryError(err)) void this.#memory.untilWritable(err);
      else settings.onError(err);
    });
    // A job BullMQ fails on its own (stalled too often) is recorded as failed `crashed`: at once by
    // the worker that failed it, else by the next sweep of any worker (see FailedJobSweep).
    this.#failedJobs = new FailedJobSweep(redis, keys, this.#reasonKeys, settings.prefix, settings.onError);
    this.#worker.on('failed', (_job, err) => {
      if (failedUnrecorded(err.message)) void this.#failedJobs.run();
    });
    this.#sweepTimer = setInterval(() => void this.#failedJobs.run(), settings.stalledIntervalMs);
    this.#sweepTimer.unref();
    void this.#failedJobs.run();
  }

  close(): Promise<void> {
    this.#closed ??= this.#shutdown();
    return this.#closed;
  }

  async #process(job: Job<JobData, string>, token: string | undefined): Promise<string> {
    try {
      return await this.#attempt(job, token);
    } catch (err) {
      if (!isRedisOutOfMemoryError(err)) throw err;
      // Redis refused to record a step for memory: once it takes writes again, the job goes back to
      // the queue without using a try (its page, if fetched, is fetched again: nothing was kept).
      const host = hostKey(job.data.url);
      for (let cause = err; ; ) {
        await this.#memory.untilWritable(cause);
        try {
          await this.#release(job.id ?? '', [this.#keys.host(host), this.#keys.slots(host)], 0, 0);
          return await this.#postpone(job, token, 0);
        } catch (again) {
          if (this.#closing || !isRedisOutOfMemoryError(again)) throw again;
          cause = again;
        }
      }
    }
  }

  async #attempt(job: Job<JobData, string>, token: string | undefined): Promise<string> {
    const id = job.id ?? '';
    const host = hostKey(job.data.url);
    const hostKeys = [this.#keys.host(host), this.#keys.slots(host)];
    if (this.#closing) return this.#postpone(job, token, 0);
    // A job run again after its URL was recorded (its lock lapsed during an outage longer than the
    // lock, after its first run had finished the page) ends here, without fetching the page again.
    if (await this.#finishedBefore(job.data.url)) return FINISHED_BEFORE;
    // A URL of a forgotten site ends here, without a request and without waiting for its host.
    const forgotten = await this.#redis.zrange(this.#keys.forgottenSites, '0', '-1');
    if (forgotten.length > 0 && withinSites(job.data.url, forgotten)) {
      await this.#finish(job.data, 'skipped', SITE_FORGOTTEN);
      return 'skipped';
    }
    const task: CrawlTask = { ...job.data, attempt: job.attemptsMade + 1 };
    // A task that sends its host no request (see CrawlWorkOptions) runs without a politeness slot.
    if (askedNoRequest(this.#needsNoRequest, task)) return this.#run(job, task, token);
    const waitMs = Number(
      await ACQUIRE.run(this.#redis, hostKeys, [
        id,
        this.#settings.hostDelayMs,
        this.#settings.perHostConcurrency,
        this.#settings.lockMs,
        HOST_KEY_TTL_MS,
        SLOT_TICK_MS,
      ]),
    );
    if (waitMs > 0) return this.#postpone(job, token, waitMs);
    return this.#run(job, task, token, hostKeys);
  }

  /**
   * Runs the handler on a task holding its host's slot (`hostKeys`, given back at the end), or on
   * one that needs none (`hostKeys` undefined: a task that sends no request, see needsNoRequest).
   */
  async #run(job: Job<JobData, string>, task: CrawlTask, token: string | undefined, hostKeys?: string[]) {
    const id = job.id ?? '';
    const controller = new AbortController();
    this.#controllers.add(controller);
    const slots = hostKeys?.[1];
    const renew =
      slots === undefined
        ? undefined
        : setInterval(
            () => void RENEW.run(this.#redis, [slots], [id, this.#settings.lockMs]).catch(this.#settings.onError),
            Math.max(10, Math.floor(this.#settings.lockMs / 2)),
          );
    try {
      const outcome = checkOutcome(await this.#handler(task, controller.signal));
      const raisedMs = Math.min(Math.round(outcome.hostDelayMs ?? 0), this.#settings.maxRetryDelayMs);
      const agoMs = requestAgoOf(outcome);
      if (outcome.status === 'postponed') {
        const restMs = restMsOf(outcome, this.#settings);
        await this.#release(id, hostKeys, raisedMs, restMs, agoMs);
        return await this.#postpone(job, token, restMs);
      }
      await this.#release(id, hostKeys, raisedMs, 0, agoMs);
      const data = outcome.meta ? { ...job.data, meta: mergeMeta(job.data.meta, outcome.meta) } : job.data;
      await this.#finish(data, outcome.status, outcome.status === 'done' ? undefined : safeReason(outcome.reason));
      return outcome.status;
    } catch (err) {
      if (err instanceof DelayedError) throw err; // Postponed above, its slot given back.
      if (isRedisOutOfMemoryError(err)) throw err; // Not the page's: see #process.
      if (this.#closing && controller.signal.aborted) {
        await this.#release(id, hostKeys, 0, 0);
        return this.#postpone(job, token, 0);
      }
      const decision = isRedisConnectionError(err)
        ? { retryable: true, code: REDIS_UNAVAILABLE, hostBackoffMs: 0 }
        : classifyError(err, this.#settings.maxRetryDelayMs, task.attempt);
      await this.#release(id, hostKeys, 0, decision.hostBackoffMs);
      if (decision.retryable && task.attempt < this.#settings.maxAttempts) {
        throw new RetryLater(decision.code, decision.hostBackoffMs, decision.retryFloorMs);
      }
      await this.#finish(job.data, 'failed', decision.code);
      throw new UnrecoverableError(decision.code);
    } finally {
      clearInterval(renew);
      this.#controllers.delete(controller);
    }
  }

  /** Back to the delayed set without using a try (politeness wait, a postponed task, or one aborted by close). */
  async #postpone(job: Job<JobData, string>, token: string | undefined, waitMs: number): Promise<never> {
    await job.moveToDelayed(Date.now() + waitMs, token);
    throw new DelayedError();
  }

  /**
   * Gives the host's slot back (nothing to give for a task that took none: `hostKeys` undefined).
   * `agoMs`: how long ago the task's last request to the host was sent (see requestAgoOf); -1 for none.
   */
  async #release(
    id: string,
    hostKeys: string[] | undefined,
    raisedMs: number,
    backoffMs: number,
    agoMs = -1,
  ): Promise<void> {
    if (hostKeys === undefined) return;
    await RELEASE.run(this.#redis, hostKeys, [id, raisedMs, backoffMs, HOST_KEY_TTL_MS, agoMs]);
  }

  /** Counts the outcome (and its reason) and keeps the task for a recrawl; once per URL (see recordFinish). */
  async #finish(data: JobData, status: FinishedState, reason: string | undefined): Promise<FinishResult> {
    return recordFinish(this.#redis, this.#keys, this.#reasonKeys, data, status, reason);
  }

  /** Whether the URL is in a finished state (see FINISHED_BEFORE). */
  async #finishedBefore(url: string): Promise<boolean> {
    const hash = urlHash(url);
    const pipeline = this.#redis.pipeline();
    for (const state of FINISHED_STATES) pipeline.zscore(this.#keys.finished(state), hash);
    const replies = (await pipeline.exec()) ?? [];
    for (const [err] of replies) if (err) throw err;
    return replies.some(([, score]) => score !== null);
  }

  async #shutdown(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#sweepTimer);
    this.#memory.stop();
    const closing = this.#worker.close();
    if (!(await settlesWithin(closing, this.#settings.closeTimeoutMs))) {
      for (const controller of this.#controllers) controller.abort(new Error('worker closing'));
      // Handlers that ignore the signal are left behind; their jobs' locks lapse and another worker retries them.
      await settlesWithin(closing, Math.min(1000, this.#settings.closeTimeoutMs));
    }
    await settlesWithin(this.#failedJobs.idle(), this.#settings.closeTimeoutMs);
    this.#onClosed();
  }
}
