import type { Redis } from 'ioredis';
import { type FinishedState, REASON_EXAMPLES, type ReasonCount } from '../types.js';
import { LuaScript } from './scripts.js';

/** The finished states in the order {@link REQUEUE_NAMED} takes their zsets. */
export const FINISHED_ORDER: readonly FinishedState[] = ['done', 'skipped', 'failed'];

/**
 * Where named URLs stand, queueing again those finished in an asked state. KEYS: seen set, task
 * hash, counts hash, then the finished zsets of done, skipped, failed. ARGV: the asked states
 * between spaces (` skipped failed `), then URL hashes. Returns, per URL, three values: its state
 * (`unknown`, `pending` or a finished state), '1' when it was taken (else '0'), and the job data it
 * finished with ('' when it has not finished).
 */
export const REQUEUE_NAMED = new LuaScript(`
local states = {'done', 'skipped', 'failed'}
local out = {}
for i = 2, #ARGV do
  local hash = ARGV[i]
  local state, requeued, data = 'unknown', '0', ''
  if redis.call('SISMEMBER', KEYS[1], hash) == 1 then
    state = 'pending'
    for s = 1, 3 do
      if redis.call('ZSCORE', KEYS[3 + s], hash) then
        state = states[s]
        data = redis.call('HGET', KEYS[2], hash) or ''
        if string.find(ARGV[1], ' ' .. state .. ' ', 1, true) then
          redis.call('ZREM', KEYS[3 + s], hash)
          redis.call('HINCRBY', KEYS[3], state, -1)
          requeued = '1'
        end
        break
      end
    end
  end
  out[#out + 1] = state
  out[#out + 1] = requeued
  out[#out + 1] = data
end
return out
`);

/** Redis keys of the per-reason counts and examples of skipped and failed URLs. */
export interface ReasonKeys {
  /** HASH reason -> count, per state (failed: the existing `failure-reasons` hash). */
  counts(state: 'skipped' | 'failed'): string;
  /** LIST of the latest URLs that ended so (capped at REASON_EXAMPLES). */
  examples(state: 'skipped' | 'failed', reason: string): string;
}

/** The reason keys under a prefix; `failureReasons` is the hash the queue already keeps. */
export function reasonKeys(prefix: string, failureReasons: string): ReasonKeys {
  return {
    counts: (state) => (state === 'failed' ? failureReasons : `${prefix}:crawl-state:skip-reasons`),
    examples: (state, reason) => `${prefix}:crawl-state:examples:${state}:${reason}`,
  };
}

/** Records one skipped or failed URL under its reason, on a MULTI the caller executes. */
export function recordReason(
  multi: ReturnType<Redis['multi']>,
  keys: ReasonKeys,
  state: 'skipped' | 'failed',
  reason: string,
  url: string,
): void {
  if (state === 'skipped') multi.hincrby(keys.counts(state), reason, 1);
  const list = keys.examples(state, reason);
  multi
    .lrem(list, 0, url)
    .lpush(list, url)
    .ltrim(list, 0, REASON_EXAMPLES - 1);
}

/** The most frequent reasons per state (at most `top` each), with their example URLs. */
export async function readReasons(redis: Redis, keys: ReasonKeys, top: number): Promise<ReasonCount[]> {
  const states = ['skipped', 'failed'] as const;
  const hashes = await Promise.all(states.map((state) => redis.hgetall(keys.counts(state))));
  const counted = states.flatMap((state, i) =>
    Object.entries(hashes[i] ?? {})
      .map(([reason, count]) => ({ state, reason, count: Number(count) }))
      .filter((r) => r.count > 0)
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason))
      .slice(0, top),
  );
  if (counted.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const r of counted) pipeline.lrange(keys.examples(r.state, r.reason), 0, REASON_EXAMPLES - 1);
  const lists = (await pipeline.exec()) ?? [];
  return counted.map((r, i) => ({ ...r, examples: (lists[i]?.[1] as string[] | undefined) ?? [] }));
}
