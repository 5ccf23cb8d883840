export { Crawler, type CrawlerOptions } from './crawler.js';
export { createExtractPool, type ExtractPool } from './extract-pool.js';
export { type IndexerOptions, startIndexer } from './indexer.js';
export { LlmsTxtCache } from './llms-cache.js';
export { createPageHandler, followUps, type PageHandlerDeps, seedMeta } from './page-handler.js';
export * from './seeds.js';
