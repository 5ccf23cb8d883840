import type { TtlStore } from './ttl-store.js';

/**
 * What fetching an origin's robots.txt yielded, in a form any process can store and read back:
 * the (capped) text to parse, or a verdict for the whole site with the reason reported for it.
 * Parsed rules are not shared: parsing is cheap and parsed objects do not cross processes.
 */
export type RobotsRecord =
  | { readonly kind: 'rules'; readonly body: string }
  | { readonly kind: 'allow_all'; readonly reason: string }
  | { readonly kind: 'disallow_all'; readonly reason: string };

/** Where {@link RobotsRecord}s are shared, keyed by origin (`https://example.com`). */
export type RobotsStore = TtlStore<RobotsRecord>;

const REASON = /^[a-z_]{1,64}$/;

/**
 * A {@link RobotsRecord} from untrusted JSON (a shared store another version may have written),
 * or null when it is not one.
 */
export function decodeRobotsRecord(raw: unknown): RobotsRecord | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const record = raw as Record<string, unknown>;
  if (record.kind === 'rules') {
    return typeof record.body === 'string' ? { kind: 'rules', body: record.body } : null;
  }
  if ((record.kind === 'allow_all' || record.kind === 'disallow_all') && typeof record.reason === 'string') {
    return REASON.test(record.reason) ? { kind: record.kind, reason: record.reason } : null;
  }
  return null;
}
