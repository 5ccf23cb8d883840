/** Bytes examined; the WHATWG MIME sniffing spec looks at the first 1445, a little more is cheap. */
const SNIFF_BYTES = 4096;

/** Leading bytes of common binary formats that servers mislabel as text/html. */
const MAGIC: readonly number[][] = [
  [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0x47, 0x49, 0x46, 0x38], // GIF8
  [0xff, 0xd8, 0xff], // JPEG
  [0x50, 0x4b, 0x03, 0x04], // ZIP, docx, xlsx, epub
  [0x1f, 0x8b], // gzip (a body compressed twice, or a .gz file)
  [0x42, 0x5a, 0x68], // bzip2
  [0x37, 0x7a, 0xbc, 0xaf], // 7z
  [0xfd, 0x37, 0x7a, 0x58, 0x5a], // xz
  [0x52, 0x61, 0x72, 0x21], // rar
  [0x52, 0x49, 0x46, 0x46], // RIFF: webp, wav, avi
  [0x4f, 0x67, 0x67, 0x53], // ogg
  [0x49, 0x44, 0x33], // mp3 with ID3
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0x00, 0x61, 0x73, 0x6d], // wasm
  [0xd0, 0xcf, 0x11, 0xe0], // OLE2: doc, xls, ppt
  [0x77, 0x4f, 0x46, 0x32], // woff2
];

function startsWith(buffer: Uint8Array, magic: readonly number[]): boolean {
  return magic.length <= buffer.length && magic.every((byte, i) => buffer[i] === byte);
}

/** WHATWG MIME sniffing's "binary data byte": a control byte that text never needs. */
function isBinaryDataByte(byte: number): boolean {
  return byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f);
}

/**
 * Whether a body served as text is really binary (an image, archive, PDF...): a known file
 * signature, or more than a few control bytes near the start (NUL among them: a stray NUL in a
 * page's title, from a database field, is still a page, which browsers show). UTF-16 text with a
 * byte order mark counts as text, and so does a body whose Content-Type declares UTF-16 (`charset`),
 * half of whose bytes are NUL in Latin text, unless it opens with a file signature.
 */
export function isProbablyBinary(buffer: Uint8Array, charset?: string): boolean {
  if (buffer.length === 0) return false;
  const head = buffer.subarray(0, SNIFF_BYTES);
  if (startsWith(head, [0xfe, 0xff]) || startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xef, 0xbb, 0xbf])) {
    return false;
  }
  if (MAGIC.some((magic) => startsWith(head, magic))) return true;
  if (/^utf-?16(?:le|be)?$/i.test(charset?.trim() ?? '')) return false;
  let controls = 0;
  for (const byte of head) if (isBinaryDataByte(byte)) controls++;
  // A stray NUL, form feed or SUB in old pages is tolerated; 1% of the sample is not text.
  return controls > Math.max(2, head.length / 100);
}
