import type { Queues } from '@quarry/queue';

/** Whether the crawl has nothing queued or in flight and no page waits to be indexed. */
export async function crawlIdle(queues: Queues): Promise<boolean> {
  const [crawlIdleNow, index] = await Promise.all([queues.crawl.isIdle(), queues.index.stats()]);
  return crawlIdleNow && index.waiting + index.active === 0;
}

/**
 * Waits until the crawl is idle twice in a row (a page in hand between two looks keeps it busy),
 * polling every `pollMs`; resolves false when `timeoutMs` passes first.
 */
export async function waitUntilCrawlIdle(
  queues: Queues,
  { timeoutMs, pollMs }: { readonly timeoutMs: number; readonly pollMs: number },
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let idleRounds = 0;
  while (idleRounds < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    idleRounds = (await crawlIdle(queues)) ? idleRounds + 1 : 0;
  }
  return idleRounds >= 2;
}
