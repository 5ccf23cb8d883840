import { checkSites, SITE_FORGOTTEN, withinSites } from '../forget.js';
import type { HostPage, HostQuery } from '../hosts.js';
import type { ResolvedCommonOptions } from '../options.js';
import {
  askedNoRequest,
  checkOutcome,
  checkRecrawlOptions,
  classifyError,
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
  ForgetOptions,
  NewCrawlTask,
  RecrawlOptions,
  UrlStanding,
} from '../types.js';
import { settlesWithin } from '../util.js';
import type { ForgottenSites } from './forgotten.js';
import type { Frontier, Settlement } from './frontier.js';
import type { HostStats } from './host-stats.js';
import { isGoneOwner, newOwner } from './owners.js';
import { Wakeup } from './wakeup.js';

/** Tasks admitted in one transaction of {@link SqliteCrawlQueue.add} (about 10–20 ms of work). */
const ADD_CHUNK = 500;

/** Timing of the embedded crawl workers. */
export interface SqliteCrawlTiming {
  readonly leaseMs: number;
  readonly pollIntervalMs: number;
}

/** The embedded crawl queue: a SQLite frontier worked by in-process workers. */
export class SqliteCrawlQueue implements CrawlQueue {
  readonly #frontier: Frontier;
  readonly #options: ResolvedCommonOptions;
  readonly #timing: SqliteCrawlTiming;
  readonly #wakeup = new Wakeup();
  readonly #workers = new Set<SqliteCrawlWorker>();
  readonly #hosts: HostStats;
  readonly #forgotten: ForgottenSites;

  get maxAttempts(): number {
    return this.#options.maxAttempts;
  }

  constructor(
    frontier: Frontier,
    hosts: HostStats,
    forgotten: ForgottenSites,
    options: ResolvedCommonOptions,
    timing: SqliteCrawlTiming,
  ) {
    this.#frontier = frontier;
    this.#hosts = hosts;
    this.#forgotten = forgotten;
    this.#options = options;
    this.#timing = timing;
  }

  /**
   * Admits tasks a transaction of {@link ADD_CHUNK} at a time, letting the event loop run between
   * them: a sitemap's 50,000 URLs in one transaction held it (and the searches it serves) for
   * seconds. Each chunk is admitted whole or not at all. URLs of forgotten sites are left out.
   */
  async add(tasks: readonly NewCrawlTask[]): Promise<number> {
    let added = 0;
    for (let i = 0; i < tasks.length; i += ADD_CHUNK) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      const now = this.#frontier.add(this.#forgotten.admissible(tasks.slice(i, i + ADD_CHUNK)), Date.now());
      if (now > 0) this.#wakeup.notify();
      added += now;
    }
    return added;
  }

  work(handler: CrawlHandler, options: CrawlWorkOptions): CrawlWorker {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new RangeError('concurrency must be a positive integer');
    }
    const worker = new SqliteCrawlWorker(this.#frontier, handler, options, {
      ...this.#options,
      ...this.#timing,
      wakeup: this.#wakeup,
      forgotten: this.#forgotten,
      onClosed: () => this.#workers.delete(worker),
    });
    this.#workers.add(worker);
    return worker;
  }

  async stats(): Promise<CrawlStats> {
    return this.#frontier.stats();
  }

  async admittedInScope(scope: string): Promise<number> {
    return this.#frontier.admittedInScope(scope);
  }

  async hosts(query: HostQuery): Promise<HostPage> {
    return this.#hosts.page(query);
  }

  async recrawl(options: RecrawlOptions): Promise<number> {
    const { states, limit, olderThanMs } = checkRecrawlOptions(options);
    const now = Date.now();
    const queued = this.#frontier.recrawl(states, now - olderThanMs, limit, now);
    if (queued > 0) this.#wakeup.notify();
    return queued;
  }

  async requeue(urls: readonly string[], states: readonly FinishedState[]): Promise<UrlStanding[]> {
    const standings = this.#frontier.requeue(urls, states, Date.now());
    if (standings.some((s) => s.requeued)) this.#wakeup.notify();
    return standings;
  }

  async requeueSeeds(settings: ReadonlyMap<string, Readonly<Record<string, string>>>): Promise<Map<string, number>> {
    const queued = this.#frontier.requeueSeeds(settings, Date.now());
    if ([...queued.values()].some((n) => n > 0)) this.#wakeup.notify();
    return queued;
  }

  async forget(sites: readonly string[], options: ForgetOptions = {}): Promise<number> {
    const dropped = this.#forgotten.forget(checkSites(sites), Date.now(), options.keepPages === true);
    // Copies of the sites' pages may have been queued again.
    this.#wakeup.notify();
    return dropped;
  }

  async unforget(sites: readonly string[]): Promise<number> {
    const queued = this.#forgotten.unforget(checkSites(sites), Date.now());
    if (queued > 0) this.#wakeup.notify();
    return queued;
  }

  async forgotten(): Promise<string[]> {
    return this.#forgotten.list();
  }

  async forgottenRemovingPages(): Promise<string[]> {
    return this.#forgotten.removingPages();
  }

  async isIdle(): Promise<boolean> {
    return this.#frontier.isIdle();
  }

  async close(): Promise<void> {
    await Promise.all([...this.#workers].map((worker) => worker.close()));
  }
}

interface WorkerSettings extends ResolvedCommonOptions, SqliteCrawlTiming {
  readonly wakeup: Wakeup;
  readonly forgotten: ForgottenSites;
  readonly onClosed: () => void;
}

interface Running {
  readonly controller: AbortController;
  readonly done: Promise<void>;
  /** Set when close() gave up on the handler: its late result must not touch the frontier. */
  abandoned: boolean;
}

class SqliteCrawlWorker implements CrawlWorker {
  readonly #frontier: Frontier;
  readonly #handler: CrawlHandler;
  readonly #concurrency: number;
  /** The handler's word on tasks that send their host no request (see CrawlWorkOptions). */
  readonly #handlerNeedsNoRequest: CrawlWorkOptions['needsNoRequest'];
  readonly #settings: WorkerSettings;
  readonly #owner = newOwner();
  readonly #running = new Map<string, Running>();
  readonly #loop: Promise<void>;
  readonly #heartbeat: NodeJS.Timeout;
  readonly #renewEveryMs: number;
  #renewedAt = Date.now();
  #closing = false;
  #closed: Promise<void> | undefined;

  constructor(frontier: Frontier, handler: CrawlHandler, options: CrawlWorkOptions, settings: WorkerSettings) {
    this.#frontier = frontier;
    this.#handler = handler;
    this.#concurrency = options.concurrency;
    this.#handlerNeedsNoRequest = options.needsNoRequest;
    this.#settings = settings;
    this.#renewEveryMs = Math.max(10, Math.floor(settings.leaseMs / 3));
    this.#heartbeat = setInterval(() => this.#renew(), this.#renewEveryMs);
    this.#heartbeat.unref();
    this.#takeUpGoneOwners();
    this.#loop = this.#run();
  }

  close(): Promise<void> {
    this.#closed ??= this.#shutdown();
    return this.#closed;
  }

  async #run(): Promise<void> {
    while (!this.#closing) {
      const now = Date.now();
      // After a stall (a suspended machine, a long synchronous step) the heartbeat is late and this
      // process's own leases may have run out: renew them before leasing, or its running tasks
      // would be reclaimed and handed to it a second time.
      if (this.#running.size > 0 && now - this.#renewedAt >= this.#renewEveryMs) this.#renew();
      let leased: CrawlTask[] = [];
      try {
        leased = this.#frontier.lease(this.#concurrency - this.#running.size, this.#owner, now, this.#needsNoRequest());
      } catch (err) {
        // A busy or briefly unavailable database: try again on the next tick rather than die.
        this.#settings.onError(err);
      }
      // A task still running here (its lease reclaimed all the same) is settled by its handler.
      for (const task of leased) if (!this.#running.has(task.url)) this.#start(task);
      if (leased.length > 0 && this.#running.size < this.#concurrency) continue;
      const wakeAt = this.#safeNextWakeAt(now);
      const sleepMs = Math.min(this.#settings.pollIntervalMs, wakeAt === null ? Infinity : wakeAt - Date.now());
      await this.#settings.wakeup.wait(Math.max(1, sleepMs));
    }
  }

  /**
   * For one lease: whether a task sends its host no request, so takes no slot. A URL of a
   * forgotten site ends without one (see #execute), and so does what the handler says; the
   * forgotten sites are read once a lease, and only when a task is there to ask about.
   */
  #needsNoRequest(): (task: CrawlTask) => boolean {
    let sites: string[] | undefined;
    return (task) => {
      sites ??= this.#settings.forgotten.list();
      return withinSites(task.url, sites) || askedNoRequest(this.#handlerNeedsNoRequest, task);
    };
  }

  #safeNextWakeAt(now: number): number | null {
    try {
      return this.#running.size < this.#concurrency ? this.#frontier.nextWakeAt(now) : null;
    } catch (err) {
      this.#settings.onError(err);
      return null;
    }
  }

  #start(task: CrawlTask): void {
    const controller = new AbortController();
    const running: Running = { controller, done: Promise.resolve(), abandoned: false };
    const done = this.#execute(task, controller.signal, running).finally(() => {
      this.#running.delete(task.url);
      this.#settings.wakeup.notify();
    });
    this.#running.set(task.url, Object.assign(running, { done }));
  }

  async #execute(task: CrawlTask, signal: AbortSignal, running: Running): Promise<void> {
    let settlement: Settlement;
    try {
      // A URL of a forgotten site queued again (a recrawl) ends here, without a request.
      const outcome = withinSites(task.url, this.#settings.forgotten.list())
        ? ({ status: 'skipped', reason: SITE_FORGOTTEN } as const)
        : checkOutcome(await this.#handler(task, signal));
      const reason = outcome.status === 'done' ? null : safeReason(outcome.reason);
      const hostDelayMs = Math.min(outcome.hostDelayMs ?? 0, this.#settings.maxRetryDelayMs);
      const ago = requestAgoOf(outcome);
      const sent = ago < 0 ? {} : { lastRequestAt: Date.now() - ago };
      settlement =
        outcome.status === 'postponed'
          ? { kind: 'release', hostDelayMs, hostBackoffUntil: Date.now() + restMsOf(outcome, this.#settings), ...sent }
          : {
              kind: 'finished',
              state: outcome.status,
              reason,
              hostDelayMs,
              ...sent,
              ...(outcome.meta ? { meta: outcome.meta } : {}),
            };
    } catch (err) {
      settlement = this.#onError(task, err, signal);
    }
    if (running.abandoned) return;
    try {
      this.#frontier.settle(task.url, this.#owner, settlement, Date.now());
    } catch (err) {
      // The lease stays and expires; the task is then retried. Nothing is lost.
      this.#settings.onError(err);
    }
  }

  #onError(task: CrawlTask, err: unknown, signal: AbortSignal): Settlement {
    if (this.#closing && signal.aborted) return { kind: 'release' };
    const decision = classifyError(err, this.#settings.maxRetryDelayMs, task.attempt);
    const now = Date.now();
    if (decision.retryable && task.attempt < this.#settings.maxAttempts) {
      const delayMs = Math.max(
        retryDelayMs(task.attempt, decision.hostBackoffMs, this.#settings),
        decision.retryFloorMs ?? 0,
      );
      return {
        kind: 'retry',
        notBefore: now + delayMs,
        reason: decision.code,
        hostBackoffUntil: now + decision.hostBackoffMs,
      };
    }
    // A final 429 still tells us the host is overloaded: its other tasks must wait too.
    const hostBackoffUntil = decision.hostBackoffMs > 0 ? now + decision.hostBackoffMs : 0;
    return { kind: 'finished', state: 'failed', reason: decision.code, hostBackoffUntil };
  }

  /** Tasks a killed process of this machine left leased are taken up now, not a lease later. */
  #takeUpGoneOwners(): void {
    try {
      this.#frontier.expireGoneOwners(isGoneOwner);
    } catch (err) {
      this.#settings.onError(err);
    }
  }

  #renew(): void {
    this.#takeUpGoneOwners();
    if (this.#running.size === 0) return;
    try {
      this.#frontier.renew(this.#owner, Date.now());
      this.#renewedAt = Date.now();
    } catch {
      // Missing one heartbeat is harmless: the lease is three heartbeats long.
    }
  }

  async #shutdown(): Promise<void> {
    this.#closing = true;
    this.#settings.wakeup.notify();
    await this.#loop;
    const all = () => Promise.all([...this.#running.values()].map((r) => r.done));
    if (!(await settlesWithin(all(), this.#settings.closeTimeoutMs))) {
      for (const running of this.#running.values()) running.controller.abort(new Error('worker closing'));
      // Handlers that ignore the signal are left behind; their tasks are released for a later run.
      if (!(await settlesWithin(all(), Math.min(1000, this.#settings.closeTimeoutMs)))) {
        for (const [url, running] of this.#running) {
          running.abandoned = true;
          try {
            this.#frontier.settle(url, this.#owner, { kind: 'release' }, Date.now());
          } catch {
            // The lease expires instead.
          }
        }
      }
    }
    clearInterval(this.#heartbeat);
    this.#settings.onClosed();
  }
}
