import { ConfigError } from '@quarry/core';
import type { Redis } from 'ioredis';

/**
 * Selects again the database the Redis URL names (`redis://host:6379/5`), so that a number the
 * server refuses fails here: ioredis only emits the refusal as an error event and goes on in
 * database 0, where the crawl would mix with whatever else lives there.
 */
export async function assertRedisDatabase(redis: Pick<Redis, 'options' | 'select'>): Promise<void> {
  const db = Number(redis.options.db ?? 0);
  if (db === 0) return;
  try {
    await redis.select(db);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ConfigError([
      `REDIS_URL names database ${db}, which this Redis refuses (${reason}); its \`databases\` setting allows fewer`,
    ]);
  }
}
