import { BackendUnavailableError } from '@quarry/core';
import type { Redis } from 'ioredis';
import { settlesWithin } from './util.js';

/** How long the figures of an out-of-memory message are waited for before it goes without them. */
const INFO_TIMEOUT_MS = 1_000;

const OOM_REPLY = /^OOM /;

/** Causes of an error looked through for a refusal (a handler's error wrapping a queue call's). */
const MAX_CAUSES = 3;

/**
 * Whether an error is (or was caused by) a Redis at its `maxmemory` refusing a write: the OOM reply
 * of a command or script, or the EXECABORT of a MULTI one of whose commands was refused so. Such a
 * Redis answers reads, so it looks up, but records nothing: treat it as unavailable, not as a bug.
 */
export function isRedisOutOfMemoryError(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth <= MAX_CAUSES; e = e.cause, depth++) {
    if (e instanceof RedisOutOfMemoryError || OOM_REPLY.test(e.message)) return true;
    const previous = (e as { previousErrors?: unknown }).previousErrors;
    if (
      e.message.startsWith('EXECABORT') &&
      Array.isArray(previous) &&
      previous.some((p) => p instanceof Error && OOM_REPLY.test(p.message))
    ) {
      return true;
    }
  }
  return false;
}

/** A Redis that refuses writes at its `maxmemory`, said in words with what to do. */
export class RedisOutOfMemoryError extends BackendUnavailableError {
  constructor(figures: string | undefined, cause?: unknown) {
    super(
      `Redis is out of memory (${figures ?? 'maxmemory reached'}) and refuses every write, so nothing is ` +
        'queued or recorded: give it more (CONFIG SET maxmemory, and in its configuration) or free some, ' +
        'see "Distributed mode" in docs/operations.md',
      cause,
    );
    this.name = 'RedisOutOfMemoryError';
  }
}

/**
 * A {@link RedisOutOfMemoryError} with the server's figures (`maxmemory 100.00M, policy
 * noeviction`), read with INFO, which such a Redis still answers; without them when it does not
 * answer within a second. The memory used is left out: the same refusal gives the same message, so
 * that a log counts its repeats instead of writing a line for each.
 */
export async function redisOutOfMemory(redis: Pick<Redis, 'info'>, cause?: unknown): Promise<RedisOutOfMemoryError> {
  const info = redis.info('memory').catch(() => '');
  const text = (await settlesWithin(info, INFO_TIMEOUT_MS)) ? await info : '';
  const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(text)?.[1]?.trim();
  const max = field('maxmemory_human');
  const policy = field('maxmemory_policy');
  const figures =
    max && Number(field('maxmemory')) > 0 ? `maxmemory ${max}${policy ? `, policy ${policy}` : ''}` : undefined;
  return new RedisOutOfMemoryError(figures, cause);
}

/**
 * Whether Redis takes writes: sets `key` (a few bytes, expiring in a minute). Resolves when it
 * does; rejects with a {@link RedisOutOfMemoryError} when it refuses for memory, else with the error.
 * A PING cannot tell: a Redis at its maxmemory answers it, and reads, while every write fails.
 */
export async function probeRedisWrites(redis: Pick<Redis, 'set' | 'info'>, key: string): Promise<void> {
  try {
    await redis.set(key, String(Date.now()), 'PX', 60_000);
  } catch (err) {
    throw isRedisOutOfMemoryError(err) ? await redisOutOfMemory(redis, err) : err;
  }
}
