import type { HostBackoff, PageDocument } from '@quarry/core';
import type { Queue } from 'bullmq';
import type { FingerprintStore } from './fingerprints.js';
import type { HostPage, HostQuery } from './hosts.js';

/** One URL to crawl, as a crawler worker receives it. */
export interface CrawlTask {
  /** Normalized with core's `normalizeUrl`; the dedup key. */
  readonly url: string;
  /** Links followed from the seed (the seed itself is 0). */
  readonly depth: number;
  /** Budget key, e.g. the seed's site; `maxPagesInScope` counts per scope. */
  readonly scope: string;
  readonly seed: string;
  /** 1 on the first try, 2 on the first retry, and so on. */
  readonly attempt: number;
  readonly render?: 'auto' | 'always' | 'never';
  /** Small string map carried with the task, e.g. `etag` and `lastModified` for recrawls. */
  readonly meta?: Readonly<Record<string, string>>;
}

/** A task to add: `attempt` is the queue's business; `maxPagesInScope` caps the task's scope. */
export type NewCrawlTask = Omit<CrawlTask, 'attempt'> & {
  /** The URL is refused once this many URLs were ever admitted to its scope. */
  readonly maxPagesInScope?: number;
  /**
   * Admitted whatever its scope's count, and not counted in it (give no `maxPagesInScope`): a
   * redirect's target, standing in for the URL that redirected, which was counted.
   */
  readonly uncounted?: boolean;
};

/**
 * What a handler reports for a task it finished without throwing, or put off: `postponed` means the
 * task was not crawled yet (its handler sent the host another request first, such as its robots.txt)
 * and is queued again, without using a try, once the host has rested `restMs`.
 */
export interface CrawlOutcome {
  readonly status: 'done' | 'skipped' | 'failed' | 'postponed';
  /** Stable code (`robots_disallowed`, `too_large`); failed ones are counted in `topFailures`. */
  readonly reason?: string;
  /** Politeness delay to use for this host from now on (e.g. robots.txt Crawl-delay); only raises it. */
  readonly hostDelayMs?: number;
  /**
   * For `postponed`: how long from now no task of the host starts, this one included (the rest of
   * the host's delay after the handler's own request). @defaultValue the host's delay from the start
   */
  readonly restMs?: number;
  /**
   * How long ago the handler's last request to the task's host was sent (0: just now): the host's
   * next task starts no sooner than the host's delay after it, where the delay counted from this
   * task's start would end sooner (a request leaves some time after its task starts). An age, not
   * a time, so that the queue's clock (Redis's) need not agree with the handler's.
   */
  readonly lastRequestAgoMs?: number;
  /**
   * Merged into the task's `meta` and kept with the URL, so a recrawl hands it back (HTTP validators
   * such as `etag`, what was indexed). An empty string clears a key.
   */
  readonly meta?: Readonly<Record<string, string>>;
}

/** The states a finished URL can be in, and so the states `recrawl` can take URLs from. */
export type FinishedState = 'done' | 'skipped' | 'failed';

/** Every {@link FinishedState}. */
export const FINISHED_STATES: readonly FinishedState[] = ['done', 'skipped', 'failed'];

/** Which finished URLs `CrawlQueue.recrawl` queues again. */
export interface RecrawlOptions {
  /** Only URLs that finished at least this long ago (0: all of them). */
  readonly olderThanMs: number;
  /** States to take URLs from. @defaultValue ['done'] */
  readonly states?: readonly FinishedState[];
  /** Most URLs queued by one call, oldest first. @defaultValue DEFAULTS.recrawlLimit (10,000) */
  readonly limit?: number;
}

/**
 * Crawls one task. Throw core's `RetryableError` to retry (its `retryAfterSecs` also backs the whole
 * host name off, every port of it: give it for what the host asked, a Retry-After, never for one
 * origin's trouble), `NonRetryableError` to fail with its code; anything else fails as `internal`.
 * The signal aborts when the worker is closing and its deadline has passed.
 */
export type CrawlHandler = (task: CrawlTask, signal: AbortSignal) => Promise<CrawlOutcome>;

/** A running consumer; `close` stops taking work and waits for (or aborts) what is in flight. */
export interface QueueWorker {
  close(): Promise<void>;
}

/** A running crawl consumer. */
export type CrawlWorker = QueueWorker;
/** A running index consumer. */
export type IndexWorker = QueueWorker;

/** Counts over the crawl's whole life (queued and in flight are current). */
export interface CrawlStats {
  readonly queued: number;
  readonly inFlight: number;
  readonly done: number;
  readonly skipped: number;
  readonly failed: number;
  /** Reasons of failed tasks, most frequent first (at most 10). */
  readonly topFailures: readonly { readonly reason: string; readonly count: number }[];
  /**
   * Why the URLs skipped or failed now ended so, most frequent first (at most 10 per state), each
   * with a few example URLs: a URL queued again (a recrawl, a re-seed) leaves its reason's count.
   * The distributed backend may still count some URLs queued again that ended before it remembered
   * each URL's reason (2026-12-06), and may list fewer examples than the count.
   */
  readonly reasons: readonly ReasonCount[];
}

/** How many URLs ended skipped or failed for one reason, with a few of them. */
export interface ReasonCount {
  readonly state: 'skipped' | 'failed';
  /** Stable code: `blocked_address`, `robots_disallowed`, `http_404`... */
  readonly reason: string;
  readonly count: number;
  /** Up to {@link REASON_EXAMPLES} URLs that ended so, most recent first. */
  readonly examples: readonly string[];
}

/** Example URLs kept per reason in {@link CrawlStats.reasons}. */
export const REASON_EXAMPLES = 3;

/** Where a URL stood in the frontier when `CrawlQueue.requeue` looked at it. */
export interface UrlStanding {
  readonly url: string;
  /** `unknown`: never added; `pending`: queued, waiting for a retry or in flight. */
  readonly state: 'unknown' | 'pending' | FinishedState;
  /** Why it ended skipped or failed (the distributed backend: if it ended so after 2026-12-06). */
  readonly reason?: string;
  /** True when it was in one of the asked states and is queued again now. */
  readonly requeued: boolean;
  /** The meta it finished with (its seed's settings among them), when it finished. */
  readonly meta?: Readonly<Record<string, string>>;
}

/** Options of `CrawlQueue.work`. */
export interface CrawlWorkOptions {
  /** Tasks in flight at once in this worker, over all hosts. */
  readonly concurrency: number;
  /**
   * True for a task its handler will end without a request to its host (a URL that robots.txt,
   * already read, disallows): such a task is handed to the handler without taking a politeness
   * slot, so that a site's disallowed links do not each cost the host's delay. Synchronous and
   * cheap: asked for every task as it is leased, it reads only what the process already holds.
   * @defaultValue every task takes a slot
   */
  readonly needsNoRequest?: (task: CrawlTask) => boolean;
}

/** How `CrawlQueue.forget` forgets. */
export interface ForgetOptions {
  /**
   * The sites' indexed pages stay searchable (`quarry forget --keep-pages`), and the copies of
   * them on other sites stay skipped as their duplicates; without it they are to be removed, which
   * the queue records (see `forgottenRemovingPages`) for whoever removes them, and those copies are
   * queued again.
   */
  readonly keepPages?: boolean;
}

/** The crawl frontier: seeds and discovered links in, polite and deduplicated tasks out. */
export interface CrawlQueue {
  /** Tries a task gets (retryable errors included) before it fails with its error's code. */
  readonly maxAttempts: number;
  /**
   * Adds tasks. A URL ever added (queued, in flight, done, skipped or failed) is never added again;
   * `maxPagesInScope` is enforced atomically, also across processes. Resolves to how many were new.
   * Throws a `TypeError` (adding nothing) when a URL is not an absolute http(s) URL.
   */
  add(tasks: readonly NewCrawlTask[]): Promise<number>;
  /**
   * Runs the handler on tasks, politely: at most `perHostConcurrency` in flight per host, two starts
   * on one host at least the host's delay apart, `concurrency` in flight in this worker. Retryable
   * errors are retried with exponential backoff up to `maxAttempts`, then fail with their code.
   */
  work(handler: CrawlHandler, options: CrawlWorkOptions): CrawlWorker;
  stats(): Promise<CrawlStats>;
  /**
   * How many URLs were ever admitted to `scope` and counted in it (queued, in flight or finished):
   * what `maxPagesInScope` is compared with, so a budget above it admits more. 0 for a scope none was.
   */
  admittedInScope(scope: string): Promise<number>;
  /**
   * One page of the crawl's hosts with their counts, ordered by `query.sort` (ties by host name):
   * bounded by the query's limit (see `checkHostQuery`, which it applies: a RangeError for a bad query).
   */
  hosts(query: HostQuery): Promise<HostPage>;
  /** True when nothing is queued, delayed (retry or politeness) or in flight. */
  isIdle(): Promise<boolean>;
  /**
   * Queues finished URLs again, oldest first, each with the `meta` it finished with (so the handler
   * can send conditional requests), a fresh try count and no politeness shortcut. Atomic across
   * processes: a URL is taken by one call only, and URLs queued or in flight are left alone.
   * Resolves to how many were queued.
   */
  recrawl(options: RecrawlOptions): Promise<number>;
  /**
   * Queues the named URLs again when they finished in one of `states` (an explicit re-seed), with
   * a fresh try count and the meta they finished with; the scope budget they were admitted under is
   * not charged twice. Other URLs are left alone. Resolves to where each URL stood, in order.
   */
  requeue(urls: readonly string[], states: readonly FinishedState[]): Promise<UrlStanding[]>;
  /**
   * Queues again every finished URL that was queued for one of the seeds `settings` names (its
   * task's `seed`), with a fresh try count and that seed's meta laid over the meta it finished with
   * (a key set to '' is removed; `render`, when given, is the task's render mode too): seeds given
   * again with other settings. The scope budget they were admitted under is not charged twice.
   * Resolves to how many were queued per seed (0 for a seed with none).
   */
  requeueSeeds(settings: ReadonlyMap<string, Readonly<Record<string, string>>>): Promise<Map<string, number>>;
  /**
   * Stops crawling the sites (normalized `site` values, see `checkSites`: a host with its
   * subdomains, or only one port or path of it): from now on `add` refuses their URLs (not
   * recorded, so they can be added once the site is unforgotten), and their queued URLs end
   * skipped as `site_forgotten` without being fetched. Those in flight finish. Resolves to how many
   * queued URLs were dropped at once (the embedded queue), or null when workers drop them as they
   * reach them, each without a request (the distributed one, which keeps no index of jobs by host).
   */
  forget(sites: readonly string[], options?: ForgetOptions): Promise<number | null>;
  /**
   * Crawls the sites again: `add` takes their URLs, those dropped by `forget` (skipped as
   * `site_forgotten`) are queued again, and so are those crawled before (done). Those finished
   * before a site every forget of which kept its pages (`keepPages`) are recrawled with the meta
   * they finished with: their pages are still indexed, so an unchanged one answers 304 and keeps
   * its entry. The others lose their validators (`etag`, `lastModified`) and are fetched whole:
   * their pages were removed with the site (or may have been), or were refused by the indexer (in
   * flight as the site was forgotten). URLs still within another forgotten site stay out. Resolves
   * to how many were queued. Sites not forgotten are ignored.
   */
  unforget(sites: readonly string[]): Promise<number>;
  /** The sites forgotten, by name. */
  forgotten(): Promise<string[]>;
  /**
   * The forgotten sites whose indexed pages are to leave the index (forgotten last without
   * `keepPages`), by name: a removal cut short (a stop while it ran) is taken up again from them.
   * Sites forgotten before this was recorded (releases before 2026-12-06) are not among them.
   */
  forgottenRemovingPages(): Promise<string[]>;
  /** Closes the queue's own resources; close workers first. */
  close(): Promise<void>;
}

/** Tells the indexer to drop a page from the index and the blob store (gone, noindex, moved). */
export interface PageRemoval {
  readonly id: string;
  readonly removed: true;
}

/** What travels on the index queue: a document to upsert, or a removal, each keyed by page id. */
export type IndexItem = PageDocument | PageRemoval;

/** True for a removal, false for a document. */
export function isRemoval(item: IndexItem): item is PageRemoval {
  return 'removed' in item && item.removed === true;
}

/** Options of `IndexQueue.work`. */
export interface IndexWorkOptions {
  /** Most documents handed to one handler call. @defaultValue 100 */
  readonly batchSize?: number;
  /** How long to wait for a batch to fill once a document is available. @defaultValue 500 */
  readonly maxWaitMs?: number;
}

/** Counts of the index queue. */
export interface IndexStats {
  readonly waiting: number;
  readonly active: number;
  /** Documents whose batch failed `maxAttempts` times; kept for inspection. */
  readonly failed: number;
}

/**
 * Extracted documents (and removals) on their way to the indexer, delivered at least once, in
 * batches, in the order they were pushed.
 */
export interface IndexQueue {
  push(items: readonly IndexItem[]): Promise<void>;
  /**
   * Delivers documents in batches (up to `batchSize`, or what arrived within `maxWaitMs`). A batch is
   * acknowledged only when the handler resolves and redelivered otherwise, so handlers must be
   * idempotent by document id.
   */
  work(handler: (items: IndexItem[]) => Promise<void>, options?: IndexWorkOptions): IndexWorker;
  /**
   * Gives every document whose indexing failed for good (its attempts spent, e.g. while the index
   * was down or its disk full) one more attempt; resolves with how many. Indexers call it when they
   * start, so a restart after the cause is fixed loses nothing.
   */
  retryFailed(): Promise<number>;
  stats(): Promise<IndexStats>;
  /** Closes the queue's own resources; close workers first. */
  close(): Promise<void>;
}

/** Both queues of one backend; `close` closes both. */
export interface Queues {
  readonly crawl: CrawlQueue;
  readonly index: IndexQueue;
  /** Which URL holds each main text, so exact duplicates are stored once (kept with the crawl state). */
  readonly fingerprints: FingerprintStore;
  /** The underlying BullMQ queues (distributed backend only), for dashboards such as Bull Board. */
  readonly bullQueues?: readonly Queue[];
  /**
   * The hosts the workers of every process back off from (distributed backend only; an embedded
   * crawl's dashboard is in its crawler's process, which knows them).
   */
  readonly backoffs?: BackoffBoard;
  /**
   * What an operator must know about the backend, in words with what to do (distributed backend
   * only: a loss of Redis's data noticed by a running process); `quarry status` prints them.
   */
  notices?(): Promise<string[]>;
  close(): Promise<void>;
}

/** Hosts backed off from, shared by the processes of a distributed crawl (see `Queues.backoffs`). */
export interface BackoffBoard {
  /** A worker backs off from a host until `untilMs` (a retryable failure: 429, 503, a timeout). */
  note(backoff: HostBackoff): Promise<void>;
  /** A task of the host ended otherwise: the host is no longer backed off from. */
  clear(host: string): Promise<void>;
  /** The hosts backed off from now, the most recently noted first. */
  current(): Promise<HostBackoff[]>;
}
