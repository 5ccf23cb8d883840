export { type AddressPolicy, createAddressPolicy, embeddedIPv4, isPublicAddress } from './address-policy.js';
export { isProbablyBinary } from './binary.js';
export { prescanMetaCharset, resolveEncodingLabel } from './charset.js';
export { type ParsedContentType, parseContentType } from './content-type.js';
export { type CharsetSource, type DecodedHtml, type DecodeHtmlOptions, decodeHtml } from './decode.js';
export {
  BlockedAddressError,
  FETCH_ERROR_CODES,
  type FetchErrorCode,
  httpErrorCode,
  isRetryableStatus,
} from './errors.js';
export {
  createFetcher,
  DEFAULT_USER_AGENT,
  type Fetcher,
  type FetcherOptions,
  type FetchRequestOptions,
  type FetchResult,
} from './fetcher.js';
export { createGuardedLookup, type GuardedLookup, refusedAddress } from './guard.js';
export { parseRetryAfter } from './retry-after.js';
export { type ParsedRobots, parseRobotsTxt, productToken, robotsAllows } from './robots.js';
export { RobotsCache, type RobotsCacheOptions, type RobotsVerdict } from './robots-cache.js';
export { decodeRobotsRecord, type RobotsRecord, type RobotsStore } from './robots-store.js';
export { type RobotsTag, robotsTagOf } from './robots-tag.js';
export {
  fetchSitemapUrls,
  parseSitemap,
  readSitemapResponse,
  type SitemapContent,
  type SitemapOptions,
} from './sitemap.js';
export { MemoryTtlStore, type MemoryTtlStoreOptions, type TtlEntry, type TtlStore } from './ttl-store.js';
