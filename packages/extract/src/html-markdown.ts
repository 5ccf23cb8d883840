import { parseDocument } from './dom.js';
import { FOOTNOTE_ATTRIBUTE } from './footnotes.js';
import { unwrapDocumentLayoutTables } from './layout-tables.js';
import { contentMarkdown } from './markdown.js';
import { blockText, unwrap } from './text.js';

/** A document's content as plain text and as markdown. */
export interface HtmlDocument {
  text: string;
  markdown: string;
}

/**
 * The text and markdown of an HTML document that is content from end to end, as a Word file is once
 * mammoth has written it as HTML: read as a page is (footnote references `[1]` in the text and
 * `[^1]` in the markdown, their notes `[^1]: …`, the links back from the notes left out) and
 * converted as a page's main content is. A link within the document (a table of contents' entry, a
 * cross-reference to `#_Toc…`) keeps only its text: it leads nowhere a reader of the markdown can
 * follow. The tables that lay the document out are read as their content (see
 * unwrapDocumentLayoutTables); a data table is a markdown table, and in the text a line per row.
 *
 * @example htmlDocument('<h1>Report</h1><p>Sales rose<sup><a href="#fn-1">[1]</a></sup>.</p>…').markdown
 */
export function htmlDocument(html: string): HtmlDocument {
  const { document, close } = parseDocument(
    `<!DOCTYPE html><html><body>${html}</body></html>`,
    'about:blank',
    'linkedom',
  );
  try {
    for (const link of Array.from(document.body.querySelectorAll('a[href^="#"]'))) {
      if (link.closest(`[${FOOTNOTE_ATTRIBUTE}]`) === null) unwrap(link);
    }
    unwrapDocumentLayoutTables(document.body);
    // Before the markdown, which edits the document as it writes it.
    const text = blockText(document.body, { rowsAsLines: true });
    return { text, markdown: contentMarkdown(document.body) };
  } finally {
    close();
  }
}
