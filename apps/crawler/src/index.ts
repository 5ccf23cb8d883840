export { BACKOFF_SHOWN_MS, BackoffWatch } from './backoffs.js';
export { Crawler, type CrawlerOptions, type SeedStanding } from './crawler.js';
export { createExtractPool, type ExtractPool } from './extract-pool.js';
export { crawlIdle, waitUntilCrawlIdle } from './idle.js';
export { type IndexerOptions, startIndexer } from './indexer.js';
export { LLMS_TXT_TTL_MS, type LlmsStore, LlmsTxtCache, type LlmsTxtCacheOptions } from './llms-cache.js';
export { createPageHandler, type PageHandlerDeps } from './page-handler.js';
export { RECRAWL_STATES, type RecrawlSchedule, recrawlOlderThan, scheduleRecrawls } from './recrawl.js';
export {
  createRedisCrawlCaches,
  type RedisCrawlCaches,
  type RedisCrawlCachesOptions,
  RedisTtlStore,
  type RedisTtlStoreOptions,
} from './redis-caches.js';
export * from './seeds.js';
