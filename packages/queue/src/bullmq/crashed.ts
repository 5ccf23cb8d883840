import type { Redis } from 'ioredis';
import { CRASHED_REASON } from '../policy.js';
import { type JobData, type Keys, QUEUE_NAME } from './crawl-state.js';
import { recordFinish } from './finish.js';
import type { ReasonKeys } from './standing.js';

/** BullMQ's failedReason of a job it failed on its own: it stalled more than `maxStalledCount` times. */
export const STALLED_TOO_OFTEN = 'job stalled more than allowable limit';

/** A failedReason Quarry gives (a reason code, see safeReason), once the URL is recorded. */
const QUARRY_REASON = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * Whether a crawl job that failed with `failedReason` left its URL unrecorded: BullMQ failed it on
 * its own (stalled too often: every try ended with its process), or an error thrown while the
 * outcome was being recorded failed it. A job Quarry fails carries its reason code, and its URL
 * was recorded before.
 */
export function failedUnrecorded(failedReason: string): boolean {
  return !QUARRY_REASON.test(failedReason);
}

/**
 * Records as failed the crawl jobs BullMQ failed without Quarry recording their URL (see
 * {@link failedUnrecorded}): `crashed` for a job that stalled too often, `internal` for any other.
 * Until then such a URL was seen but neither queued nor finished, so it was counted nowhere and
 * could not be queued again. A worker sweeps when it starts, when it sees such a failure and every
 * stalled-check interval, so that a failure seen by a process that died is recorded by the next to
 * look. BullMQ keeps the last `keepFailedJobs` failed jobs: a failure pushed out of them before any
 * worker looked (more failures than that within one interval) stays unrecorded.
 *
 * Each is recorded once, whoever looks: its failedReason is replaced by the reason code in the
 * step that records it, so a URL queued again afterwards is not failed again by the old job.
 */
export class FailedJobSweep {
  readonly #redis: Redis;
  readonly #keys: Keys;
  readonly #reasonKeys: ReasonKeys;
  readonly #prefix: string;
  readonly #onError: (err: unknown) => void;
  /** Failed job ids looked at already (recorded, or Quarry's own), so each is read once per process. */
  readonly #examined = new Set<string>();
  #running: Promise<void> | undefined;
  #again = false;

  constructor(redis: Redis, keys: Keys, reasonKeys: ReasonKeys, prefix: string, onError: (err: unknown) => void) {
    this.#redis = redis;
    this.#keys = keys;
    this.#reasonKeys = reasonKeys;
    this.#prefix = prefix;
    this.#onError = onError;
  }

  /** Sweeps now, or once more after the sweep under way; never rejects (errors go to onError). */
  run(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.#sweep().catch(this.#onError);
      } while (this.#again);
      this.#running = undefined;
    })();
    return this.#running;
  }

  /** Resolves once no sweep is under way (at once when none is). */
  async idle(): Promise<void> {
    await this.#running;
  }

  async #sweep(): Promise<void> {
    const jobKey = (id: string) => `${this.#prefix}:${QUEUE_NAME}:${id}`;
    const ids = await this.#redis.zrange(`${this.#prefix}:${QUEUE_NAME}:failed`, '0', '-1');
    const current = new Set(ids);
    for (const id of this.#examined) if (!current.has(id)) this.#examined.delete(id);
    const fresh = ids.filter((id) => !this.#examined.has(id));
    if (fresh.length === 0) return;
    const pipeline = this.#redis.pipeline();
    for (const id of fresh) pipeline.hmget(jobKey(id), 'failedReason', 'data');
    const replies = (await pipeline.exec()) ?? [];
    for (const [i, id] of fresh.entries()) {
      const [err, fields] = replies[i] ?? [];
      if (err) throw err;
      const [failedReason, data] = (fields ?? []) as (string | null)[];
      if (failedReason && data && failedUnrecorded(failedReason)) {
        const reason = failedReason === STALLED_TOO_OFTEN ? CRASHED_REASON : 'internal';
        await recordFinish(this.#redis, this.#keys, this.#reasonKeys, JSON.parse(data) as JobData, 'failed', reason, {
          jobKey: jobKey(id),
          failedReason,
        });
      }
      this.#examined.add(id);
    }
  }
}
