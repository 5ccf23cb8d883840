import { filetypeFamily, NonRetryableError, parseTimestamp } from '@quarry/core';
import type XLSX from 'xlsx';
import { readDocx } from './docx.js';
import { escapeLineStart, markdownTable } from './markdown-table.js';
import { odfKind, odfMetadata, readOdp, readOdt } from './odf.js';
import { oleKind, oleSummary, openOle, pptText } from './ole.js';
import { ooxmlCoreProperties, rezip, unzipBounded, type ZipEntries } from './ooxml.js';
import { looksLikePdf, OLE_MAGIC, ZIP_MAGIC } from './pdf-sniff.js';
import { pptxSlides } from './pptx.js';
import type { DocumentContent, DocumentFiletype, ExtractedDocument } from './types.js';

/** The limits the format readers need (resolved, no defaults left). */
export interface ReaderLimits {
  readonly maxTextChars: number;
  readonly maxUnzippedBytes: number;
  /** How long a reader that reads part by part (a PDF's pages) goes on before it stops with what it has. */
  readonly maxReadMs: number;
}

type Container = 'pdf' | 'ole' | 'zip';

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
 * Reads one document in the current thread, dispatching on the real container and what it holds:
 * a `.doc` that is really a .docx (or a `.xls` that is an .xlsx, a `.pdf` that is a Word file) is
 * read as what it is, and said to be. Unbounded in time: callers run it in a worker (see
 * extract.ts).
 */
export async function readDocument(
  bytes: Uint8Array,
  filetype: DocumentFiletype,
  limits: ReaderLimits,
): Promise<ExtractedDocument> {
  const family = filetypeFamily(filetype);
  if (family === null) {
    throw new NonRetryableError(`not a document type: ${String(filetype)}`, 'unsupported_filetype');
  }
  const container = sniff(bytes);
  // Parsers load on demand: a worker reading one .docx should not pay for pdf.js.
  if (container === 'pdf') {
    const pdf = await import('./pdf.js');
    return {
      ...(await pdf.extractPdf(bytes, limits.maxTextChars, limits.maxReadMs, limits.maxUnzippedBytes)),
      filetype: 'pdf',
    };
  }
  if (container === 'zip') return readPackage(unzipBounded(bytes, limits.maxUnzippedBytes), family, filetype, limits);
  const ole = container === 'ole' ? openOle(bytes) : null;
  const kind = ole ? (oleKind(ole) ?? (family === 'pdf' ? null : family)) : null;
  if (ole === null || kind === null) throw new NonRetryableError(`not a ${filetype} file`, 'document_unreadable');
  switch (kind) {
    case 'doc':
      return { ...(await readDoc(bytes)), filetype: 'doc' };
    case 'ppt':
      return { ...readPpt(ole, limits), filetype: 'ppt' };
    default:
      return { ...(await readSheets(bytes, limits)), filetype: 'xls' };
  }
}

/** The OOXML package each legacy family's files are saved as now. */
const OOXML_OF: Readonly<Record<'doc' | 'ppt' | 'xls', DocumentFiletype>> = { doc: 'docx', ppt: 'pptx', xls: 'xlsx' };

/**
 * A zip package, read as what its entries say it is (OpenDocument by its `mimetype`, OOXML by its
 * main part), else as the kind its filetype claims (a PDF's claim is none).
 */
async function readPackage(
  entries: ZipEntries,
  claimed: 'pdf' | 'doc' | 'ppt' | 'xls',
  filetype: DocumentFiletype,
  limits: ReaderLimits,
): Promise<ExtractedDocument> {
  const odf = odfKind(entries);
  if (odf === 'odt') return { ...readOdt(entries, limits.maxTextChars), filetype: 'odt' };
  if (odf === 'odp') return { ...readOdp(entries, limits.maxTextChars), filetype: 'odp' };
  if (odf === 'ods') {
    const sheets = await readSheets(rezip(entries), limits);
    const meta = odfMetadata(entries);
    return {
      ...sheets,
      title: meta.title ?? sheets.title,
      author: meta.author ?? sheets.author,
      published_at: meta.published_at ?? sheets.published_at,
      filetype: 'ods',
    };
  }
  const found = entries['word/document.xml']
    ? 'doc'
    : entries['ppt/presentation.xml']
      ? 'ppt'
      : entries['xl/workbook.xml']
        ? 'xls'
        : null;
  const kind = found ?? claimed;
  if (kind === 'pdf') throw new NonRetryableError(`not a ${filetype} file`, 'document_unreadable');
  // A package whose kind only its claim says keeps the type it was given.
  const type = found ? OOXML_OF[found] : filetype;
  if (kind === 'doc') return { ...(await readDocx(entries, limits.maxTextChars)), filetype: type };
  if (kind === 'ppt') return { ...readPptx(entries, limits), filetype: type };
  return { ...(await readSheets(rezip(entries), limits)), filetype: type };
}

async function readDoc(bytes: Uint8Array): Promise<DocumentContent> {
  const { default: WordExtractor } = await import('word-extractor');
  const doc = await new WordExtractor().extract(Buffer.from(bytes));
  const text = [doc.getBody(), doc.getFootnotes(), doc.getEndnotes()].filter((t) => t.trim() !== '').join('\n\n');
  return { text, markdown: text, ...oleSummary(openOle(bytes)) };
}

function readPptx(entries: ZipEntries, limits: ReaderLimits): DocumentContent {
  const slides = pptxSlides(entries, limits.maxTextChars).filter((s) => s.text.trim() !== '');
  return {
    text: slides.map((s) => s.text).join('\n\n'),
    markdown: slides.map((s) => s.markdown).join('\n\n'),
    ...ooxmlCoreProperties(entries),
  };
}

function readPpt(ole: ReturnType<typeof openOle>, limits: ReaderLimits): DocumentContent {
  return { ...pptText(ole, limits.maxTextChars), ...oleSummary(ole) };
}

async function readSheets(bytes: Uint8Array, limits: ReaderLimits): Promise<DocumentContent> {
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
  const sections: string[] = [];
  let total = 0;
  for (const name of book.SheetNames) {
    if (total >= limits.maxTextChars) break;
    const sheet = book.Sheets[name];
    if (!sheet) continue;
    const rows = sheetRows(XLSX, sheet, limits.maxTextChars - total);
    const text = rows.map((row) => row.join('\t')).join('\n');
    parts.push(text);
    if (rows.length > 0) sections.push(`## ${name}\n\n${sheetMarkdown(rows)}`);
    total += text.length;
  }
  const props = book.Props;
  return {
    text: parts.join('\n\n'),
    markdown: sections.join('\n\n'),
    title: props?.Title?.trim() || null,
    author: props?.Author?.trim() || null,
    published_at: parseTimestamp(props?.CreatedDate ?? null),
  };
}

/**
 * A sheet as a table, or, when no row has more than one cell (text pasted down a column, a list),
 * as paragraphs: a table of one column is a list of lines in a frame.
 */
function sheetMarkdown(rows: string[][]): string {
  if (rows.some((row) => row.length > 1)) return markdownTable(rows);
  return rows.map((row) => escapeLineStart(row.join('').replace(/\s+/g, ' ').trim())).join('\n\n');
}

/**
 * One sheet's non-empty cells as rows of texts (columns in order, gaps closed), until they hold
 * `maxChars` of text. Walks the cells that exist rather than the declared range, so a sheet
 * claiming a million empty columns costs nothing; and stops at the budget, since cells may share
 * one string: 60,000 cells naming one 64 KB shared string ran the worker out of memory joining 3.9
 * GB of text (a 150 KB file).
 */
function sheetRows(xlsx: typeof XLSX, sheet: XLSX.WorkSheet, maxChars: number): string[][] {
  const rows = new Map<number, { c: number; text: string }[]>();
  let chars = 0;
  for (const address of Object.keys(sheet)) {
    if (chars >= maxChars) break;
    if (address.startsWith('!')) continue;
    const cell = sheet[address] as XLSX.CellObject | undefined;
    if (!cell || cell.t === 'z') continue;
    const text = xlsx.utils.format_cell(cell).trim();
    if (text === '') continue;
    chars += text.length + 1;
    const { r, c } = xlsx.utils.decode_cell(address);
    const row = rows.get(r) ?? [];
    row.push({ c, text });
    rows.set(r, row);
  }
  return [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, cells]) => cells.sort((a, b) => a.c - b.c).map((cell) => cell.text));
}
