import type { Filetype } from '@quarry/core';

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
});

const PAGE_MIME_TYPES: Readonly<Record<string, Filetype>> = {
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'txt',
};

const EXTENSIONS: Readonly<Record<string, Filetype>> = {
  pdf: 'pdf',
  doc: 'doc',
  docx: 'docx',
  ppt: 'ppt',
  pptx: 'pptx',
  xls: 'xls',
  xlsx: 'xlsx',
  txt: 'txt',
  htm: 'html',
  html: 'html',
  xhtml: 'html',
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
 * The filetype the URL's path extension names (query and fragment ignored), or null when the
 * path has no known extension.
 *
 * @example filetypeFromUrl('https://example.com/Report.PDF?download=1') // 'pdf'
 */
export function filetypeFromUrl(url: string): Filetype | null {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const match = /\.([a-z0-9]{1,5})$/i.exec(path);
  return match?.[1] ? (EXTENSIONS[match[1].toLowerCase()] ?? null) : null;
}
