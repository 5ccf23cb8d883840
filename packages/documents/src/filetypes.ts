import { type Filetype, filetypeFromUrl } from '@quarry/core';
import { parse as parseDisposition } from 'content-disposition';
import { looksLikePdf } from './pdf-sniff.js';

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

/** What a response's bytes show they are when nothing else says: a PDF, or nothing known. */
export function sniffFiletype(bytes: Uint8Array): Filetype | null {
  return looksLikePdf(bytes) ? 'pdf' : null;
}
