import { createHash } from 'node:crypto';
import type { ResolvedCommonOptions } from '../options.js';
import type { CrawlTask, FinishedState } from '../types.js';
import { HostCounters } from './host-counts.js';

// What the distributed crawl queue and its workers share: settings, job data, Redis keys.

/** BullMQ and Redis settings of the distributed crawl queue. */
export interface BullmqCrawlSettings extends ResolvedCommonOptions {
  readonly prefix: string;
  readonly lockMs: number;
  readonly stalledIntervalMs: number;
  readonly keepFailedJobs: number;
  readonly keepCompletedJobs: number;
  /** Called when Redis answers (or takes writes) again after errors: see BullmqQueueOptions.onReady. */
  readonly onReady: () => void;
}

/** A crawl job's data: the task without its try count, which BullMQ keeps. */
export type JobData = Omit<CrawlTask, 'attempt'>;

/** Idle host state expires after a day; it is only politeness memory. */
export const HOST_KEY_TTL_MS = 86_400_000;
/** How often a job waiting for a full host's in-flight slot looks again, at the least. */
export const SLOT_TICK_MS = 50;
/** The BullMQ queue's name. */
export const QUEUE_NAME = 'crawl';

/** Redis keys of Quarry's own crawl state, beside BullMQ's `<prefix>:crawl:*` keys. */
export interface Keys {
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
  /** SET of the forgotten sites whose pages are to be removed (see `CrawlQueue.forgottenRemovingPages`). */
  readonly forgottenRemoving: string;
  /** SET of the forgotten sites every forget of which kept their pages (see `stillIndexed`). */
  readonly forgottenKept: string;
  /** ZSET URL hash -> when it finished, one per finished state. */
  finished(state: FinishedState): string;
  host(host: string): string;
  slots(host: string): string;
  /** The per-host counters of the admin hosts view (their keys and how they are kept). */
  readonly hostCounts: HostCounters;
}

export function keysFor(prefix: string): Keys {
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
    forgottenRemoving: `${prefix}:crawl-state:forgotten-removing`,
    forgottenKept: `${prefix}:crawl-state:forgotten-kept`,
    finished: (state) => `${prefix}:crawl-state:finished:${state}`,
    host: (host) => `${prefix}:crawl-host:${host}`,
    slots,
    hostCounts: new HostCounters(prefix, slots),
  };
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

/** The task's meta with an outcome's meta laid over it; '' clears a key. */
export function mergeMeta(
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
