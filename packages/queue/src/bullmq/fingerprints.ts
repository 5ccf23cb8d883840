import type { Redis } from 'ioredis';
import type { FingerprintCandidate, FingerprintClaim, FingerprintStore } from '../fingerprints.js';
import { LuaScript } from './scripts.js';

/**
 * Claim in one atomic step, with `preferredHolder`'s rule (canonical first, then the shorter URL,
 * then the smaller string; normalized URLs are ASCII, so Lua's byte order is JavaScript's).
 * KEYS: the hash. ARGV: fingerprint, URL, canonical flag (`1`/`0`). Values are `<flag><URL>`.
 * Returns { holder, displaced URL or '' }.
 */
const CLAIM = new LuaScript(`
local held = redis.call('HGET', KEYS[1], ARGV[1])
local url, flag = ARGV[2], ARGV[3]
if held then
  local hflag, hurl = string.sub(held, 1, 1), string.sub(held, 2)
  if hurl == url then
    redis.call('HSET', KEYS[1], ARGV[1], flag .. url)
    return { url, '' }
  end
  local better
  if flag ~= hflag then better = flag == '1'
  elseif #url ~= #hurl then better = #url < #hurl
  else better = url < hurl end
  if not better then return { hurl, '' } end
  redis.call('HSET', KEYS[1], ARGV[1], flag .. url)
  return { url, hurl }
end
redis.call('HSET', KEYS[1], ARGV[1], flag .. url)
return { url, '' }
`);

/** Forgets a fingerprint only when the given URL holds it. KEYS: the hash. ARGV: fingerprint, URL. */
const RELEASE = new LuaScript(`
local held = redis.call('HGET', KEYS[1], ARGV[1])
if held and string.sub(held, 2) == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0
`);

/** The distributed {@link FingerprintStore}: one Redis hash `<prefix>:crawl-state:fingerprints`. */
export class RedisFingerprintStore implements FingerprintStore {
  readonly #redis: Redis;
  readonly #key: string;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#key = `${prefix}:crawl-state:fingerprints`;
  }

  async claim(fingerprint: string, candidate: FingerprintCandidate): Promise<FingerprintClaim> {
    const flag = candidate.canonical ? '1' : '0';
    const [owner, replaced] = (await CLAIM.run(this.#redis, [this.#key], [fingerprint, candidate.url, flag])) as [
      string,
      string,
    ];
    return { owner, replaced: replaced === '' ? null : replaced };
  }

  async holder(fingerprint: string): Promise<string | null> {
    const held = await this.#redis.hget(this.#key, fingerprint);
    return held === null ? null : held.slice(1);
  }

  async release(fingerprint: string, url: string): Promise<void> {
    await RELEASE.run(this.#redis, [this.#key], [fingerprint, url]);
  }
}
