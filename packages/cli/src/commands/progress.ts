import { statfsSync } from 'node:fs';
import type { HostBackoff } from '@quarry/core';
import type { Queues } from '@quarry/queue';
import { finishedCounts } from './crawl-counts.js';

/** Hosts a progress line names as backed off from; the rest are counted. */
const MAX_NAMED_BACKOFFS = 2;

/**
 * The end of a progress line naming the hosts the crawler is backing off from, with why:
 * ` | backing off: a.example (http_429), b.example (http_503) +3 more`; empty when none.
 */
export function backoffNote(backoffs: readonly HostBackoff[]): string {
  if (backoffs.length === 0) return '';
  const named = backoffs.slice(0, MAX_NAMED_BACKOFFS).map((b) => `${b.host} (${b.reason})`);
  const more = backoffs.length - named.length;
  return ` | backing off: ${named.join(', ')}${more > 0 ? ` +${more} more` : ''}`;
}

/** Free space under which a progress line says the data dir's disk is full. */
export const LOW_DISK_BYTES = 64 * 1024 * 1024;

/**
 * The end of a progress line saying the disk holding `dataDir` is (nearly) full, when it has less
 * than `lowBytes` free: ` | disk full: 1.2 MB free in ./data; the crawl waits for space`. A crawl
 * on a full disk keeps its counts as they were, its writes failing until there is room again
 * (nothing is lost: they are tried again), and the line alone showed nothing wrong. Empty when
 * there is room or the disk cannot be read.
 */
export function diskNote(dataDir: string, lowBytes: number = LOW_DISK_BYTES): string {
  let free: number;
  try {
    const stats = statfsSync(dataDir);
    free = stats.bavail * stats.bsize;
  } catch {
    return '';
  }
  if (free >= lowBytes) return '';
  return ` | disk full: ${(free / 1_000_000).toFixed(1)} MB free in ${dataDir}; the crawl waits for space`;
}

/** How often `quarry start` reports crawl progress while there is work. */
export const START_PROGRESS_MS = 5000;

/** A read of the crawl's done count, and when it was made (ms since 1970). */
export interface DoneAt {
  readonly done: number;
  readonly atMs: number;
}

/**
 * Pages crawled a second between two reads of the done count; 0 without an earlier read. Never
 * below 0: `done` drops when finished URLs are queued again (`quarry forget --undo`, `quarry crawl
 * --recrawl`), which uncrawls no page; the pages crawled in that interval go uncounted, for once.
 */
export function crawlRate(before: DoneAt | null, now: DoneAt): number {
  if (before === null || now.atMs <= before.atMs) return 0;
  return Math.max(0, now.done - before.done) / ((now.atMs - before.atMs) / 1000);
}

/**
 * Writes a progress line every `intervalMs` while there is crawl or index work (pages done, queued,
 * failed, rate), one line when the work runs out, and nothing while idle. `stop` ends it.
 */
export function reportProgress(
  queues: Queues,
  write: (line: string) => void,
  intervalMs: number = START_PROGRESS_MS,
  /** The hosts the crawler is backing off from, named on the line. @defaultValue none */
  backingOff: () => readonly HostBackoff[] = () => [],
  /** The data dir, whose disk the line says is full when it is (see diskNote). @defaultValue none */
  dataDir?: string,
): { stop(): void } {
  let last: DoneAt | null = null;
  let lastEnded: DoneAt | null = null;
  let busy = false;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const [crawl, index] = await Promise.all([queues.crawl.stats(), queues.index.stats()]);
      const pending = crawl.queued + crawl.inFlight + index.waiting + index.active;
      // Over the time since the last read: a tick skipped (a slow or failed read) spans two intervals.
      const atMs = Date.now();
      const read = { done: crawl.done, atMs };
      const rate = crawlRate(last, read);
      last = read;
      const finished = finishedCounts(crawl);
      // URLs that ended skipped or failed too: a crawl of dead links crawls no page, and works all the same.
      const ended = { done: finished.done + finished.skipped + finished.failed, atMs };
      const endedRate = crawlRate(lastEnded, ended);
      lastEnded = ended;
      const others = endedRate - rate >= 0.05 ? ` (${endedRate.toFixed(1)} URLs/s with those skipped or failed)` : '';
      const counts = `${finished.done} done, ${crawl.queued} queued, ${crawl.inFlight} in flight, ${finished.skipped} skipped, ${finished.failed} failed`;
      if (pending > 0) {
        busy = true;
        write(
          `crawl: ${counts} | ${rate.toFixed(1)} pages/s${others} | index: ${index.waiting + index.active} waiting${finished.lists}${backoffNote(backingOff())}${dataDir ? diskNote(dataDir) : ''}`,
        );
      } else if (busy) {
        busy = false;
        const why = finished.skipped + finished.failed > 0 ? ' (quarry status shows why)' : '';
        write(`crawl idle: ${counts}${finished.lists}${why}`);
      }
    } catch {
      // A stats read that fails (Redis reconnecting) skips one line; the next tick tries again.
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  // A first line at once: a short crawl may be over before the first interval ends.
  void tick();
  return {
    stop() {
      clearInterval(timer);
    },
  };
}
