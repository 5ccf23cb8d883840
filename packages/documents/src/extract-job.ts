import { readDocument } from './formats.js';
import { tidyMarkdown, tidyText } from './text.js';
import type { DocumentFiletype, ExtractedDocument } from './types.js';

/** One extraction as handed to a worker (structured-clone safe). */
export interface ExtractJob {
  readonly bytes: Uint8Array;
  readonly filetype: DocumentFiletype;
  readonly maxTextChars: number;
  readonly maxUnzippedBytes: number;
}

/** Reads the document and tidies its text, in whatever thread calls it. */
export async function extractHere(job: ExtractJob): Promise<ExtractedDocument> {
  const doc = await readDocument(job.bytes, job.filetype, job);
  return {
    text: tidyText(doc.text, job.maxTextChars),
    markdown: tidyMarkdown(doc.markdown, job.maxTextChars),
    title: tidyProperty(doc.title),
    author: tidyProperty(doc.author),
    published_at: doc.published_at,
  };
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
