import type { Redis } from 'ioredis';
import { type FinishedState, REASON_EXAMPLES, type ReasonCount } from '../types.js';
import { LuaScript, REASON_HELPERS } from './scripts.js';

/** The finished states in the order {@link REQUEUE_NAMED} takes their zsets. */
export const FINISHED_ORDER: readonly FinishedState[] = ['done', 'skipped', 'failed'];

/**
 * Where named URLs stand, queueing again those finished in an asked state. KEYS: seen set, task
 * hash, counts hash, then the finished zsets of done, skipped, failed, then the three reason hashes
 * (by URL, skip reasons, failure reasons: see REASON_HELPERS). ARGV: the asked states between
 * spaces (` skipped failed `), the examples lists' prefix, then URL hashes. Returns, per URL, four
 * values: its state (`unknown`, `pending` or a finished state), '1' when it was taken (else '0'),
 * the job data it finished with ('' when it has not finished), and the reason it ended skipped or
 * failed with ('' when none is remembered). A URL taken leaves its state's count and its reason's.
 */
export const REQUEUE_NAMED = new LuaScript(`${REASON_HELPERS}
local states = {'done', 'skipped', 'failed'}
local r = { by = KEYS[7], skipped = KEYS[8], failed = KEYS[9], examples = ARGV[2] }
local out = {}
for i = 3, #ARGV do
  local hash = ARGV[i]
  local state, requeued, data, reason = 'unknown', '0', '', ''
  if redis.call('SISMEMBER', KEYS[1], hash) == 1 then
    state = 'pending'
    for s = 1, 3 do
      if redis.call('ZSCORE', KEYS[3 + s], hash) then
        state = states[s]
        data = redis.call('HGET', KEYS[2], hash) or ''
        reason = keptReason(r, hash, state)
        if string.find(ARGV[1], ' ' .. state .. ' ', 1, true) then
          redis.call('ZREM', KEYS[3 + s], hash)
          redis.call('HINCRBY', KEYS[3], state, -1)
          uncountReason(r, hash, state, data)
          requeued = '1'
        end
        break
      end
    end
  end
  out[#out + 1] = state
  out[#out + 1] = requeued
  out[#out + 1] = data
  out[#out + 1] = reason
end
return out
`);

/**
 * Redis keys of the per-reason counts and examples of skipped and failed URLs. They follow the URLs
 * in each state now, as the headline counts do: a URL queued again (a recrawl, a re-seed) leaves
 * its reason's count and examples in the script that takes it out of its finished state (see
 * REASON_HELPERS), by the reason remembered for it when it ended.
 */
export interface ReasonKeys {
  /** HASH reason -> count, per state (failed: the existing `failure-reasons` hash). */
  counts(state: 'skipped' | 'failed'): string;
  /** LIST of the latest URLs that ended so (capped at REASON_EXAMPLES). */
  examples(state: 'skipped' | 'failed', reason: string): string;
  /** Prefix of every examples list: the scripts build a list's key from it and the reason they find. */
  readonly examplesPrefix: string;
  /** HASH URL hash -> `<state>:<reason>` of each URL that ended skipped or failed, while it stays so. */
  readonly byUrl: string;
}

/** The reason keys under a prefix; `failureReasons` is the hash the queue already keeps. */
export function reasonKeys(prefix: string, failureReasons: string): ReasonKeys {
  const examplesPrefix = `${prefix}:crawl-state:examples:`;
  return {
    counts: (state) => (state === 'failed' ? failureReasons : `${prefix}:crawl-state:skip-reasons`),
    examples: (state, reason) => `${examplesPrefix}${state}:${reason}`,
    examplesPrefix,
    byUrl: `${prefix}:crawl-state:url-reasons`,
  };
}

/** The reason hashes as REASON_HELPERS takes them among a script's KEYS: by URL, skip reasons, failure reasons. */
export function reasonScriptKeys(keys: ReasonKeys): string[] {
  return [keys.byUrl, keys.counts('skipped'), keys.counts('failed')];
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
