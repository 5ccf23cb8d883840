/** `%PDF-` may follow some junk; readers look for it in the first kilobyte. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-');
}
