import { classifyLlmsTxt } from '@quarry/extract';
import type { Fetcher } from '@quarry/fetcher';

/** How long an origin's llms.txt verdict is kept. @defaultValue 24 hours */
export const LLMS_TXT_TTL_MS = 24 * 3_600_000;
/** Origins remembered at once; the oldest is dropped beyond. */
const MAX_ORIGINS = 10_000;

/**
 * Whether each origin serves a real `/llms.txt`, asked once per origin per TTL (concurrent callers
 * share one request). Fetch failures count as "no llms.txt" and are cached like any answer.
 */
export class LlmsTxtCache {
  readonly #fetcher: Fetcher;
  readonly #ttlMs: number;
  readonly #entries = new Map<string, { value: Promise<boolean>; expiresAt: number }>();

  constructor(options: { fetcher: Fetcher; ttlMs?: number }) {
    this.#fetcher = options.fetcher;
    this.#ttlMs = options.ttlMs ?? LLMS_TXT_TTL_MS;
  }

  has(pageUrl: string): Promise<boolean> {
    const origin = new URL(pageUrl).origin;
    const now = Date.now();
    const cached = this.#entries.get(origin);
    if (cached && cached.expiresAt > now) return cached.value;
    const value = this.#check(origin);
    this.#entries.delete(origin);
    this.#entries.set(origin, { value, expiresAt: now + this.#ttlMs });
    if (this.#entries.size > MAX_ORIGINS) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return value;
  }

  async #check(origin: string): Promise<boolean> {
    const requestedUrl = `${origin}/llms.txt`;
    try {
      const res = await this.#fetcher.fetch(requestedUrl, { throwOnHttpError: false, maxBodyBytes: 1_048_576 });
      return classifyLlmsTxt({
        status: res.status,
        contentType: res.contentType || null,
        body: res.body.toString('utf8'),
        requestedUrl,
        finalUrl: res.finalUrl,
      }).isLlmsTxt;
    } catch {
      return false;
    }
  }
}
