/**
 * Exact duplicates: pages whose main text has the same fingerprint are one document, stored under
 * one URL. The store maps each fingerprint to the URL that holds it, shared by every crawler
 * process (SQLite table or Redis hash beside the crawl frontier) and kept across restarts.
 */

/** A URL offered as the holder of a text. */
export interface FingerprintCandidate {
  readonly url: string;
  /** The page names itself in `<link rel="canonical">`: it wins over a shorter URL. */
  readonly canonical: boolean;
}

/** The answer to a claim: who holds the text now, and whom the claim displaced. */
export interface FingerprintClaim {
  /** The URL that holds the text now: the candidate, or a better URL that held it already. */
  readonly owner: string;
  /** The URL the candidate displaced (its document must leave the index), or null. */
  readonly replaced: string | null;
}

/** Maps text fingerprints to the URL whose document holds that text. */
export interface FingerprintStore {
  /**
   * Offers `candidate` as the holder of `fingerprint`, atomically across processes. It becomes the
   * holder when there is none, when it is the holder, or when it is preferred to the holder
   * ({@link preferredHolder}: a self-canonical URL first, then the shorter, then the smaller string).
   */
  claim(fingerprint: string, candidate: FingerprintCandidate): Promise<FingerprintClaim>;
  /** The URL that holds `fingerprint` now, or null. */
  holder(fingerprint: string): Promise<string | null>;
  /** Forgets `fingerprint` when `url` holds it (its text changed or it left the index). */
  release(fingerprint: string, url: string): Promise<void>;
}

/**
 * Whether `a` is preferred to `b` as the URL of one text: a page that names itself canonical,
 * then the shorter URL (`/` over `/index.html` and `/?edition=usa`), then the smaller string, so
 * every process decides alike. Each backend implements the same rule in its own atomic step.
 */
export function preferredHolder(a: FingerprintCandidate, b: FingerprintCandidate): boolean {
  if (a.canonical !== b.canonical) return a.canonical;
  if (a.url.length !== b.url.length) return a.url.length < b.url.length;
  return a.url < b.url;
}
