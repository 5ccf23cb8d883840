import { createHash, randomUUID } from 'node:crypto';
import { DelayedError, type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { checkSites, SITE_FORGOTTEN, withinSites } from '../forget.js';
import type { HostPage, HostQuery } from '../hosts.js';
import type { ResolvedCommonOptions } from '../options.js';
import {
  checkOutcome,
  checkRecrawlOptions,
  classifyError,
  hostKey,
  requestAgoOf,
  restMsOf,
  retryDelayMs,
  safeReason,
} from '../policy.js';
import type {
  CrawlHandler,
  CrawlQueue,
  CrawlStats,
  CrawlTask,
  CrawlWorker,
  CrawlWorkOptions,
  FinishedState,
  NewCrawlTask,
  RecrawlOptions,
  UrlStanding,
} from '../types.js';
import { settlesWithin } from '../util.js';
import { isRedisConnectionError, REDIS_UNAVAILABLE } from './errors.js';
import { HostCounters } from './host-counts.js';
import { ACQUIRE, ADMIT, RELEASE, RENEW, TAKE_FINISHED } from './scripts.js';
import { FINISHED_ORDER, REQUEUE_NAMED, readReasons, reasonKeys, recordReason } from './standing.js';

/** BullMQ and Redis settings of the distributed crawl queue. */
export interface BullmqCrawlSettings extends ResolvedCommonOptions {
  readonly prefix: string;
  readonly lockMs: number;
  readonly stalledIntervalMs: number;
  readonly keepFailedJobs: number;
  readonly keepCompletedJobs: number;
}

type JobData = Omit<CrawlTask, 'attempt'>;

/** Idle host state expires after a day; it is only politeness memory. */
const HOST_KEY_TTL_MS = 86_400_000;
/** How long a recrawl's answer is kept for a resend of the same call (deleted once its jobs exist). */
const RECRAWL_RECEIPT_TTL_MS = 600_000;
/** How often a job waiting for a full host's in-flight slot looks again, at the least. */
const SLOT_TICK_MS = 50;
const TOP_FAILURES = 10;
/** Entries of the finished tasks' hash read per HSCAN when a seed's URLs are looked for. */
const SEED_SCAN_COUNT = 1_000;
/** URLs of a seed queued again per script call. */
const SEED_REQUEUE_BATCH = 500;
const QUEUE_NAME = 'crawl';

/** Redis keys of Quarry's own crawl state, beside BullMQ's `<prefix>:crawl:*` keys. */
interface Keys {
  /** SET of 16-byte URL hashes: every URL ever admitted. */
  readonly seen: string;
  /** HASH URL hash -> admission time, of admitted URLs whose job is not known to exist yet. */
  readonly pending: string;
  /** HASH scope -> URLs admitted (budgets). */
  readonly scopes: string;
  /** HASH done/skipped/failed -> count. */
  readonly counts: string;
  /** HASH failure reason -> count. */
  readonly reasons: string;
  /** HASH URL hash -> job data (with the meta it finished with) of every finished URL, for recrawls. */
  readonly tasks: string;
  /** Prefix of the short-lived STRING answer of one recrawl call (see TAKE_FINISHED). */
  readonly recrawlReceipt: string;
  /** ZSET normalized site -> when it was forgotten (see `CrawlQueue.forget`). */
  readonly forgottenSites: string;
  /** SET of the URL hashes a worker dropped as `site_forgotten`, which `unforget` queues again. */
  readonly forgottenUrls: string;
  /** ZSET URL hash -> when it finished, one per finished state. */
  finished(state: FinishedState): string;
  host(host: string): string;
  slots(host: string): string;
  /** The per-host counters of the admin hosts view (their keys and how they are kept). */
  readonly hostCounts: HostCounters;
}

function keysFor(prefix: string): Keys {
  const slots = (host: string) => `${prefix}:crawl-slots:${host}`;
  return {
    seen: `${prefix}:crawl-state:seen`,
    pending: `${prefix}:crawl-state:pending`,
    scopes: `${prefix}:crawl-state:scopes`,
    counts: `${prefix}:crawl-state:counts`,
    reasons: `${prefix}:crawl-state:failure-reasons`,
    tasks: `${prefix}:crawl-state:tasks`,
    recrawlReceipt: `${prefix}:crawl-state:recrawl-receipt`,
    forgottenSites: `${prefix}:crawl-state:forgotten-sites`,
    forgottenUrls: `${prefix}:crawl-state:forgotten-urls`,
    finished: (state) => `${prefix}:crawl-state:finished:${state}`,
    host: (host) => `${prefix}:crawl-host:${host}`,
    slots,
    hostCounts: new HostCounters(prefix, slots),
  };
}

/** Thrown to make BullMQ retry; carries the host backoff the custom backoff strategy honours. */
class RetryLater extends Error {
  readonly hostBackoffMs: number;
  constructor(code: string, hostBackoffMs: number) {
    super(code);
    this.hostBackoffMs = hostBackoffMs;
  }
}

/**
 * 16 bytes of SHA-256 of the normalized URL: the seen-set member (collisions are negligible below
 * 2^50 URLs). On Redis 7 the set costs about 76 bytes per URL, hash and set overhead included
 * (measured by distributed.int.test.ts), so 10 million URLs take about 760 MB; raw URLs would
 * cost their length on top.
 */
export function urlHash(url: string): Buffer {
  return createHash('sha256').update(url).digest().subarray(0, 16);
}

/** The distributed crawl queue: BullMQ jobs, with politeness, dedup, budgets and counters in Redis. */
export class BullmqCrawlQueue implements CrawlQueue {
  readonly #redis: Redis;
  readonly #settings: BullmqCrawlSettings;
  readonly #queue: Queue<JobData>;

  /** The BullMQ queue underneath (for dashboards). */
  get bullQueue(): Queue<JobData> {
    return this.#queue;
  }
  readonly #workers = new Set<CrawlWorker>();
  readonly #keys: Keys;

  constructor(redis: Redis, settings: BullmqCrawlSettings) {
    this.#redis = redis;
    this.#settings = settings;
    this.#keys = keysFor(settings.prefix);
    this.#queue = new Queue<JobData>(QUEUE_NAME, {
      connection: redis,
      prefix: settings.prefix,
      defaultJobOptions: {
        attempts: settings.maxAttempts,
        backoff: { type: 'quarry' },
        removeOnComplete: { count: settings.keepCompletedJobs },
        removeOnFail: { count: settings.keepFailedJobs },
      },
    });
    // Without a listener BullMQ prints each connection error with console.error (a flood while Redis is down).
    this.#queue.on('error', (err) => settings.onError(err));
  }

  async add(all: readonly NewCrawlTask[]): Promise<number> {
    if (all.length === 0) return 0;
    // hostKey throws for a URL that is not absolute http(s), before anything is stored.
    for (const t of all) hostKey(t.url);
    const forgotten = await this.forgotten();
    const tasks = forgotten.length === 0 ? all : all.filter((t) => !withinSites(t.url, forgotten));
    if (tasks.length === 0) return 0;
    const hosts = tasks.map((t) => hostKey(t.url));
    const hashes = tasks.map((t) => urlHash(t.url));
    const args = tasks.flatMap((t, i) => [
      hashes[i] ?? Buffer.alloc(0),
      t.scope,
      t.maxPagesInScope ?? -1,
      hosts[i] ?? '',
    ]);
    const admitted = (await ADMIT.run(
      this.#redis,
      [this.#keys.seen, this.#keys.scopes, this.#keys.pending, ...this.#keys.hostCounts.admitKeys()],
      args,
    )) as number[];
    const added: Buffer[] = [];
    const jobs = tasks.flatMap((t, i) => {
      const hash = hashes[i];
      if (admitted[i] !== 1 || hash === undefined) return [];
      added.push(hash);
      const { maxPagesInScope: _budget, ...data } = t;
      return [{ name: 'page', data, opts: { jobId: `u${hash.toString('base64url')}` } }];
    });
    if (jobs.length === 0) return 0;
    // BullMQ cannot join our script: until addBulk is known to have run, the URLs stay pending, and
    // ADMIT hands a pending URL out again (a retried parent page, a seed added again). The job id is
    // the URL's, so a job added twice is one job.
    await this.#queue.addBulk(jobs);
    await this.#redis.hdel(this.#keys.pending, ...added);
    return jobs.length;
  }

  work(handler: CrawlHandler, options: CrawlWorkOptions): CrawlWorker {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new RangeError('concurrency must be a positive integer');
    }
    const worker = new BullmqCrawlWorker(this.#redis, this.#keys, handler, options.concurrency, this.#settings, () =>
      this.#workers.delete(worker),
    );
    this.#workers.add(worker);
    return worker;
  }

  async stats(): Promise<CrawlStats> {
    const [counts, ours, reasons] = await Promise.all([
      this.#queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active'),
      this.#redis.hgetall(this.#keys.counts),
      this.#redis.hgetall(this.#keys.reasons),
    ]);
    const n = (v: string | number | undefined) => Number(v ?? 0);
    return {
      queued: n(counts.waiting) + n(counts.delayed) + n(counts.prioritized),
      inFlight: n(counts.active),
      done: n(ours.done),
      skipped: n(ours.skipped),
      failed: n(ours.failed),
      topFailures: Object.entries(reasons)
        .map(([reason, count]) => ({ reason, count: Number(count) }))
        .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason))
        .slice(0, TOP_FAILURES),
      reasons: await readReasons(this.#redis, reasonKeys(this.#settings.prefix, this.#keys.reasons), TOP_FAILURES),
    };
  }

  async hosts(query: HostQuery): Promise<HostPage> {
    return this.#keys.hostCounts.page(this.#redis, query);
  }

  async requeue(urls: readonly string[], states: readonly FinishedState[]): Promise<UrlStanding[]> {
    return this.#requeueNamed(urls, states, undefined);
  }

  async requeueSeeds(settings: ReadonlyMap<string, Readonly<Record<string, string>>>): Promise<Map<string, number>> {
    // The finished URLs of the seeds, from the job data each finished with: one scan for all.
    const urls = new Map<string, string[]>([...settings.keys()].map((seed) => [seed, []]));
    let cursor = '0';
    do {
      const [next, entries] = await this.#redis.hscan(this.#keys.tasks, cursor, 'COUNT', SEED_SCAN_COUNT);
      cursor = next;
      for (let i = 1; i < entries.length; i += 2) {
        const data = JSON.parse(entries[i] ?? '{}') as Partial<JobData>;
        if (typeof data.seed === 'string' && typeof data.url === 'string') urls.get(data.seed)?.push(data.url);
      }
    } while (cursor !== '0');
    const queued = new Map<string, number>();
    for (const [seed, meta] of settings) {
      const own = urls.get(seed) ?? [];
      let n = 0;
      for (let i = 0; i < own.length; i += SEED_REQUEUE_BATCH) {
        const standings = await this.#requeueNamed(own.slice(i, i + SEED_REQUEUE_BATCH), FINISHED_ORDER, meta);
        n += standings.filter((s) => s.requeued).length;
      }
      queued.set(seed, n);
    }
    return queued;
  }

  /** `requeue`, with `meta` laid over the meta of each URL queued again when it is given. */
  async #requeueNamed(
    urls: readonly string[],
    states: readonly FinishedState[],
    meta: Readonly<Record<string, string>> | undefined,
  ): Promise<UrlStanding[]> {
    if (urls.length === 0) return [];
    const keys = [this.#keys.seen, this.#keys.tasks, this.#keys.counts, ...FINISHED_ORDER.map(this.#keys.finished)];
    const flat = (await REQUEUE_NAMED.run(this.#redis, keys, [
      ` ${states.join(' ')} `,
      ...urls.map(urlHash),
    ])) as string[];
    const stamp = Date.now().toString(36);
    const jobs: { name: string; data: JobData; opts: { jobId: string } }[] = [];
    const standings = urls.map((url, i): UrlStanding => {
      const state = flat[3 * i] as UrlStanding['state'];
      const requeued = flat[3 * i + 1] === '1';
      const json = flat[3 * i + 2] ?? '';
      const data = json === '' ? undefined : (JSON.parse(json) as JobData);
      if (requeued && data !== undefined) {
        const settled: JobData =
          meta === undefined
            ? data
            : {
                ...data,
                meta: mergeMeta(data.meta, meta),
                ...(meta.render ? { render: meta.render as JobData['render'] } : {}),
              };
        // A new job id, as in recrawl(): the finished job of the URL may still be kept under the old one.
        jobs.push({ name: 'page', data: settled, opts: { jobId: `s${stamp}${urlHash(url).toString('base64url')}` } });
      }
      return { url, state, requeued, ...(data === undefined ? {} : { meta: { ...data.meta } }) };
    });
    // A crash between the script and addBulk loses these re-seeds (one round trip), as in add().
    if (jobs.length > 0) {
      await this.#queue.addBulk(jobs);
      await this.#keys.hostCounts.requeued(
        this.#redis,
        jobs.map((j) => hostKey(j.data.url)),
      );
    }
    return standings;
  }

  async recrawl(options: RecrawlOptions): Promise<number> {
    const { states, limit, olderThanMs } = checkRecrawlOptions(options);
    const receipt = `${this.#keys.recrawlReceipt}:${randomUUID()}`;
    const taken = (await TAKE_FINISHED.run(
      this.#redis,
      [this.#keys.tasks, this.#keys.counts, receipt, ...states.map((state) => this.#keys.finished(state))],
      [Date.now() - olderThanMs, limit, RECRAWL_RECEIPT_TTL_MS, ...states],
    )) as string[];
    const stamp = Date.now().toString(36);
    const jobs: { name: string; data: JobData; opts: { jobId: string } }[] = [];
    for (const json of taken) {
      const data = JSON.parse(json) as JobData;
      // A new job id: the finished job of the same URL may still be kept under the old one.
      jobs.push({ name: 'page', data, opts: { jobId: `r${stamp}${urlHash(data.url).toString('base64url')}` } });
    }
    // A lost reply is answered again from the receipt; a crash between the script and addBulk still
    // loses these recrawls (their URLs have left the finished sets and are not crawled again).
    if (jobs.length > 0) {
      await this.#queue.addBulk(jobs);
      await this.#redis.del(receipt);
      await this.#keys.hostCounts.requeued(
        this.#redis,
        jobs.map((j) => hostKey(j.data.url)),
      );
    }
    return jobs.length;
  }

  async forget(sites: readonly string[]): Promise<null> {
    const checked = checkSites(sites);
    const now = Date.now();
    await this.#redis.zadd(this.#keys.forgottenSites, 'NX', ...checked.flatMap((site) => [now, site]));
    return null;
  }

  async unforget(sites: readonly string[]): Promise<number> {
    const checked = checkSites(sites);
    const lifted: string[] = [];
    for (const site of checked) if ((await this.#redis.zrem(this.#keys.forgottenSites, site)) > 0) lifted.push(site);
    if (lifted.length === 0) return 0;
    const still = await this.forgotten();
    let queued = 0;
    let cursor = '0';
    do {
      const [next, hashes] = await this.#redis.sscanBuffer(this.#keys.forgottenUrls, cursor, 'COUNT', SEED_SCAN_COUNT);
      cursor = next.toString();
      if (hashes.length === 0) continue;
      const data = await this.#redis.hmget(this.#keys.tasks, ...hashes);
      const urls: string[] = [];
      const taken: Buffer[] = [];
      data.forEach((json, i) => {
        const url = json === null ? undefined : (JSON.parse(json) as Partial<JobData>).url;
        if (typeof url !== 'string' || !withinSites(url, lifted) || withinSites(url, still)) return;
        urls.push(url);
        taken.push(hashes[i] as Buffer);
      });
      if (urls.length === 0) continue;
      const standings = await this.#requeueNamed(urls, ['skipped'], undefined);
      queued += standings.filter((s) => s.requeued).length;
      await this.#redis.srem(this.#keys.forgottenUrls, ...taken);
    } while (cursor !== '0');
    return queued;
  }

  async forgotten(): Promise<string[]> {
    // By name, as the embedded queue lists them (the scores are when each was forgotten).
    return (await this.#redis.zrange(this.#keys.forgottenSites, '0', '-1')).sort();
  }

  async isIdle(): Promise<boolean> {
    const counts = await this.#queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active');
    return Object.values(counts).every((count) => count === 0);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#workers].map((worker) => worker.close()));
    await this.#queue.close();
  }
}

/** The task's meta with an outcome's meta laid over it; '' clears a key. */
function mergeMeta(
  base: Readonly<Record<string, string>> | undefined,
  patch: Readonly<Record<string, string>>,
): Record<string, string> {
  const merged: Record<string, string> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

class BullmqCrawlWorker implements CrawlWorker {
  readonly #redis: Redis;
  readonly #keys: Keys;
  readonly #handler: CrawlHandler;
  readonly #settings: BullmqCrawlSettings;
  readonly #worker: Worker<JobData, string>;
  readonly #controllers = new Set<AbortController>();
  readonly #onClosed: () => void;
  #closing = false;
  #closed: Promise<void> | undefined;

  constructor(
    redis: Redis,
    keys: Keys,
    handler: CrawlHandler,
    concurrency: number,
    settings: BullmqCrawlSettings,
    onClosed: () => void,
  ) {
    this.#redis = redis;
    this.#keys = keys;
    this.#handler = handler;
    this.#settings = settings;
    this.#onClosed = onClosed;
    this.#worker = new Worker<JobData, string>(QUEUE_NAME, (job, token) => this.#process(job, token), {
      connection: redis,
      prefix: settings.prefix,
      concurrency,
      lockDuration: settings.lockMs,
      stalledInterval: settings.stalledIntervalMs,
      // A job whose worker died is retried twice before it counts as failed ("stalled").
      maxStalledCount: 2,
      settings: {
        backoffStrategy: (attemptsMade: number, _type?: string, err?: Error) =>
          retryDelayMs(attemptsMade, err instanceof RetryLater ? err.hostBackoffMs : 0, settings),
      },
    });
    this.#worker.on('error', (err) => settings.onError(err));
  }

  close(): Promise<void> {
    this.#closed ??= this.#shutdown();
    return this.#closed;
  }

  async #process(job: Job<JobData, string>, token: string | undefined): Promise<string> {
    const id = job.id ?? '';
    const host = hostKey(job.data.url);
    const hostKeys = [this.#keys.host(host), this.#keys.slots(host)];
    if (this.#closing) return this.#postpone(job, token, 0);
    // A URL of a forgotten site ends here, without a request and without waiting for its host.
    const forgotten = await this.#redis.zrange(this.#keys.forgottenSites, '0', '-1');
    if (forgotten.length > 0 && withinSites(job.data.url, forgotten)) {
      await this.#finish(job.data, 'skipped', SITE_FORGOTTEN);
      return 'skipped';
    }
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

    const task: CrawlTask = { ...job.data, attempt: job.attemptsMade + 1 };
    const controller = new AbortController();
    this.#controllers.add(controller);
    const renew = setInterval(
      () => void RENEW.run(this.#redis, [hostKeys[1] ?? ''], [id, this.#settings.lockMs]).catch(this.#settings.onError),
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
      if (this.#closing && controller.signal.aborted) {
        await this.#release(id, hostKeys, 0, 0);
        return this.#postpone(job, token, 0);
      }
      const decision = isRedisConnectionError(err)
        ? { retryable: true, code: REDIS_UNAVAILABLE, hostBackoffMs: 0 }
        : classifyError(err, this.#settings.maxRetryDelayMs);
      await this.#release(id, hostKeys, 0, decision.hostBackoffMs);
      if (decision.retryable && task.attempt < this.#settings.maxAttempts) {
        throw new RetryLater(decision.code, decision.hostBackoffMs);
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

  /** `agoMs`: how long ago the task's last request to the host was sent (see requestAgoOf); -1 for none. */
  async #release(id: string, hostKeys: string[], raisedMs: number, backoffMs: number, agoMs = -1): Promise<void> {
    await RELEASE.run(this.#redis, hostKeys, [id, raisedMs, backoffMs, HOST_KEY_TTL_MS, agoMs]);
  }

  /** Counts the outcome and keeps the task (with its meta) for a later recrawl. */
  async #finish(data: JobData, status: FinishedState, reason: string | undefined): Promise<void> {
    const hash = urlHash(data.url);
    const multi = this.#redis
      .multi()
      .hincrby(this.#keys.counts, status, 1)
      .hset(this.#keys.tasks, hash, JSON.stringify(data))
      .hdel(this.#keys.pending, hash)
      .zadd(this.#keys.finished(status), Date.now(), hash);
    if (reason !== undefined && status === 'failed') multi.hincrby(this.#keys.reasons, reason, 1);
    if (reason === SITE_FORGOTTEN) multi.sadd(this.#keys.forgottenUrls, hash);
    if (reason !== undefined && status !== 'done') {
      recordReason(multi, reasonKeys(this.#settings.prefix, this.#keys.reasons), status, reason, data.url);
    }
    this.#keys.hostCounts.finished(multi, hostKey(data.url), status, reason, Date.now());
    await multi.exec();
  }

  async #shutdown(): Promise<void> {
    this.#closing = true;
    const closing = this.#worker.close();
    if (!(await settlesWithin(closing, this.#settings.closeTimeoutMs))) {
      for (const controller of this.#controllers) controller.abort(new Error('worker closing'));
      // Handlers that ignore the signal are left behind; their jobs' locks lapse and another worker retries them.
      await settlesWithin(closing, Math.min(1000, this.#settings.closeTimeoutMs));
    }
    this.#onClosed();
  }
}
