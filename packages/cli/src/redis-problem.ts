/** How long the figures of Redis's memory are waited for before the message goes without them. */
const CONNECT_TIMEOUT_MS = 1_000;

/**
 * The words for a command that failed because Redis refuses writes at its maxmemory (its OOM
 * reply, or a MULTI's EXECABORT), with the server's figures: `Redis is out of memory (maxmemory
 * 100.00M, policy noeviction) and refuses every write…`. Null for any other error. The queue
 * package loads only for an error that may be one (a command's failure, never its normal run).
 */
export async function redisOutOfMemoryProblem(error: unknown, redisUrl: string | undefined): Promise<string | null> {
  if (!redisUrl || !(error instanceof Error) || !/OOM|EXECABORT/.test(String(error.message))) return null;
  const [{ isRedisOutOfMemoryError, redisOutOfMemory }, { Redis }] = await Promise.all([
    import('@quarry/queue'),
    import('ioredis'),
  ]);
  if (!isRedisOutOfMemoryError(error)) return null;
  const client = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    return (await redisOutOfMemory(client, error)).message;
  } finally {
    client.disconnect();
  }
}
