import { type Filetype, filetypeFromUrl } from '@quarry/core';
import { parse as parseDisposition } from 'content-disposition';
import { looksLikePdf, OLE_MAGIC, ZIP_MAGIC } from './pdf-sniff.js';

// Where a URL's extension names a filetype: shared with the fallback's `filetype:` check.
export { filetypeFromUrl };

/** MIME types of the documents Quarry extracts, with the filetype each one means. */
export const DOCUMENT_MIME_TYPES: Readonly<Record<string, Filetype>> = Object.freeze({
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/mspowerpoint': 'ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.ms-excel': 'xls',
  'application/msexcel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
});

const PAGE_MIME_TYPES: Readonly<Record<string, Filetype>> = {
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/x-markdown': 'md',
};

/**
 * The filetype a Content-Type header names (parameters and case ignored), or null for anything
 * Quarry does not index.
 *
 * @example filetypeFromContentType('application/PDF; qs=0.9') // 'pdf'
 */
export function filetypeFromContentType(mime: string | null): Filetype | null {
  if (mime === null) return null;
  const essence = mime.split(';')[0]?.trim().toLowerCase() ?? '';
  return DOCUMENT_MIME_TYPES[essence] ?? PAGE_MIME_TYPES[essence] ?? null;
}

/**
 * The filetype the file name of a `Content-Disposition` header names (`attachment;
 * filename="Report 2025.pdf"`, RFC 6266, `filename*` preferred), or null: how a download link
 * (`/download?id=7`) served as `application/octet-stream` says what it is.
 */
export function filetypeFromDisposition(header: string | undefined): Filetype | null {
  if (!header) return null;
  let name: string | undefined;
  try {
    name = parseDisposition(header).parameters.filename;
  } catch {
    return null;
  }
  return name ? filetypeFromUrl(`http://file.invalid/${encodeURIComponent(name)}`) : null;
}

/**
 * What a response's bytes show they are when nothing else says: a PDF, an Office file (an OLE2
 * container, or a zip package whose first entry is an Office or OpenDocument part; read as a `doc`,
 * and typed by what it holds when read, see readDocument), or nothing known (any other zip).
 */
export function sniffFiletype(bytes: Uint8Array): Filetype | null {
  if (looksLikePdf(bytes)) return 'pdf';
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 64));
  if (head.subarray(0, 8).equals(OLE_MAGIC)) return 'doc';
  if (!head.subarray(0, 4).equals(ZIP_MAGIC) || head.length < 30) return null;
  // A zip's first local header: the entry name's length at 26, the name from 30.
  const name = head.subarray(30, 30 + head.readUInt16LE(26)).toString('latin1');
  return OFFICE_FIRST_ENTRY.test(name) ? 'doc' : null;
}

/** The parts an Office (OOXML) or OpenDocument package is written with first. */
const OFFICE_FIRST_ENTRY = /^(?:\[Content_Types\]\.xml|mimetype|_rels\/|docProps\/|word\/|xl\/|ppt\/)/;
