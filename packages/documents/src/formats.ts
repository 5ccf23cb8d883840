import { NonRetryableError, parseTimestamp } from '@quarry/core';
import type XLSX from 'xlsx';
import { oleSummary, openOle, pptText } from './ole.js';
import { ooxmlCoreProperties, pptxText, rezip, unzipBounded } from './ooxml.js';
import { looksLikePdf } from './pdf-sniff.js';
import type { DocumentFiletype, ExtractedDocument } from './types.js';

/** The limits the format readers need (resolved, no defaults left). */
export interface ReaderLimits {
  readonly maxTextChars: number;
  readonly maxUnzippedBytes: number;
}

type Container = 'pdf' | 'ole' | 'zip';

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_MAGIC = Buffer.from('PK\u0003\u0004', 'latin1');
/** Rows read per sheet: enough for any table meant to be read, bounded for hostile ones. */
const MAX_SHEET_ROWS = 100_000;

/** Which container the bytes really are, whatever the URL or Content-Type claimed. */
function sniff(bytes: Uint8Array): Container | null {
  const head = Buffer.from(bytes.subarray(0, 8));
  if (head.equals(OLE_MAGIC)) return 'ole';
  if (head.subarray(0, 4).equals(ZIP_MAGIC)) return 'zip';
  if (looksLikePdf(bytes)) return 'pdf';
  return null;
}

/**
 * Reads one document in the current thread, dispatching on the real container: a `.doc` that is
 * really a .docx (or a `.xls` that is an .xlsx) is read as what it is. Unbounded in time: callers
 * run it in a worker (see extract.ts).
 */
export async function readDocument(
  bytes: Uint8Array,
  filetype: DocumentFiletype,
  limits: ReaderLimits,
): Promise<ExtractedDocument> {
  const container = sniff(bytes);
  // Parsers load on demand: a worker reading one .docx should not pay for pdf.js.
  if (container === 'pdf') return (await import('./pdf.js')).extractPdf(bytes, limits.maxTextChars);
  if (container === null || filetype === 'pdf') {
    throw new NonRetryableError(`not a ${filetype} file`, 'document_unreadable');
  }
  switch (filetype) {
    case 'doc':
    case 'docx':
      return container === 'zip' ? readDocx(bytes, limits) : readDoc(bytes);
    case 'ppt':
    case 'pptx':
      return container === 'zip' ? readPptx(bytes, limits) : readPpt(bytes, limits);
    case 'xls':
    case 'xlsx':
      return readSheets(container === 'zip' ? rezip(unzipBounded(bytes, limits.maxUnzippedBytes)) : bytes, limits);
    default:
      throw new NonRetryableError(`not a document type: ${String(filetype)}`, 'unsupported_filetype');
  }
}

async function readDocx(bytes: Uint8Array, limits: ReaderLimits): Promise<ExtractedDocument> {
  const entries = unzipBounded(bytes, limits.maxUnzippedBytes);
  if (!entries['word/document.xml']) throw new Error('not a Word package');
  const { default: mammoth } = await import('mammoth');
  const { value } = await mammoth.extractRawText({ buffer: Buffer.from(rezip(entries)) });
  return { text: value, ...ooxmlCoreProperties(entries) };
}

async function readDoc(bytes: Uint8Array): Promise<ExtractedDocument> {
  const { default: WordExtractor } = await import('word-extractor');
  const doc = await new WordExtractor().extract(Buffer.from(bytes));
  const text = [doc.getBody(), doc.getFootnotes(), doc.getEndnotes()].filter((t) => t.trim() !== '').join('\n\n');
  return { text, ...oleSummary(openOle(bytes)) };
}

function readPptx(bytes: Uint8Array, limits: ReaderLimits): ExtractedDocument {
  const entries = unzipBounded(bytes, limits.maxUnzippedBytes);
  return { text: pptxText(entries, limits.maxTextChars), ...ooxmlCoreProperties(entries) };
}

function readPpt(bytes: Uint8Array, limits: ReaderLimits): ExtractedDocument {
  const ole = openOle(bytes);
  return { text: pptText(ole, limits.maxTextChars), ...oleSummary(ole) };
}

async function readSheets(bytes: Uint8Array, limits: ReaderLimits): Promise<ExtractedDocument> {
  const { default: XLSX } = await import('xlsx');
  const book = XLSX.read(bytes, {
    type: 'buffer',
    sheetRows: MAX_SHEET_ROWS,
    cellFormula: false,
    cellHTML: false,
    cellStyles: false,
    bookVBA: false,
  });
  const parts: string[] = [];
  let total = 0;
  for (const name of book.SheetNames) {
    if (total >= limits.maxTextChars) break;
    const sheet = book.Sheets[name];
    if (!sheet) continue;
    const text = sheetText(XLSX, sheet);
    parts.push(text);
    total += text.length;
  }
  const props = book.Props;
  return {
    text: parts.join('\n\n'),
    title: props?.Title?.trim() || null,
    author: props?.Author?.trim() || null,
    published_at: parseTimestamp(props?.CreatedDate ?? null),
  };
}

/**
 * One sheet as tab-separated lines. Walks the cells that exist rather than the declared range,
 * so a sheet claiming a million empty columns costs nothing.
 */
function sheetText(xlsx: typeof XLSX, sheet: XLSX.WorkSheet): string {
  const rows = new Map<number, { c: number; text: string }[]>();
  for (const address of Object.keys(sheet)) {
    if (address.startsWith('!')) continue;
    const cell = sheet[address] as XLSX.CellObject | undefined;
    if (!cell || cell.t === 'z') continue;
    const text = xlsx.utils.format_cell(cell).trim();
    if (text === '') continue;
    const { r, c } = xlsx.utils.decode_cell(address);
    const row = rows.get(r) ?? [];
    row.push({ c, text });
    rows.set(r, row);
  }
  return [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, cells]) =>
      cells
        .sort((a, b) => a.c - b.c)
        .map((cell) => cell.text)
        .join('\t'),
    )
    .join('\n');
}
