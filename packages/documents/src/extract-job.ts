import { filetypeFamily } from '@quarry/core';
import { readDocument } from './formats.js';
import { tidyMarkdown, tidyText } from './text.js';
import type { DocumentFiletype, ExtractedDocument } from './types.js';

/** One extraction as handed to a worker (structured-clone safe). */
export interface ExtractJob {
  readonly bytes: Uint8Array;
  readonly filetype: DocumentFiletype;
  readonly maxTextChars: number;
  readonly maxUnzippedBytes: number;
  readonly maxReadMs: number;
}

/** Reads the document and tidies its text, in whatever thread calls it. */
export async function extractHere(job: ExtractJob): Promise<ExtractedDocument> {
  const doc = await readDocument(job.bytes, job.filetype, job);
  return {
    text: tidyText(doc.text, job.maxTextChars),
    markdown: tidyMarkdown(doc.markdown, job.maxTextChars),
    title:
      documentTitle(tidyProperty(doc.title)) ??
      (filetypeFamily(doc.filetype) === 'xls' ? null : firstHeading(doc.markdown)),
    author: tidyProperty(doc.author),
    published_at: doc.published_at,
    filetype: doc.filetype,
  };
}

/** How far into the Markdown a document's first heading can name it. */
const HEADING_WITHIN_CHARS = 3_000;

/**
 * The first heading near the top of a document's Markdown (a PDF's largest line on its first page,
 * a Word file's `Title`, a deck's first slide title), unescaped: the title of a document whose
 * properties give none. A sheet's headings are its sheets' names, and are not asked.
 */
export function firstHeading(markdown: string): string | null {
  const heading = /^#{1,6} +(.+)$/m.exec(markdown.slice(0, HEADING_WITHIN_CHARS))?.[1];
  if (heading === undefined) return null;
  const plain = heading
    .replace(/\[\^[^\]]*\]/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\\([\\`*_[\]<>#|.\-+!()])/g, '$1');
  const text = tidyProperty(plain);
  return text !== null && /\p{L}/u.test(text) ? text.slice(0, 200) : null;
}

/** One line, no control characters, bounded; null when nothing is left. */
function tidyProperty(value: string | null): string | null {
  const text =
    value
      ?.replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() ?? '';
  return text === '' ? null : text.slice(0, 500);
}

/** The tool's prefix that a document printed to PDF keeps in its title (`Microsoft Word - `). */
const TOOL_PREFIX = /^microsoft (?:office )?(?:word|powerpoint|excel) - /i;
/** A file name's extension as office tools and scanners leave it in a title. */
const FILE_EXTENSION = /\.(?:docx?|pptx?|xlsx?|od[tps]|rtf|pdf|txt|tiff?|jpe?g|png|indd|qxd)$/i;
/** Titles a tool gives a document nobody named. */
const PLACEHOLDER =
  /^(?:untitled(?:[- ]\d+)?|(?:document|presentation|book|sheet|slide)\s*\d+|powerpoint presentation|title)$/i;

/**
 * A document's title as its properties give it, without what its tools added: `Microsoft Word -
 * Annual report.docx` is `Annual report`; a scan's file name (`00463065.tif`) or a placeholder
 * (`Document1`, `Untitled`) is no title (the crawler then names the document by its URL).
 */
export function documentTitle(title: string | null): string | null {
  if (title === null) return null;
  const bare = title.replace(TOOL_PREFIX, '').replace(FILE_EXTENSION, '').trim();
  if (!/\p{L}/u.test(bare) || PLACEHOLDER.test(bare)) return null;
  return bare;
}
