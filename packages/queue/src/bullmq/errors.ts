/** Failure reason of a task whose handler kept losing its Redis connection. */
export const REDIS_UNAVAILABLE = 'redis_unavailable';

/** Error replies of a Redis that is up but cannot serve yet (loading its data, a failover). */
const NOT_READY_REPLY = /^(LOADING|READONLY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN) /;

/**
 * Whether a handler error is Redis going away under a queue call (a restart, a failover), not the
 * page: ioredis's AbortError for a command cut off mid-pipeline, a connection closed for good or out
 * of retries, or a Redis not ready yet. Such a task is retried like a timeout, not failed as `internal`.
 */
export function isRedisConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  switch (err.name) {
    case 'AbortError':
      return 'command' in err; // ioredis's, not a DOM AbortError of a fetch
    case 'MaxRetriesPerRequestError':
      return true;
    case 'ReplyError':
      return NOT_READY_REPLY.test(err.message);
    default:
      return err.message === 'Connection is closed.';
  }
}
