import { NonRetryableError, parseTimestamp } from '@quarry/core';
import { getDocumentProxy } from 'unpdf';
import { type PdfLine, type PdfRun, pdfLines, pdfParagraphs } from './pdf-layout.js';
import { checkPdfStreams } from './pdf-streams.js';
import type { DocumentContent } from './types.js';

/**
 * Text, Markdown and Info-dictionary properties of a PDF, page by page until `maxChars` is reached
 * or `maxReadMs` has passed since the call (the first page is always read): a document too slow to
 * read whole is indexed with its first pages rather than lost to the worker's timeout. The text
 * and Markdown are its paragraphs, rebuilt from its layout (pdf-layout.ts). A PDF whose streams
 * inflate past `maxInflatedBytes` is refused before pdf.js reads it (see pdf-streams.ts).
 */
export async function extractPdf(
  bytes: Uint8Array,
  maxChars: number,
  maxReadMs: number,
  maxInflatedBytes: number,
): Promise<DocumentContent> {
  const started = Date.now();
  checkPdfStreams(bytes, maxInflatedBytes);
  const pdf = await getDocumentProxy(new Uint8Array(bytes), {
    // Untrusted input: no eval'd font programs, no font loading, no console noise.
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).catch((error: unknown) => {
    // A PDF that opens only with a password (one with an owner password only is read).
    if ((error as Error | null)?.name === 'PasswordException') {
      throw new NonRetryableError('the PDF is encrypted with a password', 'document_encrypted', error);
    }
    throw error;
  });
  try {
    const pages: PdfLine[][] = [];
    let total = 0;
    // pdf.js finds a page by walking the page tree's kids: a tree of one node with thousands of
    // them (as simple writers lay a long document out) costs more for each page (5,000 pages took
    // 13 s, 20,000 read 750 pages in 20 s).
    for (let n = 1; n <= pdf.numPages && total < maxChars && (n === 1 || Date.now() - started < maxReadMs); n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const runs: PdfRun[] = [];
      for (const item of content.items) {
        if (!('str' in item)) continue;
        const [, , c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
        runs.push({ text: item.str, x, y, width: item.width, size: Math.hypot(c, d), eol: item.hasEOL });
        total += item.str.length;
      }
      page.cleanup();
      pages.push(pdfLines(runs));
    }
    const info = (await pdf.getMetadata()).info as Record<string, unknown> | undefined;
    const { text, markdown } = pdfParagraphs(pages);
    return {
      text,
      markdown,
      title: stringField(info?.Title),
      author: stringField(info?.Author),
      published_at: pdfDate(stringField(info?.CreationDate)),
    };
  } finally {
    await pdf.destroy();
  }
}

function stringField(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : text.slice(0, 1_000);
}

/**
 * Parses a PDF date (`D:YYYYMMDDHHmmSSOHH'mm'`, ISO 32000 7.9.4) to ISO 8601 UTC; null when it
 * is not one.
 */
export function pdfDate(value: string | null): string | null {
  if (value === null) return null;
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(Z|[+-])?(\d{2})?'?(\d{2})?'?/.exec(value);
  if (!m) return parseTimestamp(value);
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = m;
  const offset = sign === '+' || sign === '-' ? `${sign}${oh}:${om}` : 'Z';
  return parseTimestamp(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
}
