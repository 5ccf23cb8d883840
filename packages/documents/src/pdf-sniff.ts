/** `%PDF-` may follow some junk; readers look for it in the first kilobyte. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-');
}

/** How an OLE2 container (doc, xls, ppt) starts. */
export const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** How a zip (docx, xlsx, pptx, OpenDocument) starts: its first local file header. */
export const ZIP_MAGIC = Buffer.from('PK\u0003\u0004', 'latin1');
