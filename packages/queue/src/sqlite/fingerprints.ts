import type Database from 'better-sqlite3';
import {
  type FingerprintCandidate,
  type FingerprintClaim,
  type FingerprintStore,
  preferredHolder,
} from '../fingerprints.js';

interface Row {
  url: string;
  canonical: number;
}

/** The embedded {@link FingerprintStore}: the `fingerprints` table of the queue database. */
export class SqliteFingerprintStore implements FingerprintStore {
  readonly #claim: (fingerprint: string, candidate: FingerprintCandidate) => FingerprintClaim;
  readonly #holder: Database.Statement<[string], Row>;
  readonly #release: Database.Statement<[string, string]>;

  constructor(db: Database.Database) {
    const get = db.prepare<[string], Row>('SELECT url, canonical FROM fingerprints WHERE fingerprint = ?');
    const put = db.prepare<[string, string, number]>(
      'INSERT OR REPLACE INTO fingerprints (fingerprint, url, canonical) VALUES (?, ?, ?)',
    );
    const claim = db.transaction((fingerprint: string, candidate: FingerprintCandidate): FingerprintClaim => {
      const row = get.get(fingerprint);
      const held = row ? { url: row.url, canonical: row.canonical === 1 } : null;
      if (held && held.url !== candidate.url && !preferredHolder(candidate, held)) {
        return { owner: held.url, replaced: null };
      }
      put.run(fingerprint, candidate.url, candidate.canonical ? 1 : 0);
      return { owner: candidate.url, replaced: held && held.url !== candidate.url ? held.url : null };
    });
    // IMMEDIATE: other processes sharing the file wait instead of racing between read and write.
    this.#claim = (fingerprint, candidate) => claim.immediate(fingerprint, candidate);
    this.#holder = get;
    this.#release = db.prepare('DELETE FROM fingerprints WHERE fingerprint = ? AND url = ?');
  }

  async claim(fingerprint: string, candidate: FingerprintCandidate): Promise<FingerprintClaim> {
    return this.#claim(fingerprint, candidate);
  }

  async holder(fingerprint: string): Promise<string | null> {
    return this.#holder.get(fingerprint)?.url ?? null;
  }

  async release(fingerprint: string, url: string): Promise<void> {
    this.#release.run(fingerprint, url);
  }
}
