import { createHash } from 'node:crypto';
import { filetypeFamily } from '@quarry/core';

/**
 * The exact-duplicate fingerprint of a page's title and main text: SHA-256 (base64url) of the two
 * after NFKC, case folding and collapsing every run of whitespace to one space. Two URLs whose
 * extracted title and text give the same fingerprint are one page: it is stored once (see
 * `duplicates.ts`). Byte differences outside them (navigation, scripts, a tracking parameter) never
 * reach it. The title counts because a page's headline is taken out of its text: pages of one
 * template with one paragraph (a glossary's stubs, a product's variants, 176 pages of a site that
 * differed in their `<h1>` alone) were stored as one, the others skipped as duplicates of it.
 *
 * A document's fingerprint also holds its `filetype:` family (pdf, doc, ppt, xls), so that a report
 * published as a PDF and as a Word file, or as a web page and a PDF, keeps each: merged, `filetype:pdf`
 * found nothing when the Word file held the text. Results still show them once (near-copies collapse).
 * A web page's fingerprint is the text's alone, as before.
 */
export function textFingerprint(title: string, bodyText: string, filetype = 'html'): string {
  const family = filetypeFamily(filetype);
  const hash = createHash('sha256');
  if (family !== null) hash.update(`${family}\n`);
  return hash
    .update(`${folded(title)}\n`)
    .update(folded(bodyText))
    .digest('base64url');
}

function folded(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}
