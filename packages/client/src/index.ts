export { CLIENT_DEFAULTS, parseRetryAfter, QuarryClient, type QuarryClientOptions } from './client.js';
export {
  type Problem,
  QuarryApiError,
  QuarryClientError,
  QuarryConnectionError,
  QuarryRateLimitError,
} from './errors.js';
export type {
  ContentOptions,
  ContentResponse,
  Passage,
  PortionOptions,
  PortionPlace,
  PortionResponse,
  SearchOptions,
  SearchResponse,
  SearchResult,
} from './types.js';
