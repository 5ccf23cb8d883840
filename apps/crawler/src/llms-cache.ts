import { classifyLlmsTxt, extractMarkdown } from '@quarry/extract';
import type { Fetcher, TtlEntry, TtlStore } from '@quarry/fetcher';

/** How long an origin's llms.txt verdict is kept. @defaultValue 24 hours */
export const LLMS_TXT_TTL_MS = 24 * 3_600_000;
/** Origins remembered at once; the oldest is dropped beyond. */
const MAX_ORIGINS = 10_000;
/** Origins whose listed pages wait to be taken; the oldest is dropped beyond. */
const MAX_LISTED_ORIGINS = 1_000;

/** Where llms.txt verdicts (true: the origin serves a real llms.txt) are shared, keyed by origin. */
export type LlmsStore = TtlStore<boolean>;

/** Options of {@link LlmsTxtCache}. */
export interface LlmsTxtCacheOptions {
  /** Fetches `/llms.txt` (its SSRF guard, timeouts and redirect limit apply). */
  readonly fetcher: Pick<Fetcher, 'fetch'>;
  /**
   * Whether robots.txt lets the crawler fetch a URL (RFC 9309 exempts only robots.txt itself): an
   * origin whose robots.txt disallows `/llms.txt` is not asked for it and counts as having none.
   * @defaultValue every URL allowed
   */
  readonly allowed?: (url: string) => Promise<boolean>;
  /** How long a verdict is trusted. @defaultValue {@link LLMS_TXT_TTL_MS} */
  readonly ttlMs?: number;
  /**
   * Where verdicts are shared with other caches (Redis in distributed mode): read before fetching,
   * written after. A failing store only means fetching.
   * @defaultValue none: this cache's own memory alone
   */
  readonly store?: LlmsStore;
  /** Clock in epoch milliseconds (tests pass a fake one). @defaultValue Date.now */
  readonly clock?: () => number;
}

/** When an entry expires; the lookup may bring it forward once it hears from the store. */
interface Expiry {
  at: number;
}

interface Entry {
  readonly value: Promise<boolean>;
  readonly expiry: Expiry;
}

/**
 * Whether each origin serves a real `/llms.txt`, asked once per origin per TTL (concurrent callers
 * share one request). Fetch failures count as "no llms.txt" and are cached like any answer. With a
 * `store`, caches of other processes sharing it ask once per TTL between them (two processes
 * missing at the same moment may both ask: no lock, by choice, as it costs one request each).
 */
export class LlmsTxtCache {
  readonly #fetcher: Pick<Fetcher, 'fetch'>;
  readonly #allowed: (url: string) => Promise<boolean>;
  readonly #ttlMs: number;
  readonly #store: LlmsStore | undefined;
  readonly #clock: () => number;
  readonly #entries = new Map<string, Entry>();
  /** The links of llms.txt files this cache fetched itself, by origin, until taken. */
  readonly #listed = new Map<string, string[]>();

  constructor(options: LlmsTxtCacheOptions) {
    this.#fetcher = options.fetcher;
    this.#allowed = options.allowed ?? (async () => true);
    this.#ttlMs = options.ttlMs ?? LLMS_TXT_TTL_MS;
    this.#store = options.store;
    this.#clock = options.clock ?? Date.now;
  }

  /** Whether the origin of `pageUrl` serves a real llms.txt. */
  has(pageUrl: string): Promise<boolean> {
    const origin = new URL(pageUrl).origin;
    const now = this.#clock();
    const cached = this.#entries.get(origin);
    if (cached && cached.expiry.at > now) return cached.value;
    const expiry: Expiry = { at: now + this.#ttlMs };
    // Stored before it settles, so that concurrent callers share it.
    const entry: Entry = { value: this.#lookup(origin, expiry), expiry };
    this.#entries.delete(origin);
    this.#entries.set(origin, entry);
    if (this.#entries.size > MAX_ORIGINS) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return entry.value;
  }

  /**
   * The pages the origin's llms.txt lists (absolute http(s) URLs), once: taken by the first caller
   * after this cache fetched the file itself. None when the file is not real, or when its verdict
   * came from the shared store (another process fetched it and queued them), so the site is asked
   * no more than for the verdict.
   */
  async takeListedPages(pageUrl: string): Promise<string[]> {
    if (!(await this.has(pageUrl))) return [];
    const origin = new URL(pageUrl).origin;
    const links = this.#listed.get(origin) ?? [];
    this.#listed.delete(origin);
    return links;
  }

  async #lookup(origin: string, expiry: Expiry): Promise<boolean> {
    const shared = await this.#readStore(origin);
    if (shared) {
      // Expire with the shared verdict, never later than this cache's own TTL.
      expiry.at = this.#clock() + Math.min(shared.ttlMs, this.#ttlMs);
      return shared.value;
    }
    const value = await this.#check(origin);
    await this.#writeStore(origin, value);
    return value;
  }

  // A store is an optimisation: whatever it does wrong, the answer comes from fetching.
  async #readStore(origin: string): Promise<TtlEntry<boolean> | null> {
    try {
      return (await this.#store?.get(origin)) ?? null;
    } catch {
      return null;
    }
  }

  async #writeStore(origin: string, value: boolean): Promise<void> {
    try {
      await this.#store?.set(origin, value, this.#ttlMs);
    } catch {
      // Ignored for the reason above; the next process asks for itself.
    }
  }

  async #check(origin: string): Promise<boolean> {
    try {
      if (!(await this.#allowed(`${origin}/llms.txt`))) return false;
      const file = await fetchLlmsTxt(this.#fetcher, origin);
      if (file === null) return false;
      this.#listed.set(origin, extractMarkdown(file.body, file.finalUrl).links);
      if (this.#listed.size > MAX_LISTED_ORIGINS) this.#listed.delete(this.#listed.keys().next().value ?? '');
      return true;
    } catch {
      return false;
    }
  }
}

/** How much of an llms.txt is read. */
const MAX_LLMS_TXT_BYTES = 1_048_576;
/**
 * How long an llms.txt may take, all told. The first page of each site waits for it (its
 * `has_llms_txt`), and a server that hangs on it would otherwise hold that page up for the
 * fetcher's own timeouts (15 s for the headers, more while a body trickles); a small text file
 * that takes longer counts as none, for a day.
 */
export const LLMS_TXT_TIMEOUT_MS = 5_000;

/**
 * The origin's `/llms.txt` when it is a real one (see `classifyLlmsTxt`): its text and the URL it
 * was served from; null otherwise. Throws when it cannot be fetched.
 */
async function fetchLlmsTxt(
  fetcher: Pick<Fetcher, 'fetch'>,
  origin: string,
): Promise<{ readonly body: string; readonly finalUrl: string } | null> {
  const requestedUrl = `${origin}/llms.txt`;
  // A larger file (an llms-full.txt served as llms.txt, say) is judged by its first MiB.
  const res = await fetcher.fetch(requestedUrl, {
    throwOnHttpError: false,
    maxBodyBytes: MAX_LLMS_TXT_BYTES,
    truncateBody: true,
    signal: AbortSignal.timeout(LLMS_TXT_TIMEOUT_MS),
  });
  const body = res.body.toString('utf8');
  const verdict = classifyLlmsTxt({
    status: res.status,
    contentType: res.contentType || null,
    body,
    requestedUrl,
    finalUrl: res.finalUrl,
  });
  return verdict.isLlmsTxt ? { body, finalUrl: res.finalUrl } : null;
}
