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
    title: documentTitle(
      tidyProperty(doc.title),
      filetypeFamily(doc.filetype) === 'xls' ? null : firstHeading(doc.markdown),
    ),
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
/** A file name's extension as office tools, scanners and TeX (`main.dvi`) leave it in a title. */
const FILE_EXTENSION = /\.(?:docx?|pptx?|xlsx?|od[tps]|rtf|pdf|txt|tiff?|jpe?g|png|indd|qxd|dvi|e?ps|tex)$/i;
/** The folders before a file's name: `C:\Users\bob\`, `\\server\share\`, `/home/ann/`, `~/`. */
const FOLDERS = /^(?:[a-z]:[\\/]|\\\\|~?\/)(?:[^\\/]*[\\/])*/i;
/** Titles a tool gives a document nobody named. */
const PLACEHOLDER =
  /^(?:untitled(?:[- ]\d+)?|(?:document|presentation|book|sheet|slide)\s*\d+|powerpoint presentation|title)$/i;

/**
 * A document's title as its properties give it, without what its tools added: `Microsoft Word -
 * Annual report.docx` is `Annual report`, `/home/ann/papers/thesis.pdf` is `thesis`. A placeholder
 * (`Document1`, `Untitled`) or a file's name or path gives way to the document's first `heading`
 * when there is one; a scan's name (`00463065.tif`) with no heading is no title (the crawler then
 * names the document by its URL).
 */
export function documentTitle(title: string | null, heading: string | null = null): string | null {
  if (title === null) return heading;
  const named = title.replace(TOOL_PREFIX, '').trim();
  const file = FOLDERS.test(named) || FILE_EXTENSION.test(named);
  const bare = named.replace(FOLDERS, '').replace(FILE_EXTENSION, '').trim();
  if (!/\p{L}/u.test(bare) || PLACEHOLDER.test(bare)) return heading;
  return file ? (heading ?? bare) : bare;
}
