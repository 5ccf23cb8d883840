import { createHash } from 'node:crypto';
import { filetypeFamily } from '@quarry/core';

/**
 * The exact-duplicate fingerprint of a page's main text: SHA-256 (base64url) of the text after
 * NFKC, case folding and collapsing every run of whitespace to one space. Two URLs whose
 * extracted text gives the same fingerprint are one page: it is stored once (see `duplicates.ts`).
 * Byte differences outside the main text (navigation, scripts, a tracking parameter) never reach it.
 *
 * A document's fingerprint also holds its `filetype:` family (pdf, doc, ppt, xls), so that a report
 * published as a PDF and as a Word file, or as a web page and a PDF, keeps each: merged, `filetype:pdf`
 * found nothing when the Word file held the text. Results still show them once (near-copies collapse).
 * A web page's fingerprint is the text's alone, as before.
 */
export function textFingerprint(bodyText: string, filetype = 'html'): string {
  const folded = bodyText.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
  const family = filetypeFamily(filetype);
  const hash = createHash('sha256');
  if (family !== null) hash.update(`${family}\n`);
  return hash.update(folded).digest('base64url');
}
