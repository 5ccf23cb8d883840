import { inflateSync, constants as zlib } from 'node:zlib';
import { NonRetryableError } from '@quarry/core';

/** How far before a `stream` keyword its dictionary is looked for. */
const MAX_DICTIONARY_BYTES = 4_096;
const STREAM_START = /\bstream\r?\n/g;
const FLATE = /\/(?:FlateDecode|Fl)\b/;
/** Pictures are never decoded for text (pdf.js reads only content, font and object streams). */
const PICTURE = /\/Subtype\s*\/Image\b|\/Type\s*\/XObject\s*\/Subtype\s*\/Image\b/;

/**
 * Inflates the compressed streams of a PDF that reading its text decodes (every Flate stream but
 * pictures), counting the bytes they hold, and stops with `document_too_large` once
 * `maxInflatedBytes` is passed. pdf.js inflates a page's content stream whole into typed arrays,
 * which the extraction thread's heap limit does not count: a one-page PDF of 2.6 MB whose content
 * stream deflates 2.5 GiB of spaces took 2.5 GB of memory before the timeout stopped it. Each
 * stream is inflated with at most the budget left as its output, so a bomb costs at most the
 * budget. A stream whose data does not inflate (another filter, a damaged one) is left to pdf.js.
 */
export function checkPdfStreams(bytes: Uint8Array, maxInflatedBytes: number): void {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // latin1 maps each byte to one character, so string offsets are byte offsets.
  const text = buffer.toString('latin1');
  let total = 0;
  for (const match of text.matchAll(STREAM_START)) {
    const start = match.index + match[0].length;
    const dictionary = text.slice(Math.max(0, match.index - MAX_DICTIONARY_BYTES), match.index);
    const opened = dictionary.lastIndexOf('obj');
    const own = opened === -1 ? dictionary : dictionary.slice(opened);
    if (!FLATE.test(own) || PICTURE.test(own)) continue;
    const end = text.indexOf('endstream', start);
    if (end === -1) break;
    const left = maxInflatedBytes - total;
    try {
      total += inflateSync(buffer.subarray(start, end), {
        maxOutputLength: left + 1,
        finishFlush: zlib.Z_SYNC_FLUSH,
      }).length;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') total = maxInflatedBytes + 1;
    }
    if (total > maxInflatedBytes) {
      throw new NonRetryableError(
        `the PDF's compressed streams inflate to more than ${maxInflatedBytes} bytes`,
        'document_too_large',
      );
    }
  }
}
