import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A Lua script run by SHA, loaded on first use (EVALSHA, falling back to EVAL on NOSCRIPT). */
export class LuaScript {
  readonly #source: string;
  readonly #sha: string;

  constructor(source: string) {
    this.#source = source;
    this.#sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: Redis, keys: readonly string[], args: readonly (string | number | Buffer)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.#sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.includes('NOSCRIPT')) throw err;
      return redis.eval(this.#source, keys.length, ...keys, ...args);
    }
  }
}

/** Milliseconds on the Redis server's clock: every process agrees on it, whatever its own clock says. */
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * Dedup and budgets in one atomic step. KEYS: seen set, scope counts hash, pending hash, then the
 * per-host zsets of queued, done, skipped, failed and last finished (see host-counts.ts). ARGV:
 * quadruples of URL hash (16 bytes), scope, budget (-1 for none, -2 for none and not counted), host. Returns 1 per task whose
 * job the caller must add, 0 per refused one. An admitted URL stays pending (hash -> admission
 * time) until its job is added: a URL admitted earlier whose job add never completed (a lost reply
 * resent after a Redis restart, a process killed between the two round trips) is handed out again,
 * once per call, and counted once in its host's queued count (when first admitted).
 */
export const ADMIT = new LuaScript(`${NOW}
local out, here = {}, {}
for i = 1, #ARGV, 4 do
  local hash = ARGV[i]
  local admitted = 0
  if redis.call('SISMEMBER', KEYS[1], hash) == 0 then
    local budget = tonumber(ARGV[i + 2])
    local count = tonumber(redis.call('HGET', KEYS[2], ARGV[i + 1])) or 0
    if budget < 0 or count < budget then
      redis.call('SADD', KEYS[1], hash)
      if budget ~= -2 then redis.call('HINCRBY', KEYS[2], ARGV[i + 1], 1) end
      redis.call('HSET', KEYS[3], hash, now)
      local host = ARGV[i + 3]
      redis.call('ZINCRBY', KEYS[4], -1, host)
      for k = 5, 8 do redis.call('ZADD', KEYS[k], 'NX', 0, host) end
      admitted = 1
    end
  elseif not here[hash] and redis.call('HEXISTS', KEYS[3], hash) == 1 then
    admitted = 1
  end
  if admitted == 1 then here[hash] = true end
  out[#out + 1] = admitted
end
return out
`);

/**
 * Asks for a politeness slot on a host. KEYS: host hash (last start, next free slot, backoff end,
 * raised delay, reservations "r:<job>"), in-flight zset (job -> lease end). ARGV: job id, default
 * delay ms, per-host concurrency, slot lease ms, key TTL ms, retry granularity ms.
 * Returns 0 when the job may start now, else how many ms to wait. A job that cannot start gets a
 * reservation for the next free slot, so N waiting jobs of one host wake one delay apart instead of
 * all at once (no thundering herd).
 */
export const ACQUIRE = new LuaScript(`${NOW}
local hostKey, slots, job = KEYS[1], KEYS[2], ARGV[1]
local defaultDelay, perHost, leaseMs, ttl, tick =
  tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
redis.call('ZREMRANGEBYSCORE', slots, '-inf', now)
redis.call('ZREM', slots, job)
local f = redis.call('HMGET', hostKey, 'last', 'next', 'blocked', 'delay', 'r:' .. job)
local delay = math.max(defaultDelay, tonumber(f[4]) or 0)
local nextSlot = tonumber(f[2]) or 0
local reservation = tonumber(f[5])
local earliest = math.max((tonumber(f[1]) or -1e15) + delay, tonumber(f[3]) or 0)
if reservation and now < reservation then return reservation - now end
local full = redis.call('ZCARD', slots) >= perHost
redis.call('PEXPIRE', hostKey, ttl)
if now >= earliest and not full and (reservation or now >= nextSlot) then
  redis.call('HSET', hostKey, 'last', now)
  if reservation then redis.call('HDEL', hostKey, 'r:' .. job) end
  if nextSlot < now + delay then redis.call('HSET', hostKey, 'next', now + delay) end
  redis.call('ZADD', slots, now + leaseMs, job)
  redis.call('PEXPIRE', slots, ttl)
  return 0
end
local at = math.max(now, earliest, nextSlot)
if full then at = math.max(at, now + math.max(delay, tick)) end
redis.call('HSET', hostKey, 'next', at + delay, 'r:' .. job, at)
return math.max(1, at - now)
`);

/**
 * Gives a slot back. KEYS: host hash, in-flight zset. ARGV: job id, raised delay ms (0: none),
 * host backoff ms (0: none), key TTL ms, how long ago the job's last request to the host was sent
 * (-1: not said; when later than the job's start, the host's next delay counts from it).
 */
export const RELEASE = new LuaScript(`${NOW}
local hostKey, slots, job = KEYS[1], KEYS[2], ARGV[1]
local raised, backoff, ttl, ago = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]) or -1
redis.call('ZREM', slots, job)
if ago >= 0 and now - ago > (tonumber(redis.call('HGET', hostKey, 'last')) or 0) then
  redis.call('HSET', hostKey, 'last', now - ago)
end
if raised > (tonumber(redis.call('HGET', hostKey, 'delay')) or 0) then
  redis.call('HSET', hostKey, 'delay', raised)
end
if backoff > 0 and now + backoff > (tonumber(redis.call('HGET', hostKey, 'blocked')) or 0) then
  redis.call('HSET', hostKey, 'blocked', now + backoff)
end
redis.call('PEXPIRE', hostKey, ttl)
return 0
`);

/** Extends a running job's slot lease. KEYS: in-flight zset. ARGV: job id, lease ms. */
export const RENEW = new LuaScript(`${NOW}
return redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
`);

/**
 * Lua helpers over the reason keys of standing.ts, for the scripts that take URLs out of a finished
 * state: `r` holds them as `{ by = <reasons-by-URL hash>, skipped = <skip reasons hash>, failed =
 * <failure reasons hash>, examples = <examples lists' prefix> }`. `keptReason` reads the reason a
 * URL ended `state` with ('' when none is remembered: a done URL, or one finished before reasons
 * were remembered, 2026-12-06). `uncountReason` takes a URL leaving `state` out of its reason's count
 * and examples and forgets its reason, so that the reasons stay those of the URLs in each state now.
 * The examples list's key is built here, undeclared: which reason's list is known only from the
 * hash (a Redis Cluster needs the prefix to be one hash tag, as BullMQ's keys do).
 */
export const REASON_HELPERS = `
local function keptReason(r, hash, state)
  local kept = redis.call('HGET', r.by, hash)
  if kept and r[state] and string.sub(kept, 1, #state + 1) == state .. ':' then
    return string.sub(kept, #state + 2)
  end
  return ''
end
local function uncountReason(r, hash, state, data)
  local reason = keptReason(r, hash, state)
  redis.call('HDEL', r.by, hash)
  if reason == '' then return end
  local list = r.examples .. state .. ':' .. reason
  if redis.call('HINCRBY', r[state], reason, -1) <= 0 then
    redis.call('HDEL', r[state], reason)
    redis.call('DEL', list)
  elseif data then
    local ok, task = pcall(cjson.decode, data)
    if ok and type(task) == 'table' and type(task.url) == 'string' then redis.call('LREM', list, 0, task.url) end
  end
end
`;

/**
 * Takes finished URLs for a recrawl, oldest first per state. KEYS: task hash (URL hash -> job data),
 * counts hash, receipt key (unique per call), the three reason hashes (by URL, skip reasons,
 * failure reasons: see REASON_HELPERS), then one finished zset per state. ARGV: cutoff ms, limit,
 * receipt TTL ms, the examples lists' prefix, then the state names in the order of their zsets.
 * Each taken URL leaves its zset, its state's count and its reason's; returns the job data of each
 * (hashes are binary and are recomputed by the caller rather than decoded as text). The answer is
 * kept under the receipt until the caller deletes it, so the same call resent after a lost reply (a
 * Redis restart) gets the same URLs back instead of taking more and losing the first ones.
 */
export const TAKE_FINISHED = new LuaScript(`${REASON_HELPERS}
local receipt = redis.call('GET', KEYS[3])
if receipt then return cjson.decode(receipt) end
local r = { by = KEYS[4], skipped = KEYS[5], failed = KEYS[6], examples = ARGV[4] }
local cutoff, left = ARGV[1], tonumber(ARGV[2])
local out = {}
for i = 7, #KEYS do
  if left <= 0 then break end
  local state = ARGV[i - 2]
  local members = redis.call('ZRANGEBYSCORE', KEYS[i], '-inf', cutoff, 'LIMIT', 0, left)
  for _, member in ipairs(members) do
    local data = redis.call('HGET', KEYS[1], member)
    redis.call('ZREM', KEYS[i], member)
    redis.call('HINCRBY', KEYS[2], state, -1)
    uncountReason(r, member, state, data)
    if data then
      out[#out + 1] = data
      left = left - 1
    end
  end
end
if #out > 0 then redis.call('SET', KEYS[3], cjson.encode(out), 'PX', ARGV[3]) end
return out
`);
