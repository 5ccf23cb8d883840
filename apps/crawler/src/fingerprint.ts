import { createHash } from 'node:crypto';

/**
 * The exact-duplicate fingerprint of a page's main text: SHA-256 (base64url) of the text after
 * NFKC, case folding and collapsing every run of whitespace to one space. Two URLs whose
 * extracted text gives the same fingerprint are one page: it is stored once (see `duplicates.ts`).
 * Byte differences outside the main text (navigation, scripts, a tracking parameter) never reach it.
 */
export function textFingerprint(bodyText: string): string {
  const folded = bodyText.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
  return createHash('sha256').update(folded).digest('base64url');
}
