import type { Redis } from 'ioredis';
import type { LiftedSite } from '../forget.js';
import { type Keys, urlHash } from './crawl-state.js';
import { LuaScript } from './scripts.js';

// The forgotten sites of the distributed crawl, as `forget` records and `unforget` lifts them.

/** Finish times read per ZMSCORE call. */
const DONE_AT_BATCH = 500;

/**
 * Records forgotten sites in one atomic step. KEYS: forgotten sites zset, the sets of the sites
 * whose pages are to be removed and of those every forget of which kept them. ARGV: now ms, '1'
 * to remove the pages (else '0'), then the sites. A site keeps when it was first forgotten, and
 * leaves the kept set for good once a forget removes its pages (they may be gone).
 */
const FORGET_SITES = new LuaScript(`
local remove = ARGV[2] == '1'
for i = 3, #ARGV do
  local site = ARGV[i]
  if remove then
    redis.call('SADD', KEYS[2], site)
    redis.call('SREM', KEYS[3], site)
  else
    redis.call('SREM', KEYS[2], site)
    if not redis.call('ZSCORE', KEYS[1], site) then redis.call('SADD', KEYS[3], site) end
  end
  redis.call('ZADD', KEYS[1], 'NX', ARGV[1], site)
end
return 0
`);

/** Forgets the sites (see `CrawlQueue.forget`), recording whether their pages are to be removed. */
export async function forgetSites(
  redis: Redis,
  keys: Keys,
  sites: readonly string[],
  keepPages: boolean,
): Promise<void> {
  await FORGET_SITES.run(
    redis,
    [keys.forgottenSites, keys.forgottenRemoving, keys.forgottenKept],
    [Date.now(), keepPages ? '0' : '1', ...sites],
  );
}

/** Lifts those of the sites that are forgotten; each as it was forgotten (see `stillIndexed`). */
export async function liftSites(redis: Redis, keys: Keys, sites: readonly string[]): Promise<LiftedSite[]> {
  const [scores, kept] = await Promise.all([
    redis.zmscore(keys.forgottenSites, ...sites),
    redis.smismember(keys.forgottenKept, ...sites),
  ]);
  const lifted: LiftedSite[] = [];
  for (const [i, site] of sites.entries()) {
    // A site forgotten again meanwhile, with no score read, counts as just forgotten: fetched whole.
    const forgottenAt = Number(scores[i] ?? 0);
    if ((await redis.zrem(keys.forgottenSites, site)) > 0) lifted.push({ site, forgottenAt, pagesKept: kept[i] === 1 });
  }
  await redis.srem(keys.forgottenRemoving, ...sites);
  await redis.srem(keys.forgottenKept, ...sites);
  return lifted;
}

/** When each URL finished done, in ms (NaN for one that is not done). */
export async function doneAt(redis: Redis, keys: Keys, urls: readonly string[]): Promise<number[]> {
  const at: number[] = [];
  for (let i = 0; i < urls.length; i += DONE_AT_BATCH) {
    const hashes = urls.slice(i, i + DONE_AT_BATCH).map(urlHash);
    const scores = await redis.zmscore(keys.finished('done'), ...hashes);
    for (const score of scores) at.push(score === null ? Number.NaN : Number(score));
  }
  return at;
}
