import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { checkSites, stillIndexed, withinSites } from '../forget.js';
import type { HostPage, HostQuery } from '../hosts.js';
import { checkRecrawlOptions, hostKey } from '../policy.js';
import type {
  CrawlHandler,
  CrawlQueue,
  CrawlStats,
  CrawlWorker,
  CrawlWorkOptions,
  FinishedState,
  ForgetOptions,
  NewCrawlTask,
  RecrawlOptions,
  UrlStanding,
} from '../types.js';
import {
  type BullmqCrawlSettings,
  type JobData,
  type Keys,
  keysFor,
  mergeMeta,
  QUEUE_NAME,
  urlHash,
} from './crawl-state.js';
import { BullmqCrawlWorker } from './crawl-worker.js';
import { doneAt, forgetSites, liftSites } from './forgotten.js';
import { ADMIT, TAKE_FINISHED } from './scripts.js';
import {
  FINISHED_ORDER,
  REQUEUE_NAMED,
  type ReasonKeys,
  readReasons,
  reasonKeys,
  reasonScriptKeys,
} from './standing.js';

/** How long a recrawl's answer is kept for a resend of the same call (deleted once its jobs exist). */
const RECRAWL_RECEIPT_TTL_MS = 600_000;
const TOP_FAILURES = 10;
/** ADMIT's budget for a task admitted whatever its scope's count and not counted (`uncounted`). */
const UNCOUNTED = -2;
/** Entries of the finished tasks' hash read per HSCAN when a seed's URLs are looked for. */
const SEED_SCAN_COUNT = 1_000;
/** URLs of a seed queued again per script call. */
const SEED_REQUEUE_BATCH = 500;

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

  get maxAttempts(): number {
    return this.#settings.maxAttempts;
  }

  readonly #reasonKeys: ReasonKeys;

  constructor(redis: Redis, settings: BullmqCrawlSettings) {
    this.#redis = redis;
    this.#settings = settings;
    this.#keys = keysFor(settings.prefix);
    this.#reasonKeys = reasonKeys(settings.prefix, this.#keys.reasons);
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
      t.uncounted ? UNCOUNTED : (t.maxPagesInScope ?? -1),
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
      const { maxPagesInScope: _budget, uncounted: _uncounted, ...data } = t;
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
    const worker = new BullmqCrawlWorker(this.#redis, this.#keys, handler, options, this.#settings, () =>
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
      reasons: await readReasons(this.#redis, this.#reasonKeys, TOP_FAILURES),
    };
  }

  async admittedInScope(scope: string): Promise<number> {
    return Number((await this.#redis.hget(this.#keys.scopes, scope)) ?? 0);
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
    for await (const data of this.#finishedTasks()) {
      if (typeof data.seed === 'string' && typeof data.url === 'string') urls.get(data.seed)?.push(data.url);
    }
    const queued = new Map<string, number>();
    for (const [seed, meta] of settings) {
      queued.set(seed, await this.#requeueInBatches(urls.get(seed) ?? [], FINISHED_ORDER, meta));
    }
    return queued;
  }

  /** The job data every finished URL finished with, one HSCAN page of the tasks hash at a time. */
  async *#finishedTasks(): AsyncGenerator<Partial<JobData>> {
    let cursor = '0';
    do {
      const [next, entries] = await this.#redis.hscan(this.#keys.tasks, cursor, 'COUNT', SEED_SCAN_COUNT);
      cursor = next;
      for (let i = 1; i < entries.length; i += 2) yield JSON.parse(entries[i] ?? '{}') as Partial<JobData>;
    } while (cursor !== '0');
  }

  /** {@link #requeueNamed} a batch of {@link SEED_REQUEUE_BATCH} URLs at a time; how many were queued. */
  async #requeueInBatches(
    urls: readonly string[],
    states: readonly FinishedState[],
    meta: Readonly<Record<string, string>> | undefined,
  ): Promise<number> {
    let queued = 0;
    for (let i = 0; i < urls.length; i += SEED_REQUEUE_BATCH) {
      const standings = await this.#requeueNamed(urls.slice(i, i + SEED_REQUEUE_BATCH), states, meta);
      queued += standings.filter((s) => s.requeued).length;
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
    const keys = [
      this.#keys.seen,
      this.#keys.tasks,
      this.#keys.counts,
      ...FINISHED_ORDER.map(this.#keys.finished),
      ...reasonScriptKeys(this.#reasonKeys),
    ];
    const flat = (await REQUEUE_NAMED.run(this.#redis, keys, [
      ` ${states.join(' ')} `,
      this.#reasonKeys.examplesPrefix,
      ...urls.map(urlHash),
    ])) as string[];
    const stamp = Date.now().toString(36);
    const jobs: { name: string; data: JobData; opts: { jobId: string } }[] = [];
    const standings = urls.map((url, i): UrlStanding => {
      const state = flat[4 * i] as UrlStanding['state'];
      const requeued = flat[4 * i + 1] === '1';
      const json = flat[4 * i + 2] ?? '';
      const reason = flat[4 * i + 3] ?? '';
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
      return {
        url,
        state,
        ...(reason === '' ? {} : { reason }),
        requeued,
        ...(data === undefined ? {} : { meta: { ...data.meta } }),
      };
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
      [
        this.#keys.tasks,
        this.#keys.counts,
        receipt,
        ...reasonScriptKeys(this.#reasonKeys),
        ...states.map((state) => this.#keys.finished(state)),
      ],
      [Date.now() - olderThanMs, limit, RECRAWL_RECEIPT_TTL_MS, this.#reasonKeys.examplesPrefix, ...states],
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

  async forget(sites: readonly string[], options: ForgetOptions = {}): Promise<null> {
    const checked = checkSites(sites);
    await forgetSites(this.#redis, this.#keys, checked, options.keepPages === true);
    // Copies of pages kept in the index stay skipped as their duplicates.
    if (!options.keepPages) await this.#copiesAgain(checked);
    return null;
  }

  /**
   * Queues again, fetched whole, the pages of other sites skipped as copies of a page of `sites`
   * (their meta's `duplicateOf`): that page held their text and leaves the index with its site.
   */
  async #copiesAgain(sites: readonly string[]): Promise<void> {
    const copies: string[] = [];
    for await (const data of this.#finishedTasks()) {
      const holder = data.meta?.duplicateOf;
      if (typeof data.url !== 'string' || !holder || withinSites(data.url, sites)) continue;
      if (withinSites(holder, sites)) copies.push(data.url);
    }
    await this.#requeueInBatches(copies, ['skipped'], { etag: '', lastModified: '', duplicateOf: '' });
  }

  async unforget(sites: readonly string[]): Promise<number> {
    const lifted = await liftSites(this.#redis, this.#keys, checkSites(sites));
    if (lifted.length === 0) return 0;
    const names = lifted.map((site) => site.site);
    const still = await this.forgotten();
    const within = (url: unknown): url is string =>
      typeof url === 'string' && withinSites(url, names) && !withinSites(url, still);
    const requeued = new Set<string>();
    // The URLs the workers dropped, as they dropped them.
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
        if (!within(url)) return;
        urls.push(url);
        taken.push(hashes[i] as Buffer);
      });
      if (urls.length === 0) continue;
      for (const standing of await this.#requeueNamed(urls, ['skipped'], undefined)) {
        if (standing.requeued) requeued.add(standing.url);
      }
      await this.#redis.srem(this.#keys.forgottenUrls, ...taken);
    } while (cursor !== '0');
    // The URLs crawled before: a page still indexed is recrawled (an unchanged one answers 304 and
    // keeps its entry); one removed with its site is fetched whole. Not those just queued again
    // above: a running worker may already have crawled one of them.
    const crawled: string[] = [];
    for await (const { url } of this.#finishedTasks()) if (within(url) && !requeued.has(url)) crawled.push(url);
    const finishedAt = await doneAt(this.#redis, this.#keys, crawled);
    const indexed: string[] = [];
    const whole: string[] = [];
    for (const [i, url] of crawled.entries()) {
      (stillIndexed(url, finishedAt[i] ?? Number.NaN, lifted) ? indexed : whole).push(url);
    }
    return (
      requeued.size +
      (await this.#requeueInBatches(indexed, ['done'], undefined)) +
      (await this.#requeueInBatches(whole, ['done'], { etag: '', lastModified: '' }))
    );
  }

  async forgotten(): Promise<string[]> {
    // By name, as the embedded queue lists them (the scores are when each was forgotten).
    return (await this.#redis.zrange(this.#keys.forgottenSites, '0', '-1')).sort();
  }

  async forgottenRemovingPages(): Promise<string[]> {
    const [forgotten, removing] = await Promise.all([
      this.forgotten(),
      this.#redis.smembers(this.#keys.forgottenRemoving),
    ]);
    const marked = new Set(removing);
    return forgotten.filter((site) => marked.has(site));
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
