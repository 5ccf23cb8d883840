import { parseTimestamp } from '@quarry/core';
import { getDocumentProxy } from 'unpdf';
import { type PdfLine, type PdfRun, pdfLines, pdfMarkdown } from './pdf-layout.js';
import type { ExtractedDocument } from './types.js';

/** Text and Info-dictionary properties of a PDF, page by page until `maxChars` is reached. */
export async function extractPdf(bytes: Uint8Array, maxChars: number): Promise<ExtractedDocument> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes), {
    // Untrusted input: no eval'd font programs, no font loading, no console noise.
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    const pages: string[] = [];
    const layout: PdfLine[][] = [];
    let total = 0;
    for (let n = 1; n <= pdf.numPages && total < maxChars; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      const runs: PdfRun[] = [];
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str + (item.hasEOL ? '\n' : '');
        const [, , c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
        runs.push({ text: item.str, x, y, width: item.width, size: Math.hypot(c, d), eol: item.hasEOL });
      }
      page.cleanup();
      pages.push(text);
      layout.push(pdfLines(runs));
      total += text.length;
    }
    const info = (await pdf.getMetadata()).info as Record<string, unknown> | undefined;
    const text = pages.join('\n\n');
    return {
      text,
      markdown: pdfMarkdown(layout),
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
