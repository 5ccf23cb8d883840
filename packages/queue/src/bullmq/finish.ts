import type { Redis } from 'ioredis';
import { SITE_FORGOTTEN } from '../forget.js';
import { hostKey } from '../policy.js';
import { type FinishedState, REASON_EXAMPLES } from '../types.js';
import { type JobData, type Keys, urlHash } from './crawl-state.js';
import { LuaScript } from './scripts.js';
import type { ReasonKeys } from './standing.js';

/**
 * Records how a URL ended, once. KEYS: counts hash, task hash, pending hash, the finished zsets of
 * done, skipped and failed, the forgotten URLs set, the reasons by URL hash, the reason counts of
 * the state, the examples list of the state and reason, the host zsets of queued, done, skipped,
 * failed and last finished (see host-counts.ts), the host's reasons hash, then a BullMQ job hash.
 * ARGV: URL hash, state, reason ('' for none), URL, job data, now ms, host, '1' when the URL ends
 * as its site was forgotten, the examples kept per reason, then the failedReason the job must still
 * have ('' for no check) and the one it is given instead.
 *
 * A URL already in a finished zset is not counted again (returns 0): a job run twice (its lock
 * lapsed while its first run went on, an outage longer than the lock) counts once, and the first
 * outcome stands. With the last two ARGV, the job's failedReason is checked and replaced in the same
 * step, so that of the processes that saw a failure of BullMQ's own only one records it (returns -1
 * for the others, and for one already recorded). Returns 1 when it counted.
 */
const FINISH = new LuaScript(`
local hash, state, reason, url = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if ARGV[10] ~= '' then
  if redis.call('HGET', KEYS[17], 'failedReason') ~= ARGV[10] then return -1 end
  redis.call('HSET', KEYS[17], 'failedReason', ARGV[11])
end
redis.call('HDEL', KEYS[3], hash)
for i = 4, 6 do
  if redis.call('ZSCORE', KEYS[i], hash) then return 0 end
end
local slot = ({ done = 0, skipped = 1, failed = 2 })[state]
local now, host = tonumber(ARGV[6]), ARGV[7]
redis.call('HINCRBY', KEYS[1], state, 1)
redis.call('HSET', KEYS[2], hash, ARGV[5])
redis.call('ZADD', KEYS[4 + slot], now, hash)
if ARGV[8] == '1' then redis.call('SADD', KEYS[7], hash) end
if state == 'done' or reason == '' then
  redis.call('HDEL', KEYS[8], hash)
else
  redis.call('HINCRBY', KEYS[9], reason, 1)
  redis.call('HSET', KEYS[8], hash, state .. ':' .. reason)
  redis.call('LREM', KEYS[10], 0, url)
  redis.call('LPUSH', KEYS[10], url)
  redis.call('LTRIM', KEYS[10], 0, tonumber(ARGV[9]) - 1)
  redis.call('HINCRBY', KEYS[16], state .. ':' .. reason, 1)
end
redis.call('ZINCRBY', KEYS[11], 1, host)
for s = 0, 2 do
  if s == slot then redis.call('ZINCRBY', KEYS[12 + s], -1, host)
  else redis.call('ZADD', KEYS[12 + s], 'NX', 0, host) end
end
-- LT: only a later time (a smaller negated score) replaces the one kept.
redis.call('ZADD', KEYS[15], 'LT', -now, host)
return 1
`);

/** What {@link recordFinish} did. */
export type FinishResult = 'counted' | 'finished_before' | 'claimed_elsewhere';

/** A job of BullMQ's whose failedReason is to be replaced as the URL is recorded (see FINISH). */
export interface FailedJobClaim {
  /** The job's hash: `<prefix>:crawl:<job id>`. */
  readonly jobKey: string;
  /** The failedReason BullMQ gave it, which it must still have. */
  readonly failedReason: string;
}

/**
 * Counts the outcome (and its reason) and keeps the task (with its meta) for a later recrawl, in
 * one atomic step that counts a URL once however often its job ran (see FINISH).
 */
export async function recordFinish(
  redis: Redis,
  keys: Keys,
  reasons: ReasonKeys,
  data: JobData,
  state: FinishedState,
  reason: string | undefined,
  claim?: FailedJobClaim,
): Promise<FinishResult> {
  const host = hostKey(data.url);
  const stated = state === 'done' ? undefined : reason;
  const reasonState = state === 'done' ? 'failed' : state;
  const hosts = keys.hostCounts;
  const result = await FINISH.run(
    redis,
    [
      keys.counts,
      keys.tasks,
      keys.pending,
      keys.finished('done'),
      keys.finished('skipped'),
      keys.finished('failed'),
      keys.forgottenUrls,
      reasons.byUrl,
      reasons.counts(reasonState),
      reasons.examples(reasonState, stated ?? ''),
      ...hosts.admitKeys(),
      hosts.reasonsKey(host),
      claim?.jobKey ?? keys.counts,
    ],
    [
      urlHash(data.url),
      state,
      stated ?? '',
      data.url,
      JSON.stringify(data),
      Date.now(),
      host,
      reason === SITE_FORGOTTEN ? '1' : '0',
      REASON_EXAMPLES,
      claim?.failedReason ?? '',
      stated ?? '',
    ],
  );
  return result === 1 ? 'counted' : result === 0 ? 'finished_before' : 'claimed_elsewhere';
}
